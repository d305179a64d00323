/**
 * The per-request context every resolver receives: who is calling, the database, the
 * request's own dataloaders, the clock, a logger, the config and app-level services.
 */
import type { Logger } from '../platform/logger.ts';
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import type { Clock } from '../platform/clock.ts';
import type { Principal } from './accounts/keys.ts';
import type { Engine } from '../platform/graphql/engine.ts';
import type { ChatTools } from './chat/tools.ts';
import { createLoaders } from './loaders.ts';
import type { Loaders } from './loaders.ts';

/**
 * App-level singletons (upstream clients, vaults ...). Domains add theirs by declaration
 * merging: `declare module '../context.ts' { interface Services { x: X } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/**
 * The app's engine (for resolvers that run documents of their own, such as the export) and
 * the assistant's tools, which the facades build from the route table and hand down here.
 */
export interface Toolbox {
  engine: Engine;
  chat: ChatTools;
}

/** What stays the same for every request of one app instance. */
export interface AppDeps {
  config: Config;
  db: Database;
  now: Clock;
  services: Services;
  toolbox: Toolbox;
}

export interface RequestContext extends AppDeps {
  principal: Principal | null;
  loaders: Loaders;
  log: Logger;
  /** Headers a resolver wants on the HTTP answer (x-service-cache, Deprecation ...). */
  response: { headers: Record<string, string> };
}

/**
 * Written out, not `{ ...deps, principal, … }`: on Node 20 (V8 11.3) an object made by a
 * spread and then given more properties costs about 1–3 µs to build, 30–100 times a
 * literal, and this runs for every request.
 */
export function createContext(deps: AppDeps, principal: Principal | null, log: Logger): RequestContext {
  const { config, db, now, services, toolbox } = deps;
  return { config, db, now, services, toolbox, principal, log, loaders: createLoaders(deps), response: { headers: {} } };
}
