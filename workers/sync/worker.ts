/**
 * The register sync worker. Every tick it claims each due source in turn (a lease per source,
 * so any number of workers against one PostgreSQL download each file once), syncs it
 * (run.ts) and records the attempt; the next attempt is one interval later after a success,
 * sooner with doubling backoff after a failure. `drugref sync` runs the same runner on demand.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config, SyncConfig } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { findAdapter } from '../ingest/adapters/index.ts';
import type { RunningWorker, WorkerDeps } from '../index.ts';
import { syncAgent } from './fetch.ts';
import { syncOnce } from './run.ts';
import type { SyncProgress, SyncResult } from './run.ts';
import { SYNC_SOURCES, findSyncSource } from '../../platform/sync-sources.ts';
import type { SyncSourceDefinition } from '../../platform/sync-sources.ts';
import { claimSource, finishAttempt, registerSources, renewLease } from './state.ts';
import type { ClaimedSource } from './state.ts';

/** A lease this long lapses soon after a crash; a live worker renews it while it works. */
export const LEASE_MS = 120_000;
/** Renewals per lease period: two may be missed (a busy event loop) before the lease lapses. */
const RENEWALS_PER_LEASE = 3;
const HOUR_MS = 3_600_000;

export interface SyncRunnerOptions {
  leaseMs: number;
  /** Identifies this worker in leases and the attempt log. */
  owner: string;
  onProgress?: (p: SyncProgress) => void;
  /** Accept files the shrink guard would refuse, for this runner only (`drugref sync --allow-shrink`). */
  allowShrink?: boolean;
}

/** A source the runner will not sync, and why (shown by `drugref sync`). */
export interface SkippedSource {
  source: string;
  outcome: 'skipped' | 'busy';
  reason: string;
}

export interface SyncRunner {
  /** Syncs every due source until none is left; the scheduled path. */
  runDue(): Promise<SyncResult[]>;
  /** Syncs the named sources (default: every active one) now, due or not. */
  runNow(ids?: readonly string[]): Promise<Array<SyncResult | SkippedSource>>;
  /** Abandons downloads in flight (recorded as network_error) so a shutdown does not wait for them. */
  abort(): void;
  close(): Promise<void>;
}

interface Active {
  def: SyncSourceDefinition;
  url: string;
  intervalHours: number;
}

/** Why a defined source cannot be synced with this config, or null when it can. */
export function inactiveReason(config: SyncConfig, def: SyncSourceDefinition): string | null {
  const source = config.sources[def.id];
  if (!source?.enabled) return 'switched off (SYNC_<SOURCE>_ENABLED=false)';
  if (!source.url) return `no download URL configured${def.note ? `: ${def.note}` : ''}`;
  if (!findAdapter(def.adapter)) return `adapter "${def.adapter}" is not registered in this build`;
  return null;
}

function activeSources(config: SyncConfig): Map<string, Active> {
  const out = new Map<string, Active>();
  for (const def of SYNC_SOURCES) {
    if (inactiveReason(config, def) !== null) continue;
    const source = config.sources[def.id]!;
    out.set(def.id, { def, url: source.url!, intervalHours: source.intervalHours });
  }
  return out;
}

