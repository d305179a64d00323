/** Resolvers of the changes domain: the feed, webhook subscriptions and their status. */
import { ApiError } from '../../platform/errors.ts';
import type { Principal } from '../accounts/keys.ts';
import type { RequestContext } from '../context.ts';
import { metaFor } from '../sources/status.ts';
import { changesPage } from './feed.ts';
import type { ChangePage, ChangesArgs } from './feed.ts';
import { createSubscription, deleteSubscription, listSubscriptions } from './subscriptions.ts';
import type { Subscription } from './subscriptions.ts';

function caller(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new ApiError('unauthorized');
  return ctx.principal;
}

export const changesResolvers = {
  Query: {
    changes: (_: unknown, args: ChangesArgs, ctx: RequestContext) => changesPage(ctx, args),
    webhooks: (_: unknown, __: unknown, ctx: RequestContext) => listSubscriptions(ctx.db, caller(ctx).accountId),
  },
  Mutation: {
    createWebhook: (_: unknown, args: { url: string; events?: string[] | null }, ctx: RequestContext) =>
      createSubscription(ctx.db, ctx.config, caller(ctx).accountId, args, ctx.services.resolveHost),
    deleteWebhook: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      await deleteSubscription(ctx.db, caller(ctx).accountId, args.id);
      return true;
    },
  },
  ChangePage: {
    // The sources that produced this page's changes (one entry per contributing source).
    meta: (page: ChangePage, _: unknown, ctx: RequestContext) => metaFor(ctx.loaders.source, page.changes.map((c) => c.source)),
  },
  WebhookSubscription: {
    lastDelivery: (sub: Subscription, _: unknown, ctx: RequestContext) => ctx.loaders.webhookLastDelivery.load(sub.id),
  },
};
