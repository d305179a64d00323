/** Resolvers of the RxNorm part of the enrichment domain (Query.rxnorm is also public). */
import type { RequestContext } from '../context.ts';
import { rxConcept } from './concept.ts';
import { resolveRxcui } from './resolve.ts';
import { enrichmentResolvers } from '../enrichment/resolvers.ts';

/** RxNorm plus the enrichment passthrough family: one resolver map for the domain. */
export const rxnormResolvers = {
  Query: {
    ...enrichmentResolvers.Query,
    rxnorm: (_: unknown, args: { rxcui: string }, ctx: RequestContext) => rxConcept(ctx, args.rxcui.trim()),
    rxnormResolve: (_: unknown, args: { name: string }, ctx: RequestContext) => resolveRxcui(ctx, args.name),
  },
};
