/** Resolvers of the enrichment passthrough family; each delegates to its source module. */
import type { RequestContext } from '../context.ts';
import { moleculeEnrichment } from './molecule.ts';
import { usApprovals, usNdcClass } from './openfda.ts';
import { pharmacologyTargets } from './gtopdb.ts';
import { pgx } from './pgx.ts';
import { targets } from './opentargets.ts';
import { targetGenetics } from './genetics.ts';
import type { GeneticsArgs } from './genetics.ts';
import { targetStructure } from './structure.ts';
import { guidelines, hta } from './guidelines.ts';
import type { GuidelineFilter, HtaFilter } from './guidelines.ts';
import { curatedSignature, scoreSignature } from './signatures.ts';
import { assessment } from './assessment.ts';

type NameArgs = { name: string };

/** Query resolvers of the passthrough family (merged into the domain map in resolvers/rxnorm). */
export const enrichmentResolvers = {
  Query: {
    moleculeEnrichment: (_: unknown, args: { chemblId?: string | null; name?: string | null }, ctx: RequestContext) => moleculeEnrichment(ctx, args),
    usApprovals: (_: unknown, args: NameArgs, ctx: RequestContext) => usApprovals(ctx, args.name),
    pharmacologyTargets: (_: unknown, args: NameArgs, ctx: RequestContext) => pharmacologyTargets(ctx, args.name),
    usNdcClass: (_: unknown, args: NameArgs, ctx: RequestContext) => usNdcClass(ctx, args.name),
    pgx: (_: unknown, args: NameArgs, ctx: RequestContext) => pgx(ctx, args.name),
    targets: (_: unknown, args: NameArgs, ctx: RequestContext) => targets(ctx, args.name),
    targetGenetics: (_: unknown, args: GeneticsArgs, ctx: RequestContext) => targetGenetics(ctx, args),
    targetStructure: (_: unknown, args: { symbol: string; organismId: number }, ctx: RequestContext) => targetStructure(ctx, args.symbol, args.organismId),
    guidelines: (_: unknown, args: GuidelineFilter, ctx: RequestContext) => guidelines(ctx, args),
    hta: (_: unknown, args: HtaFilter, ctx: RequestContext) => hta(ctx, args),
    signatures: (_: unknown, args: { indication?: string | null; efo?: string | null; limit?: number | null }, ctx: RequestContext) => curatedSignature(ctx, args),
    assessment: (_: unknown, args: { drug: string; indication: string }, ctx: RequestContext) => assessment(ctx, args),
    scoreSignature: (_: unknown, args: { up?: string[] | null; down?: string[] | null; limit?: number | null }, ctx: RequestContext) => scoreSignature(ctx, args),
  },
};
