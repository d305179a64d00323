/** Resolver map of Swiss reimbursement pre-validation. */
import type { RequestContext } from '../context.ts';
import type { DrugReference } from '../interactions/references.ts';
import { comparePrices, validateClaim } from './claims.ts';

interface Args { pack: DrugReference; quantity?: number | null }

export const reimbursementResolvers = {
  Query: {
    chClaim: (_: unknown, args: Args, ctx: RequestContext) => validateClaim(ctx, args.pack, args.quantity ?? 1),
    chPriceComparison: (_: unknown, args: Args, ctx: RequestContext) => comparePrices(ctx, args.pack, args.quantity ?? 1),
  },
};
