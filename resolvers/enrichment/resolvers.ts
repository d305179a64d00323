/** Resolvers of the enrichment passthrough family; each delegates to its source module. */
import type { RequestContext } from '../context.ts';
import { moleculeEnrichment } from './molecule.ts';
import { usApprovals, usNdcClass } from './openfda.ts';
import { pharmacologyTargets } from './gtopdb.ts';

type NameArgs = { name: string };

export const enrichmentResolvers = {
  Query: {
    moleculeEnrichment: (_: unknown, args: { chemblId?: string | null; name?: string | null }, ctx: RequestContext) => moleculeEnrichment(ctx, args),
    usApprovals: (_: unknown, args: NameArgs, ctx: RequestContext) => usApprovals(ctx, args.name),
    pharmacologyTargets: (_: unknown, args: NameArgs, ctx: RequestContext) => pharmacologyTargets(ctx, args.name),
    usNdcClass: (_: unknown, args: NameArgs, ctx: RequestContext) => usNdcClass(ctx, args.name),
  },
};
