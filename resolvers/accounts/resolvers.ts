/** Query resolvers of the accounts domain: the caller's own usage. */
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { accountUsage } from './usage.ts';

export const accountResolvers = {
  Query: {
    usage: async (_: unknown, _args: unknown, ctx: RequestContext) => {
      // The route needs a key; a caller without a principal never reaches here through REST or MCP.
      if (!ctx.principal) throw new ApiError('unauthorized');
      return accountUsage(ctx.db, ctx.principal, ctx.now());
    },
  },
};
