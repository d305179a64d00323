/** Resolver map of the CDS Hooks domain: the discovery list and one hook call. */
import type { RequestContext } from '../context.ts';
import { answerHook } from './hook.ts';
import { CDS_SERVICES } from './services.ts';

export const cdsResolvers = {
  Query: {
    cdsServices: () => CDS_SERVICES,
    cdsHook: (_: unknown, args: { serviceId: string; request: unknown }, ctx: RequestContext) => answerHook(ctx, args.serviceId, args.request),
  },
};
