/** Configs and fixtures shared by the sync tests: every source off except those pointed at the fake publisher. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { testConfig } from '../../platform/config.ts';
import type { Config, SyncConfig } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import { createSyncRunner } from '../../workers/sync/worker.ts';
import type { SyncRunner, SyncRunnerOptions } from '../../workers/sync/worker.ts';
import type { FakePublisher } from './publisher.ts';

const REGISTERS = fileURLToPath(new URL('../fixtures/registers/', import.meta.url));

/** A register fixture's bytes, e.g. `ch-sl/Preparations.xml`. */
export function fixture(path: string): Buffer {
  return readFileSync(REGISTERS + path);
}

/** Short limits so misbehaviour is detected in tests within a second or two. */
export const TEST_SYNC: Omit<SyncConfig, 'sources'> = {
  enabled: true, tickMs: 100, timeoutMs: 1_500, maxBytes: 200_000, maxUnpackedBytes: 1_000_000,
  retryBaseMs: 60_000, strict: false, allowPrivateTargets: true, shrink: { maxDeletePercent: 20, maxSkippedPercent: 10 }, heapGrowthPercent: 0,
};

/** A config whose only active sources are `urls` (source id → path on the publisher, `{file}` allowed). */
export function syncConfig(publisher: FakePublisher, urls: Record<string, string>, overrides: Partial<SyncConfig> = {}): Config {
  const base = testConfig();
  const sources = Object.fromEntries(Object.entries(base.sync.sources).map(([id, s]) => [id, { ...s, enabled: false }]));
  for (const [id, path] of Object.entries(urls)) sources[id] = { url: publisher.url + path, enabled: true, intervalHours: 24, maxDeletePercent: overrides.shrink?.maxDeletePercent ?? 20 };
  return { ...base, sync: { ...TEST_SYNC, ...overrides, sources } };
}

export function runner(db: Database, config: Config, options: Partial<SyncRunnerOptions> = {}): SyncRunner {
  return createSyncRunner({ db, config, log: pino({ level: 'silent' }) }, options);
}

export interface StateRow {
  last_outcome: string | null;
  last_http_status: number | null;
  last_bytes: string | null;
  rows_read: number | null;
  rows_kept: number | null;
  rows_malformed: number | null;
  rows_excluded: number | null;
  last_changes: number | null;
  consecutive_failures: number;
  last_error: string | null;
  backoff_ms: number;
}

/** The state row of one source, with the delay until its next attempt. */
export async function state(db: Database, source: string): Promise<StateRow> {
  const { rows } = await db.query<StateRow>(
    `SELECT last_outcome, last_http_status, last_bytes::text, rows_read, rows_kept, rows_malformed, rows_excluded, last_changes, consecutive_failures, last_error,
            round(extract(epoch FROM next_attempt_at - last_attempt_at) * 1000)::float8 AS backoff_ms
       FROM sync_state WHERE source = $1`, [source]);
  return rows[0]!;
}

/** Rows an attempt read and did not keep (malformed and excluded together); throws when it ingested nothing. */
export function rowsNotKept(result: unknown): number {
  const rows = (result as { rows?: { malformed: number; excluded: number } | null } | undefined)?.rows;
  if (!rows) throw new Error(`no rows in ${JSON.stringify(result)}`);
  return rows.malformed + rows.excluded;
}
