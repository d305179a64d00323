/**
 * Per-account request quota: a monthly and a daily window (UTC calendar month and day),
 * the tighter wins. One conditional upsert counts the request and checks both windows
 * atomically, so concurrent requests on any number of instances never overshoot.
 * A refused request (429) is not counted: it consumed nothing. An admitted one is also
 * counted per caller and UTC day (`request_usage`, read by GET /v1/usage) in the same statement.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import { TIER_LIMITS } from './tiers.ts';
import type { Tier } from './tiers.ts';

export type QuotaDecision =
  | { admitted: true; remaining: number | null }
  | { admitted: false; window: 'monthly' | 'daily'; limit: number; resets: Date };

/** The quota windows of one UTC day (what `windowStarts` returns). */
export interface QuotaWindows {
  readonly month: string;
  readonly day: string;
  readonly nextMonth: Date;
  readonly nextDay: Date;
}

const DAY_MS = 86_400_000;

/**
 * The windows of the last day asked for: every metered request asks, and building four
 * dates and two ISO strings each time showed in the hot path's profile. A UTC day is
 * exactly `DAY_MS` of epoch milliseconds, so the day number identifies the windows.
 */
let lastWindows: { dayNumber: number; windows: QuotaWindows } | null = null;

/** The UTC month and day `now` falls in (first days, YYYY-MM-DD) and when the next ones start. */
export function windowStarts(now: Date): QuotaWindows {
  const dayNumber = Math.floor(now.getTime() / DAY_MS);
  if (lastWindows?.dayNumber === dayNumber) return lastWindows.windows;
  const windows = computeWindows(now);
  lastWindows = { dayNumber, windows };
  return windows;
}

function computeWindows(now: Date): QuotaWindows {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  return Object.freeze({
    month: new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10),
    day: new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10),
    nextMonth: new Date(Date.UTC(y, m + 1, 1)),
    nextDay: new Date(Date.UTC(y, m, d + 1)),
  });
}

function remaining(limit: number | null, used: number): number | null {
  return limit === null ? null : Math.max(0, limit - used);
}

/**
 * `synchronous_commit` of the quota statement per backend. A PostgreSQL server outlives the
 * API process, so its commit need not wait for the WAL flush (its own crash can only lose
 * counts, docs/architecture.md). Embedded PGlite lives inside the API process and has no WAL
 * writer: an unflushed commit dies with the process (kill -9), and the account would regain
 * its quota, so there the count is flushed before the answer leaves.
 */
const QUOTA_COMMIT: Record<Database['kind'], 'on' | 'off'> = { postgres: 'off', pglite: 'on' };

/** Counts one request against the account's quota, or refuses it when a window is full. */
export async function consumeQuota(db: Database, accountId: string, tier: Tier, now: Date, keyId: string | null): Promise<QuotaDecision> {
  const { monthly, daily } = TIER_LIMITS[tier];
  const w = windowStarts(now);
  // The WHERE of ON CONFLICT re-checks the locked row, so the count never passes a limit.
  // set_config(..., true) sets synchronous_commit for this statement's own implicit
  // transaction only (QUOTA_COMMIT): on PostgreSQL the commit (and so the row lock) no longer
  // waits for a WAL flush; a server crash can lose the last fraction of a second of counts,
  // never add one (docs/architecture.md, "Hot path").
  // The second CTE counts the request per caller (key, or the console when keyId is null)
  // only when the first admitted it: same statement, same round trip, same transaction.
  const counted = await db.query<{ month_used: number; day_used: number }>(
    `WITH counted AS (
     INSERT INTO quota_usage AS q (account_id, month_start, month_used, day_start, day_used)
     SELECT $1::uuid, $2::date, 1, $3::date, 1 FROM (SELECT set_config('synchronous_commit', $8, true)) AS commit_mode
     ON CONFLICT (account_id, month_start) DO UPDATE SET
       month_used = q.month_used + 1,
       day_used = CASE WHEN q.day_start = EXCLUDED.day_start THEN q.day_used + 1 ELSE 1 END,
       day_start = EXCLUDED.day_start
     WHERE ($4::int IS NULL OR q.month_used < $4)
       AND ($5::int IS NULL OR q.day_start <> EXCLUDED.day_start OR q.day_used < $5)
     RETURNING month_used, day_used
     ), per_caller AS (
       INSERT INTO request_usage AS r (account_id, day, key_id, requests, last_at)
       SELECT $1::uuid, $3::date, $6::uuid, 1, $7::timestamptz FROM counted
       ON CONFLICT (account_id, day, (coalesce(key_id, '00000000-0000-0000-0000-000000000000'::uuid)))
       DO UPDATE SET requests = r.requests + 1, last_at = GREATEST(r.last_at, EXCLUDED.last_at)
     )
     SELECT month_used, day_used FROM counted`,
    [accountId, w.month, w.day, monthly, daily, keyId, now, QUOTA_COMMIT[db.kind]],
    { prepare: true },
  );
  const row = counted.rows[0];
  if (row) {
    const left = [remaining(monthly, row.month_used), remaining(daily, row.day_used)].filter((n) => n !== null);
    return { admitted: true, remaining: left.length ? Math.min(...left) : null };
  }
  // Refused: the monthly window wins when both are full, since it resets later.
  const monthFull = await db.query<{ month_used: number }>(
    'SELECT month_used FROM quota_usage WHERE account_id = $1 AND month_start = $2',
    [accountId, w.month],
  );
  if (monthly !== null && (monthFull.rows[0]?.month_used ?? 0) >= monthly) {
    return { admitted: false, window: 'monthly', limit: monthly, resets: w.nextMonth };
  }
  return { admitted: false, window: 'daily', limit: daily ?? 0, resets: w.nextDay };
}

/** Requests left in the tighter window, without counting one (null: unlimited). */
export async function quotaRemaining(db: Queryable, accountId: string, tier: Tier, now: Date): Promise<number | null> {
  const { monthly, daily } = TIER_LIMITS[tier];
  const w = windowStarts(now);
  const { rows } = await db.query<{ month_used: number; day_used: number; day_start: string }>(
    `SELECT month_used, day_used, to_char(day_start, 'YYYY-MM-DD') AS day_start
       FROM quota_usage WHERE account_id = $1 AND month_start = $2`,
    [accountId, w.month],
  );
  const row = rows[0];
  const monthUsed = row?.month_used ?? 0;
  const dayUsed = row && row.day_start === w.day ? row.day_used : 0;
  const left = [remaining(monthly, monthUsed), remaining(daily, dayUsed)].filter((n) => n !== null);
  return left.length ? Math.min(...left) : null;
}
