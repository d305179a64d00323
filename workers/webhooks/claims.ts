/**
 * Leases on webhook subscriptions. A worker claims one subscription at a time with
 * `FOR UPDATE SKIP LOCKED` and stamps a lease (`leased_until`, `lease_token`) in the same
 * autocommitted statement, so the claim is durable before the POST goes out and no
 * transaction stays open across the network. Any other worker skips a leased row until
 * the lease ends; the cursor only moves under the token that claimed it.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import { ISO_US } from '../../resolvers/changes/records.ts';
import type { ChangeEvent, Position } from '../../resolvers/changes/records.ts';
import type { DeliveryOutcome } from '../../resolvers/changes/deliveries.ts';

export interface ClaimedSubscription {
  id: string;
  url: string;
  events: ChangeEvent[];
  secretSealed: Buffer;
  secretKeyRef: string;
  cursor: Position;
  leaseToken: string;
  /** True when the claim took over a subscription whose previous holder died mid-attempt. */
  tookOver: boolean;
}

interface ClaimRow {
  id: string;
  url: string;
  events: ChangeEvent[];
  secret_sealed: Buffer;
  secret_key_ref: string;
  cursor_at: string;
  cursor_id: string;
}

// A lease that lapsed with its token still set: the worker that held it died mid-attempt
// (kill -9, crash), or failed before recording. Orphans are due at once, whatever the gap.
const ORPHAN = 'lease_token IS NOT NULL AND leased_until < clock_timestamp()';

/**
 * Claims the subscription waiting longest that is neither leased nor attempted within
 * `minGapMs` nor in `skip` (already handled this run); with `orphansOnly`, only a subscription
 * whose holder died (see ORPHAN), at once. Null when none is due. Taking an orphan over
 * records the cut-off attempt (`interrupted`) before the claim returns.
 */
export async function claimNext(
  db: Queryable,
  options: { leaseMs: number; minGapMs: number; leaseToken: string; skip: readonly string[]; orphansOnly?: boolean },
): Promise<ClaimedSubscription | null> {
  const { rows } = await db.query<ClaimRow & { orphaned: boolean }>(
    `WITH due AS (
       SELECT id, lease_token, leased_until, last_attempt_at FROM webhook_subscriptions
        WHERE (leased_until IS NULL OR leased_until < clock_timestamp())
          AND (${ORPHAN} OR (NOT $5 AND (last_attempt_at IS NULL OR last_attempt_at <= clock_timestamp() - $3 * interval '1 millisecond')))
          AND id <> ALL($4::uuid[])
        ORDER BY last_attempt_at NULLS FIRST, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED),
     cut_off AS (
       INSERT INTO webhook_deliveries (id, subscription_id, attempted_at, window_since, window_until, change_count, outcome, error, duration_ms)
       SELECT gen_random_uuid(), s.id, coalesce(due.last_attempt_at, due.leased_until), s.cursor_occurred_at, s.cursor_occurred_at, 0, 'interrupted',
              'the worker delivering this window stopped during the attempt (its lease lapsed at '
                || to_char(due.leased_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '); the window is sent again',
              greatest(0, round(extract(epoch FROM due.leased_until - coalesce(due.last_attempt_at, due.leased_until)) * 1000))::int
         FROM due JOIN webhook_subscriptions s ON s.id = due.id
        WHERE due.lease_token IS NOT NULL)
     UPDATE webhook_subscriptions s
        SET leased_until = clock_timestamp() + $1 * interval '1 millisecond', lease_token = $2, last_attempt_at = clock_timestamp()
       FROM due WHERE s.id = due.id
     RETURNING s.id, s.url, s.events, s.secret_sealed, s.secret_key_ref, s.cursor_id,
               to_char(s.cursor_occurred_at AT TIME ZONE 'UTC', ${ISO_US}) AS cursor_at, due.lease_token IS NOT NULL AS orphaned`,
    [options.leaseMs, options.leaseToken, options.minGapMs, options.skip, options.orphansOnly === true],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    secretSealed: row.secret_sealed,
    secretKeyRef: row.secret_key_ref,
    cursor: { occurredAt: row.cursor_at, id: row.cursor_id },
    leaseToken: options.leaseToken,
    tookOver: row.orphaned,
  };
}

/** Extends the lease while a delivery runs, so only a dead worker's lease lapses; false when it was lost. */
export async function renewLease(db: Queryable, sub: ClaimedSubscription, leaseMs: number): Promise<boolean> {
  const res = await db.query(
    `UPDATE webhook_subscriptions SET leased_until = clock_timestamp() + $3 * interval '1 millisecond' WHERE id = $1 AND lease_token = $2`,
    [sub.id, sub.leaseToken, leaseMs]);
  return res.rowCount === 1;
}

/** Ends a lease without moving the cursor (nothing to send, or the send failed). */
export async function releaseLease(db: Queryable, sub: ClaimedSubscription): Promise<void> {
  await db.query('UPDATE webhook_subscriptions SET leased_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2', [sub.id, sub.leaseToken]);
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  since: string;
  until: string;
  changeCount: number;
  outcome: DeliveryOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Newest change of the batch; the cursor moves here only when delivered. */
  newest: Position;
}

/**
 * Records the attempt and, on success, advances the cursor — both in one transaction, and
 * only while this worker still holds the lease. Returns false when the lease was lost
 * (expired and taken over) or the subscription was deleted meanwhile.
 */
export async function finishAttempt(db: Database, sub: ClaimedSubscription, attempt: AttemptRecord): Promise<boolean> {
  return db.transaction(async (tx) => {
    const held = await tx.query(
      `UPDATE webhook_subscriptions
          SET leased_until = NULL, lease_token = NULL,
              cursor_occurred_at = CASE WHEN $3 THEN $4::timestamptz ELSE cursor_occurred_at END,
              cursor_id = CASE WHEN $3 THEN $5::uuid ELSE cursor_id END
        WHERE id = $1 AND lease_token = $2`,
      [sub.id, sub.leaseToken, attempt.outcome === 'delivered', attempt.newest.occurredAt, attempt.newest.id],
    );
    // The attempt is recorded even when the lease was lost: it did happen.
    await tx.query(
      `INSERT INTO webhook_deliveries (id, subscription_id, attempted_at, window_since, window_until, change_count, outcome, status_code, error, duration_ms)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 WHERE EXISTS (SELECT 1 FROM webhook_subscriptions WHERE id = $2)`,
      [attempt.deliveryId, sub.id, attempt.attemptedAt, attempt.since, attempt.until, attempt.changeCount, attempt.outcome, attempt.statusCode, attempt.error, attempt.durationMs],
    );
    return held.rowCount === 1;
  });
}
