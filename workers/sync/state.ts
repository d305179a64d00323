/**
 * Sync state and leases. A worker claims a source with `FOR UPDATE SKIP LOCKED` and stamps
 * its lease (`lease_owner`, `lease_until`) in the same autocommitted statement, so the claim
 * is durable before the download starts and no transaction stays open across the network.
 * Other workers skip a leased source until the lease ends; the outcome is recorded only
 * under the owner that claimed it, and every attempt is appended to `sync_attempts`.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import type { SyncSourceDefinition } from '../../platform/sync-sources.ts';
import { readSyncStatus, SYNC_OUTCOMES } from '../../resolvers/sources/sync-status.ts';
import type { RowCounts, SyncOutcome, SyncStatusRow } from '../../resolvers/sources/sync-status.ts';
import type { Validators } from './fetch.ts';

// The read side (status rows, outcomes) sits with the resolvers, which the metrics and the CLI read too.
export { readSyncStatus, SYNC_OUTCOMES };
export type { SyncOutcome, SyncStatusRow };

/** Outcomes that confirm the stored data is the publisher's current file. */
export const SUCCESS_OUTCOMES: ReadonlySet<SyncOutcome> = new Set(['ok', 'not_modified']);

/** Stored validators of one download, valid only for the URL they were obtained from. */
export interface StoredValidators extends Validators {
  urlHash: string;
  /** SHA-256 of the file last ingested: a 200 with the same bytes is still "not modified". */
  sha256?: string;
}

export interface ClaimedSource {
  source: string;
  owner: string;
  validators: Record<string, StoredValidators>;
}

/** What one attempt found; `validators` are stored only when the attempt succeeded. */
export interface AttemptRecord {
  startedAt: Date;
  outcome: SyncOutcome;
  error: string | null;
  httpStatus: number | null;
  bytes: number;
  rows: RowCounts | null;
  changes: number | null;
  durationMs: number;
  /** The catalogue source the ingest wrote (learned on success). */
  catalogueSource: string | null;
  validators: Record<string, StoredValidators> | null;
  intervalMs: number;
  retryBaseMs: number;
}

/** Attempts older than this are pruned when a newer one is recorded: the log is for diagnosis, not history. */
const ATTEMPT_RETENTION_DAYS = 90;

/**
 * Creates or refreshes the state row of each source the worker may sync, and marks every other
 * row disabled (a source switched off in the config no longer appears as `never_run`).
 */
export async function registerSources(db: Queryable, sources: ReadonlyArray<{ def: SyncSourceDefinition; intervalHours: number }>): Promise<void> {
  await db.query(
    `INSERT INTO sync_state (source, adapter, catalogue_source, name, country, interval_hours, enabled)
     SELECT s.source, s.adapter, s.source, s.name, s.country, s.interval_hours, true
       FROM jsonb_to_recordset($1::jsonb) AS s(source text, adapter text, name text, country text, interval_hours integer)
     ON CONFLICT (source) DO UPDATE SET adapter = EXCLUDED.adapter, name = EXCLUDED.name, country = EXCLUDED.country,
       interval_hours = EXCLUDED.interval_hours, enabled = true`,
    [JSON.stringify(sources.map(({ def, intervalHours }) => ({ source: def.id, adapter: def.adapter, name: def.name, country: def.country, interval_hours: intervalHours })))],
  );
  await db.query('UPDATE sync_state SET enabled = false WHERE enabled AND source <> ALL($1::text[])', [sources.map((s) => s.def.id)]);
}

/** The error an interrupted attempt records: which worker stopped, and when its lease lapsed. */
const INTERRUPTED = `'worker ' || due.lease_owner || ' stopped during the attempt (its lease lapsed at '
  || to_char(due.lease_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '); nothing of it was written'`;

/**
 * Claims one source that is enabled, not leased and due (or any of `only`, due or not, when
 * `force`), skipping `skip`. Null when there is none; the lease runs for `leaseMs`.
 */
