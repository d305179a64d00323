/**
 * Per-account request quota: a monthly and a daily window (UTC calendar month and day),
 * the tighter wins. One upsert counts the requests of a batch (those of one account that
 * arrived while its previous count was in flight) and checks both windows atomically, so
 * concurrent requests on any number of instances never overshoot.
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

/** Requests of one account, window day and tier waiting for the next count, in arrival order. */
interface Batch {
  readonly keyIds: Array<string | null>;
  readonly waiters: Array<{ resolve(d: QuotaDecision): void; reject(err: unknown): void }>;
  /** The latest arrival's clock (the per-caller row's `last_at`). */
  at: Date;
}

/** One account's counting: whether a statement is in flight and the batch that waits for it. */
interface Lane {
  readonly account: QuotaAccount;
  readonly windows: QuotaWindows;
  next: Batch | null;
}

/** What one count needs to know of the account: its id and its tier's limits (null: none). */
export interface QuotaAccount {
  readonly accountId: string;
  readonly monthly: number | null;
  readonly daily: number | null;
}

/** Lanes by database (the primary each caller counts on) and `account tier day`. */
const lanes = new WeakMap<Database, Map<string, Lane>>();

/**
 * Counts one request against the account's quota, or refuses it when a window is full.
 *
 * Group commit: the first request of an account runs its statement at once; requests of the
 * same account that arrive while it is in flight join one batch, counted by the next
 * statement (`count = count + admitted`), and so on. The statement admits the first
 * `admitted` of the batch, as many as both windows allow, so request i of the batch learns
 * its exact position (`used - admitted + i`): the limit and x-ratelimit-remaining are what
 * counting them one by one in arrival order would give, with one row lock per batch.
 */
export function consumeQuota(db: Database, accountId: string, tier: Tier, now: Date, keyId: string | null): Promise<QuotaDecision> {
  const { monthly, daily } = TIER_LIMITS[tier];
  return countRequest(db, { accountId, monthly, daily }, now, keyId);
}

/**
 * `consumeQuota` for limits given as such: what the bench's same-SQL baseline calls when it
 * replays the quota statement, so that it shares the counts of concurrent requests as the
 * service does (bench/replay.ts).
 */
export function countRequest(db: Database, account: QuotaAccount, now: Date, keyId: string | null): Promise<QuotaDecision> {
  const windows = windowStarts(now);
  let byKey = lanes.get(db);
  if (!byKey) lanes.set(db, (byKey = new Map()));
  const laneKey = `${account.accountId} ${account.monthly} ${account.daily} ${windows.day}`;
  let lane = byKey.get(laneKey);
  const idle = !lane;
  if (!lane) byKey.set(laneKey, (lane = { account, windows, next: null }));
  const batch = lane.next ?? (lane.next = { keyIds: [], waiters: [], at: now });
  if (now > batch.at) batch.at = now;
  batch.keyIds.push(keyId);
  const decision = new Promise<QuotaDecision>((resolve, reject) => batch.waiters.push({ resolve, reject }));
  if (idle) void drain(db, byKey, laneKey, lane);
  return decision;
}

/** Counts the lane's batches one after the other until none waits, then forgets the lane. */
async function drain(db: Database, byKey: Map<string, Lane>, laneKey: string, lane: Lane): Promise<void> {
  for (let batch = lane.next; batch; batch = lane.next) {
    lane.next = null;
    try {
      const decisions = await countBatch(db, lane, batch);
      batch.waiters.forEach((w, i) => w.resolve(decisions[i]!));
    } catch (err) {
      for (const w of batch.waiters) w.reject(err);
    }
  }
  byKey.delete(laneKey);
}

// The WHERE-less upsert admits `least(n, monthly left, daily left)` of the batch's n
// requests; the day counter restarts on a new UTC day. $4/$5 null: no limit in that window.
const DAY_USED = 'CASE WHEN q.day_start = EXCLUDED.day_start THEN q.day_used ELSE 0 END';
const ADMITTED = `GREATEST(0, LEAST(cardinality($6::uuid[]), coalesce($4::int - q.month_used, cardinality($6::uuid[])),
       coalesce($5::int - ${DAY_USED}, cardinality($6::uuid[]))))`;

// set_config(..., true) sets synchronous_commit for this statement's own implicit
// transaction only (QUOTA_COMMIT): on PostgreSQL the commit (and so the row lock) no longer
// waits for a WAL flush; a server crash can lose the last fraction of a second of counts,
// never add one (docs/architecture.md, "Hot path").
// The second CTE counts the admitted requests per caller (key, or the console when the key
// is null): same statement, same round trip, same transaction.
/** The quota statement (exported for the bench's baseline, which recognises it in a recording). */
export const QUOTA_COUNT_SQL = `WITH counted AS (
     INSERT INTO quota_usage AS q (account_id, month_start, month_used, day_start, day_used, last_admitted)
     SELECT $1::uuid, $2::date, f.n, $3::date, f.n, f.n
       FROM (SELECT set_config('synchronous_commit', $8, true)) AS commit_mode,
            (SELECT LEAST(cardinality($6::uuid[]), coalesce($4::int, cardinality($6::uuid[])), coalesce($5::int, cardinality($6::uuid[]))) AS n) AS f
     ON CONFLICT (account_id, month_start) DO UPDATE SET
       month_used = q.month_used + ${ADMITTED},
       day_used = ${DAY_USED} + ${ADMITTED},
       day_start = EXCLUDED.day_start,
       last_admitted = ${ADMITTED}
     RETURNING month_used, day_used, last_admitted
     ), per_caller AS (
       INSERT INTO request_usage AS r (account_id, day, key_id, requests, last_at)
       SELECT $1::uuid, $3::date, u.key_id, count(*)::int, $7::timestamptz
         FROM counted, unnest($6::uuid[]) WITH ORDINALITY AS u(key_id, i)
        WHERE u.i <= counted.last_admitted
        GROUP BY u.key_id
       ON CONFLICT (account_id, day, (coalesce(key_id, '00000000-0000-0000-0000-000000000000'::uuid)))
       DO UPDATE SET requests = r.requests + EXCLUDED.requests, last_at = GREATEST(r.last_at, EXCLUDED.last_at)
     )
     SELECT month_used, day_used, last_admitted FROM counted`;

/** One statement for the whole batch; each request's decision from its place in it. */
async function countBatch(db: Database, lane: Lane, batch: Batch): Promise<QuotaDecision[]> {
  const { accountId, monthly, daily } = lane.account;
  const w = lane.windows;
  const { rows } = await db.query<{ month_used: number; day_used: number; last_admitted: number }>(
    QUOTA_COUNT_SQL,
    [accountId, w.month, w.day, monthly, daily, batch.keyIds, batch.at, QUOTA_COMMIT[db.kind]],
    { prepare: true },
  );
  const { month_used: month, day_used: day, last_admitted: admitted } = rows[0]!;
  // Refused: the monthly window wins when both are full, since it resets later.
  const refused: QuotaDecision = monthly !== null && month >= monthly
    ? { admitted: false, window: 'monthly', limit: monthly, resets: w.nextMonth }
    : { admitted: false, window: 'daily', limit: daily ?? 0, resets: w.nextDay };
  return batch.keyIds.map((_, i) => {
    if (i >= admitted) return refused;
    // Counted in arrival order: this request made the counts `used - admitted + i + 1`.
    const before = admitted - i - 1;
    const left = [remaining(monthly, month - before), remaining(daily, day - before)].filter((n) => n !== null);
    return { admitted: true, remaining: left.length ? Math.min(...left) : null };
  });
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
