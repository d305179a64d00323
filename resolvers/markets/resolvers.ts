/** Resolver map of the markets domain. */
import type { RequestContext } from '../context.ts';
import { marketOverview, requireQuery } from './overview.ts';

export const marketResolvers = {
  Query: {
    marketOverview: (_: unknown, args: { q: string; countries?: string | null }, ctx: RequestContext) =>
      marketOverview(ctx, requireQuery(args.q), args.countries ?? undefined),
  },
  Pack: {
    pricePerDdd: (pack: { id: string }, _: unknown, ctx: RequestContext) => ctx.loaders.packDddPrice.load(pack.id),
  },
};
