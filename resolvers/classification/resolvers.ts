/** Resolvers of the classification domain (ATC tree). */
import type { RequestContext } from '../context.ts';
import { atcAncestorCodes } from './atc.ts';
import type { AtcNode } from './atc.ts';
import { metaFor } from '../sources/status.ts';

export const classificationResolvers = {
  Query: {
    atc: (_: unknown, args: { code: string }, ctx: RequestContext) => ctx.loaders.atcNode.load(args.code.trim().toUpperCase()),
  },
  AtcNode: {
    parent: (node: AtcNode, _: unknown, ctx: RequestContext) => (node.parentCode ? ctx.loaders.atcNode.load(node.parentCode) : null),
    ancestors: async (node: AtcNode, _: unknown, ctx: RequestContext) => {
      const nodes = await ctx.loaders.atcNode.loadMany(atcAncestorCodes(node.code));
      return nodes.filter((n): n is AtcNode => n !== null && !(n instanceof Error));
    },
    meta: (node: AtcNode, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, [node.source]),
  },
};