export async function claimSource(
  db: Queryable,
  options: { owner: string; leaseMs: number; only?: readonly string[]; force?: boolean; skip: readonly string[] },
): Promise<ClaimedSource | null> {
  const { rows } = await db.query<{ source: string; validators: Record<string, StoredValidators>; previous_owner: string | null; previous_start: Date | null; previous_until: Date | null }>(
    `WITH due AS (
       SELECT source, lease_owner, lease_until, attempt_started_at FROM sync_state
        WHERE enabled
          AND (lease_until IS NULL OR lease_until < clock_timestamp())
          AND ($4 OR next_attempt_at <= clock_timestamp())
          AND ($3::text[] IS NULL OR source = ANY($3::text[]))
          AND source <> ALL($5::text[])
        ORDER BY next_attempt_at, source
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
     UPDATE sync_state y SET lease_owner = $1, lease_until = clock_timestamp() + $2 * interval '1 millisecond', attempt_started_at = clock_timestamp(),
            last_attempt_at = CASE WHEN due.lease_owner IS NULL THEN y.last_attempt_at ELSE coalesce(due.attempt_started_at, y.last_attempt_at) END,
            last_outcome = CASE WHEN due.lease_owner IS NULL THEN y.last_outcome ELSE 'interrupted' END,
            last_error = CASE WHEN due.lease_owner IS NULL THEN y.last_error ELSE ${INTERRUPTED} END,
            rows_read = CASE WHEN due.lease_owner IS NULL THEN y.rows_read END, rows_kept = CASE WHEN due.lease_owner IS NULL THEN y.rows_kept END,
            rows_malformed = CASE WHEN due.lease_owner IS NULL THEN y.rows_malformed END,
            rows_excluded = CASE WHEN due.lease_owner IS NULL THEN y.rows_excluded END, last_changes = CASE WHEN due.lease_owner IS NULL THEN y.last_changes END
       FROM due WHERE y.source = due.source
     RETURNING y.source, y.validators, due.lease_owner AS previous_owner, due.attempt_started_at AS previous_start, due.lease_until AS previous_until`,
    [options.owner, options.leaseMs, options.only ?? null, options.force ?? false, options.skip],
  );
  const taken = rows[0];
  // A lease that lapsed with its owner still named: that worker died mid-attempt (kill -9, crash).
  if (taken?.previous_owner) {
    await db.query(
      // Its duration runs to the lapse of its last lease: it was alive at least until then.
      `INSERT INTO sync_attempts (source, worker, started_at, outcome, error, duration_ms)
       SELECT source, $2, coalesce($3::timestamptz, $4::timestamptz), 'interrupted', last_error,
              greatest(0, round(extract(epoch FROM $4::timestamptz - coalesce($3::timestamptz, $4::timestamptz)) * 1000))::int
         FROM sync_state WHERE source = $1`,
      [taken.source, taken.previous_owner, taken.previous_start, taken.previous_until]);
  }
  return taken ? { source: taken.source, owner: options.owner, validators: taken.validators ?? {} } : null;
}

/** Extends a lease while a long download or ingest runs; false when it was lost. */
export async function renewLease(db: Queryable, claim: ClaimedSource, leaseMs: number): Promise<boolean> {
  const res = await db.query(
    `UPDATE sync_state SET lease_until = clock_timestamp() + $3 * interval '1 millisecond' WHERE source = $1 AND lease_owner = $2`,
    [claim.source, claim.owner, leaseMs],
  );
  return res.rowCount === 1;
}

/** Delay before the next attempt: the interval after a success, else doubling backoff capped at the interval. */
export function nextDelayMs(outcome: SyncOutcome, consecutiveFailures: number, intervalMs: number, retryBaseMs: number): number {
  if (SUCCESS_OUTCOMES.has(outcome)) return intervalMs;
  return Math.min(intervalMs, retryBaseMs * 2 ** Math.max(0, Math.min(consecutiveFailures - 1, 30)));
}

const FINISH_SQL = `
  UPDATE sync_state SET lease_owner = NULL, lease_until = NULL,
    last_attempt_at = $3, last_outcome = $4, last_error = $5, last_http_status = $6, last_bytes = $7,
    rows_read = $8, rows_kept = $9, rows_malformed = $10, rows_excluded = $16, last_changes = $11, last_duration_ms = $12,
    consecutive_failures = CASE WHEN $13 THEN 0 ELSE consecutive_failures + 1 END,
    total_failures = total_failures + CASE WHEN $13 THEN 0 ELSE 1 END,
    last_success_at = CASE WHEN $13 THEN clock_timestamp() ELSE last_success_at END,
    last_ingest_at = CASE WHEN $4 = 'ok' THEN clock_timestamp() ELSE last_ingest_at END,
    catalogue_source = coalesce($14, catalogue_source),
    validators = coalesce($15::jsonb, validators)
  WHERE source = $1 AND lease_owner = $2
  RETURNING consecutive_failures`;

/**
 * Records an attempt and ends the lease, in one transaction. The attempt is logged even when
 * the lease was lost (it did happen); the state row only moves under the owner's lease.
 * Returns false when the lease had been lost.
 */
export async function finishAttempt(db: Database, claim: ClaimedSource, a: AttemptRecord): Promise<boolean> {
  const ok = SUCCESS_OUTCOMES.has(a.outcome);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ consecutive_failures: number }>(FINISH_SQL, [
      claim.source, claim.owner, a.startedAt, a.outcome, a.error, a.httpStatus, a.bytes,
      a.rows?.read ?? null, a.rows?.kept ?? null, a.rows?.malformed ?? null, a.changes, a.durationMs,
      ok, a.catalogueSource, a.validators ? JSON.stringify(a.validators) : null, a.rows?.excluded ?? null,
    ]);
    const held = rows[0];
    if (held) {
      const delay = nextDelayMs(a.outcome, held.consecutive_failures, a.intervalMs, a.retryBaseMs);
      await tx.query(`UPDATE sync_state SET next_attempt_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE source = $1`, [claim.source, delay]);
    }
    await tx.query(
      `INSERT INTO sync_attempts (source, worker, started_at, outcome, http_status, bytes, rows_read, rows_kept, rows_malformed, rows_excluded, changes, duration_ms, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [claim.source, claim.owner, a.startedAt, a.outcome, a.httpStatus, a.bytes, a.rows?.read ?? null, a.rows?.kept ?? null,
        a.rows?.malformed ?? null, a.rows?.excluded ?? null, a.changes, a.durationMs, a.error],
    );
    await tx.query(`DELETE FROM sync_attempts WHERE source = $1 AND started_at < clock_timestamp() - $2 * interval '1 day'`, [claim.source, ATTEMPT_RETENTION_DAYS]);
    return held !== undefined;
  });
}
