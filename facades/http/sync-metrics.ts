/**
 * Prometheus metrics per sync source, read from `sync_state` at scrape time. The state lives
 * in the database, not in the process, so every API instance reports the same numbers
 * whichever worker ran the sync (and an API-only process reports them too).
 */
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { Queryable } from '../../platform/db.ts';
import { readSyncStatus } from '../../resolvers/sources/sync-status.ts';
import type { SyncStatusRow } from '../../resolvers/sources/sync-status.ts';

/** One scrape reads the state once; the gauges of that scrape share the rows for this long. */
const SNAPSHOT_TTL_MS = 1_000;

const seconds = (d: Date | null): number | null => (d ? d.getTime() / 1000 : null);

/** Registers the sync metrics on `registry`, each filled from the database when scraped. */
export function registerSyncMetrics(registry: Registry, db: Queryable): void {
  let cached: { at: number; rows: Promise<SyncStatusRow[]> } | null = null;
  const rows = (): Promise<SyncStatusRow[]> => {
    if (!cached || Date.now() - cached.at > SNAPSHOT_TTL_MS) cached = { at: Date.now(), rows: readSyncStatus(db).catch(() => []) };
    return cached.rows;
  };
  const gauge = (name: string, help: string, value: (r: SyncStatusRow) => number | null) =>
    new Gauge({
      name, help, labelNames: ['source'], registers: [registry],
      async collect() {
        this.reset();
        for (const r of await rows()) {
          const v = value(r);
          if (v !== null) this.set({ source: r.source }, v);
        }
      },
    });
  gauge('drugref_sync_last_success_timestamp_seconds', 'When the source was last confirmed current (ingested or 304).', (r) => seconds(r.lastSuccessAt));
  gauge('drugref_sync_last_attempt_timestamp_seconds', 'When the source was last attempted.', (r) => seconds(r.lastAttemptAt));
  gauge('drugref_sync_last_duration_seconds', 'Duration of the last attempt (download, parse and ingest).', (r) => (r.lastDurationMs === null ? null : r.lastDurationMs / 1000));
  gauge('drugref_sync_last_bytes', 'Bytes downloaded by the last attempt.', (r) => r.lastBytes);
  gauge('drugref_sync_consecutive_failures', 'Failed attempts since the last success.', (r) => r.consecutiveFailures);
  new Gauge({
    name: 'drugref_sync_rows', help: 'Rows of the last ingested file by kind (read, kept, malformed, excluded).', labelNames: ['source', 'kind'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await rows()) {
        const ingested = r.lastIngest?.rows;
        if (ingested) for (const kind of ['read', 'kept', 'malformed', 'excluded'] as const) this.set({ source: r.source, kind }, ingested[kind]);
      }
    },
  });
  new Gauge({
    name: 'drugref_sync_last_outcome', help: 'The last attempt\'s outcome (1 on the outcome label).', labelNames: ['source', 'outcome'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await rows()) if (r.lastOutcome) this.set({ source: r.source, outcome: r.lastOutcome }, 1);
    },
  });
  new Counter({
    name: 'drugref_sync_failures_total', help: 'Failed sync attempts since the source was first configured.', labelNames: ['source'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await rows()) this.inc({ source: r.source }, r.totalFailures);
    },
  });
}
