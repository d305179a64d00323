/**
 * Builds the app-level services (upstream clients, vaults, model providers ...) from the
 * config, once per process. Domains declare their service type by augmenting `Services`
 * in resolvers/context.ts and add their constructor here; tests pass their own.
 */
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import type { Logger } from '../platform/logger.ts';
import type { Services } from '../resolvers/context.ts';

export function createServices(_config: Config, _db: Database, _log: Logger): Services {
  return {};
}
