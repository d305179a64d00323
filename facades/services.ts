/**
 * Builds the app-level services (upstream clients, vaults, model providers ...) from the
 * config, once per process. Domains declare their service type by augmenting `Services`
 * in resolvers/context.ts and add their constructor here; tests pass their own.
 */
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import type { Logger } from '../platform/logger.ts';
import type { Services } from '../resolvers/context.ts';
import { createChatServices } from '../resolvers/chat/services.ts';
import { UpstreamClient } from '../platform/upstream/client.ts';
import '../resolvers/enrichment/upstream.ts';

export function createServices(config: Config, db: Database, log: Logger): Services {
  return {
    chat: createChatServices(config),
    upstream: new UpstreamClient({ config: config.upstream, db, log }),
  };
}

/** Releases what the services hold open (the upstream HTTP agent), for a clean shutdown. */
export async function closeServices(services: Services): Promise<void> {
  await services.upstream?.close();
}
