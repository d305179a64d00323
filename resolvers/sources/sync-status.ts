/**
 * The read side of sync state: every source's last attempt, last ingest and schedule, as
 * `drugref sync status` prints it and the /metrics endpoint exports it. The worker that
 * writes the state (workers/sync/state.ts) shares these shapes.
 */
import type { Queryable } from '../../platform/db.ts';

/** Every outcome a sync attempt can record. */
export const SYNC_OUTCOMES = [
  'ok', 'not_modified', 'refused', 'shrink_refused', 'skipped_refused', 'http_error', 'timeout', 'too_large', 'network_error', 'failed',
  'interrupted',
] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

/** Rows of an ingest by outcome: every row read is kept, malformed or excluded. */
export interface RowCounts {
  read: number;
  kept: number;
  malformed: number;
  /** Excluded rows over all files (the reasons are in the file reports). */
  excluded: number;
}

/** One row of `drugref sync status` and of the metrics. */
export interface SyncStatusRow {
  source: string;
  adapter: string;
  catalogueSource: string;
  enabled: boolean;
  intervalHours: number;
  nextAttemptAt: Date;
  leasedBy: string | null;
  lastAttemptAt: Date | null;
  lastOutcome: SyncOutcome | null;
  lastError: string | null;
  lastHttpStatus: number | null;
  lastBytes: number | null;
  rows: { [K in keyof RowCounts]: number | null };
  lastChanges: number | null;
  lastDurationMs: number | null;
  consecutiveFailures: number;
  totalFailures: number;
  lastSuccessAt: Date | null;
  /** Rows and change records of the last file ingested (`ok`), apart from the last attempt's own. */
  lastIngest: { rows: RowCounts | null; changes: number | null } | null;
  /** The worker whose lease lapsed while it held the source (it died mid-attempt), until another takes over. */
  deadOwner: string | null;
  /** Newest of the catalogue's `last_synced_at` and the last success: when the data was last confirmed. */
  confirmedAt: Date | null;
  /** The catalogue source's refresh interval (staleness threshold), when it was ever ingested. */
  refreshIntervalHours: number | null;
}

interface StatusRow {
  source: string; adapter: string; catalogue_source: string; enabled: boolean; interval_hours: number; next_attempt_at: Date;
  lease_owner: string | null; lease_until: Date | null; now: Date; last_attempt_at: Date | null; last_outcome: SyncOutcome | null; last_error: string | null;
  last_http_status: number | null; last_bytes: string | null; rows_read: number | null; rows_kept: number | null; rows_malformed: number | null; rows_excluded: number | null;
  last_changes: number | null; last_duration_ms: number | null; consecutive_failures: number; total_failures: number;
  last_success_at: Date | null; confirmed_at: Date | null; refresh_interval_hours: number | null;
  ingest_read: number | null; ingest_kept: number | null; ingest_malformed: number | null; ingest_excluded: number | null; ingest_changes: number | null; ingested: boolean;
}

function toStatus(r: StatusRow): SyncStatusRow {
  return {
    source: r.source, adapter: r.adapter, catalogueSource: r.catalogue_source, enabled: r.enabled, intervalHours: r.interval_hours,
    nextAttemptAt: r.next_attempt_at, leasedBy: r.lease_until && r.lease_until > r.now ? r.lease_owner : null,
    lastAttemptAt: r.last_attempt_at, lastOutcome: r.last_outcome, lastError: r.last_error, lastHttpStatus: r.last_http_status,
    lastBytes: r.last_bytes === null ? null : Number(r.last_bytes), rows: { read: r.rows_read, kept: r.rows_kept, malformed: r.rows_malformed, excluded: r.rows_excluded },
    lastChanges: r.last_changes, lastDurationMs: r.last_duration_ms, consecutiveFailures: r.consecutive_failures, totalFailures: r.total_failures,
    lastSuccessAt: r.last_success_at, confirmedAt: r.confirmed_at, refreshIntervalHours: r.refresh_interval_hours,
    lastIngest: r.ingested ? {
      rows: r.ingest_read === null ? null : {
        read: r.ingest_read, kept: r.ingest_kept ?? 0, malformed: r.ingest_malformed ?? 0, excluded: r.ingest_excluded ?? 0,
      },
      changes: r.ingest_changes,
    } : null,
    deadOwner: r.lease_owner && r.lease_until && r.lease_until <= r.now ? r.lease_owner : null,
  };
}

/** Every source's sync state with the catalogue's view of it, ordered by source. */
export async function readSyncStatus(db: Queryable): Promise<SyncStatusRow[]> {
  const { rows } = await db.query<StatusRow>(
    `SELECT y.*, y.last_bytes::text AS last_bytes, clock_timestamp() AS now,
            greatest(s.last_synced_at, y.last_success_at) AS confirmed_at, s.refresh_interval_hours,
            a.rows_read AS ingest_read, a.rows_kept AS ingest_kept, a.rows_malformed AS ingest_malformed,
            a.rows_excluded AS ingest_excluded, a.changes AS ingest_changes,
            a.source IS NOT NULL AS ingested
       FROM sync_state y LEFT JOIN sources s ON s.id = y.catalogue_source
       LEFT JOIN LATERAL (SELECT source, rows_read, rows_kept, rows_malformed, rows_excluded, changes FROM sync_attempts
                           WHERE source = y.source AND outcome = 'ok' ORDER BY started_at DESC LIMIT 1) a ON true
      ORDER BY y.source`,
  );
  return rows.map(toStatus);
}