async function runClaimed(deps: { db: Database; config: Config; log: Logger }, ctx: Parameters<typeof syncOnce>[0], active: Active, claim: ClaimedSource, leaseMs: number): Promise<SyncResult> {
  const startedAt = new Date();
  const started = performance.now();
  // Renewed while the download and the ingest run, so a slow but live worker keeps its source.
  const heartbeat = setInterval(() => {
    renewLease(deps.db, claim, leaseMs).catch((err: unknown) => deps.log.warn({ err, source: claim.source }, 'sync lease renewal failed'));
  }, Math.max(50, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
  heartbeat.unref();
  let result: SyncResult;
  try {
    result = await syncOnce(ctx, active.def, active.url, claim.validators);
  } finally {
    clearInterval(heartbeat);
  }
  const durationMs = Math.round(performance.now() - started);
  const held = await finishAttempt(deps.db, claim, {
    startedAt, outcome: result.outcome, error: result.error, httpStatus: result.httpStatus, bytes: result.bytes,
    rows: result.rows, changes: result.changes, durationMs, catalogueSource: result.catalogueSource, validators: result.validators,
    intervalMs: active.intervalHours * HOUR_MS, retryBaseMs: deps.config.sync.retryBaseMs,
  });
  if (!held) deps.log.warn({ source: claim.source }, 'sync lease lost during the attempt; outcome logged, state left to the new owner');
  const level = result.outcome === 'ok' || result.outcome === 'not_modified' ? 'info' : 'warn';
  deps.log[level]({ source: claim.source, outcome: result.outcome, status: result.httpStatus, bytes: result.bytes, rows: result.rows, changes: result.changes, durationMs, error: result.error }, 'register sync attempted');
  return { ...result, durationMs };
}

/** A runner over the configured sources; the scheduled worker, the CLI and the tests share it. */
export function createSyncRunner(deps: { db: Database; config: Config; log: Logger }, options: Partial<SyncRunnerOptions> = {}): SyncRunner {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const dispatcher = syncAgent(deps.config.sync);
  const active = activeSources(deps.config.sync);
  const stopping = new AbortController();
  const ctx = { db: deps.db, config: deps.config.sync, log: deps.log, dispatcher, stop: stopping.signal,
    allowShrink: options.allowShrink === true, ...(options.onProgress ? { onProgress: options.onProgress } : {}) };
  let registered: Promise<void> | null = null;
  // Once per runner; a failed registration (a database hiccup) is tried again on the next run.
  const register = () => (registered ??= registerSources(deps.db, [...active.values()].map(({ def, intervalHours }) => ({ def, intervalHours }))).catch((err: unknown) => {
    registered = null;
    throw err;
  }));

  const claimAndRun = async (only: string[] | undefined, force: boolean, skip: string[]): Promise<SyncResult | null> => {
    if (stopping.signal.aborted) return null;
    const claim = await claimSource(deps.db, { owner, leaseMs, force, skip, ...(only ? { only } : {}) });
    if (!claim) return null;
    skip.push(claim.source);
    return runClaimed(deps, ctx, active.get(claim.source)!, claim, leaseMs);
  };

  return {
    async runDue() {
      await register();
      const results: SyncResult[] = [];
      const handled: string[] = [];
      for (;;) {
        const result = await claimAndRun([...active.keys()], false, handled);
        if (!result) return results;
        results.push(result);
      }
    },
    async runNow(ids) {
      await register();
      const out: Array<SyncResult | SkippedSource> = [];
      for (const id of ids ?? [...active.keys()]) {
        const def = findSyncSource(id);
        if (!def) throw new Error(`unknown sync source "${id}"`);
        const reason = inactiveReason(deps.config.sync, def);
        if (reason) {
          out.push({ source: id, outcome: 'skipped', reason });
          continue;
        }
        const result = await claimAndRun([id], true, []);
        out.push(result ?? { source: id, outcome: 'busy', reason: 'another worker holds its lease' });
      }
      return out;
    },
    abort: () => stopping.abort(),
    close: () => dispatcher.close(),
  };
}

/** Starts the scheduled worker (a tick now, then every `tickMs`); idle unless SYNC_ENABLED. */
export function startSyncWorker(deps: WorkerDeps, options: Partial<SyncRunnerOptions> = {}): RunningWorker {
  if (!deps.config.sync.enabled) {
    deps.log.debug('register sync disabled (SYNC_ENABLED is not set)');
    return { name: 'register-sync', close: async () => undefined };
  }
  for (const def of SYNC_SOURCES) {
    const reason = inactiveReason(deps.config.sync, def);
    if (reason) deps.log.info({ source: def.id, reason }, 'register sync: source not scheduled');
  }
  const runner = createSyncRunner(deps, options);
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    const started = Date.now();
    current = runner.runDue().then(
      (results) => deps.log.debug({ synced: results.length }, 'register sync tick finished'),
      (err: unknown) => deps.log.error({ err }, 'register sync tick failed'),
    ).finally(() => {
      if (!stopped) timer = setTimeout(tick, Math.max(0, deps.config.sync.tickMs - (Date.now() - started)));
    });
  };
  tick();
  return {
    name: 'register-sync',
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      runner.abort();
      await current;
      await runner.close();
    },
  };
}

/** WORKERS entry: the register sync worker with the configured sources. */
export const registerSyncWorker = (deps: WorkerDeps): RunningWorker => startSyncWorker(deps);
