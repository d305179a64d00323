/**
 * Background workers, gathered as init/close pairs: webhook delivery and register sync
 * (idle unless SYNC_ENABLED). `drugref serve` runs them next to the
 * API (`--role all`), `drugref worker` alone; any number of instances may run against
 * one database, since each worker claims its work with row locks.
 */
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { webhookDeliveryWorker } from './webhooks/worker.ts';
import { registerSyncWorker } from './sync/worker.ts';

export interface WorkerDeps {
  config: Config;
  db: Database;
  now: Clock;
  log: Logger;
}

export interface RunningWorker {
  name: string;
  /** Stops scheduling and waits for the run in progress. */
  close(): Promise<void>;
}

export type WorkerFactory = (deps: WorkerDeps) => RunningWorker;

/** Every worker of the service. */
export const WORKERS: WorkerFactory[] = [webhookDeliveryWorker, registerSyncWorker];

export function startWorkers(deps: WorkerDeps, factories: WorkerFactory[] = WORKERS): { close(): Promise<void>; names: string[] } {
  const running = factories.map((start) => start(deps));
  return {
    names: running.map((w) => w.name),
    close: async () => {
      await Promise.all(running.map((w) => w.close()));
    },
  };
}
