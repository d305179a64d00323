/** Resolvers shared by every register-derived payload: sources and `_meta`. */
import type { RequestContext } from '../context.ts';
import { listSources } from './status.ts';

export const sourceResolvers = {
  Query: {
    sources: (_: unknown, __: unknown, ctx: RequestContext) => listSources(ctx.db, ctx.now()),
  },
};
