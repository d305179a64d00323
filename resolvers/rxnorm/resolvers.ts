/** Resolvers of the RxNorm part of the enrichment domain (Query.rxnorm is also public). */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { rxConcept } from './concept.ts';
import { resolveRxcui } from './resolve.ts';
import { enrichmentResolvers } from '../enrichment/resolvers.ts';

/** RxCUIs are 1 to 10 digits; anything else is refused here, so GraphQL refuses what REST's path schema does. */
function checkedRxcui(raw: string): string {
  const rxcui = raw.trim();
  if (!/^\d{1,10}$/.test(rxcui)) {
    throw validationError('Invalid request: rxcui must be an RxNorm concept id of 1 to 10 digits.', [{ location: 'argument', field: 'rxcui', message: 'must be 1 to 10 digits' }]);
  }
  return rxcui;
}

/** RxNorm plus the enrichment passthrough family: one resolver map for the domain. */
export const rxnormResolvers = {
  Query: {
    ...enrichmentResolvers.Query,
    rxnorm: (_: unknown, args: { rxcui: string }, ctx: RequestContext) => rxConcept(ctx, checkedRxcui(args.rxcui)),
    rxnormResolve: (_: unknown, args: { name: string }, ctx: RequestContext) => resolveRxcui(ctx, args.name),
  },
};
