/**
 * An account's usage as GET /v1/usage and the console show it: both quota windows, the AI
 * answer allowance, this month's requests per key (prefix and last four, never the key)
 * and per UTC day. The per-key and per-day figures come from `request_usage`, which the
 * quota statement fills (quota.ts), so they add up to the monthly window's `used` for
 * every request counted since that table exists.
 */
import type { Queryable } from '../../platform/db.ts';
import { AI_ANSWERS_PER_MONTH } from '../chat/allowance.ts';
import { windowStarts } from './quota.ts';
import { TIER_LIMITS } from './tiers.ts';
import type { Tier } from './tiers.ts';

/** One quota window; `limit` and `remaining` are null when the tier has no such cap. */
export interface UsageWindow {
  window: 'monthly' | 'daily';
  used: number;
  limit: number | null;
  remaining: number | null;
  resets: Date;
}

/** This month's requests of one caller: a key, or the console's own lookups (`prefix` "console"). */
export interface KeyUsage {
  prefix: string;
  last4: string | null;
  requests: number;
}

export interface UsageReport {
  tier: Tier;
  windows: UsageWindow[];
  ai: { answersUsed: number; answersLeft: number; packCredits: number };
  keys: KeyUsage[];
  daily: Array<{ date: string; requests: number }>;
  meta: { generatedAt: Date; timeZone: 'UTC' };
}

/** The prefix under which the console's lookups are listed among the keys. */
export const CONSOLE_CALLER = 'console';

function window(kind: UsageWindow['window'], used: number, limit: number | null, resets: Date): UsageWindow {
  return { window: kind, used, limit, remaining: limit === null ? null : Math.max(0, limit - used), resets };
}

/** Every date of the month up to `today`, inclusive, as YYYY-MM-DD. */
function daysOfMonthSoFar(month: string, today: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${month}T00:00:00Z`); d.toISOString().slice(0, 10) <= today; d.setUTCDate(d.getUTCDate() + 1)) {
    days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

interface CounterRow {
  month_used: number | null;
  day_used: number | null;
  day_start: string | null;
  answers_used: number | null;
  pack_credits: number | null;
}

/** Windows and AI allowance: one read of the quota row and both chat counters. */
async function counters(db: Queryable, accountId: string, tier: Tier, now: Date): Promise<Pick<UsageReport, 'windows' | 'ai'>> {
  const w = windowStarts(now);
  const { rows } = await db.query<CounterRow>(
    `SELECT q.month_used, q.day_used, to_char(q.day_start, 'YYYY-MM-DD') AS day_start,
            (SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1 AND month_start = $2::date) AS answers_used,
            (SELECT credits FROM chat_pack_balance WHERE account_id = $1) AS pack_credits
       FROM (SELECT 1) AS one
       LEFT JOIN quota_usage q ON q.account_id = $1 AND q.month_start = $2::date`,
    [accountId, w.month],
  );
  const row = rows[0]!;
  const { monthly, daily } = TIER_LIMITS[tier];
  const dayUsed = row.day_start === w.day ? (row.day_used ?? 0) : 0;
  const included = AI_ANSWERS_PER_MONTH[tier];
  const answersUsed = row.answers_used ?? 0;
  return {
    windows: [window('monthly', row.month_used ?? 0, monthly, w.nextMonth), window('daily', dayUsed, daily, w.nextDay)],
    ai: { answersUsed, answersLeft: Math.max(0, included - answersUsed), packCredits: row.pack_credits ?? 0 },
  };
}

/**
 * This month's requests per key: every active key (0 when unused) and any revoked key
 * that was used this month, oldest first, then the console's entry.
 */
async function perKey(db: Queryable, accountId: string, month: string): Promise<KeyUsage[]> {
  const { rows } = await db.query<{ prefix: string; last_four: string | null; requests: number }>(
    `SELECT k.prefix, k.last_four, coalesce(sum(u.requests), 0)::int AS requests, k.created_at AS at, k.id::text AS tie
       FROM api_keys k
       LEFT JOIN request_usage u ON u.key_id = k.id AND u.account_id = k.account_id AND u.day >= $2::date
      WHERE k.account_id = $1
      GROUP BY k.id, k.prefix, k.last_four, k.created_at, k.revoked_at
     HAVING k.revoked_at IS NULL OR coalesce(sum(u.requests), 0) > 0
     UNION ALL
     SELECT $3, NULL, coalesce(sum(requests), 0)::int, NULL, NULL
       FROM request_usage WHERE account_id = $1 AND key_id IS NULL AND day >= $2::date
     ORDER BY at NULLS LAST, tie`,
    [accountId, month, CONSOLE_CALLER],
  );
  return rows.map((r) => ({ prefix: r.prefix, last4: r.last_four, requests: r.requests }));
}

/** Requests per UTC day of this month so far, zero-filled. */
async function perDay(db: Queryable, accountId: string, month: string, today: string): Promise<UsageReport['daily']> {
  const { rows } = await db.query<{ day: string; requests: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(requests)::int AS requests
       FROM request_usage WHERE account_id = $1 AND day >= $2::date AND day <= $3::date
      GROUP BY day`,
    [accountId, month, today],
  );
  const byDay = new Map(rows.map((r) => [r.day, r.requests]));
  return daysOfMonthSoFar(month, today).map((date) => ({ date, requests: byDay.get(date) ?? 0 }));
}

/** The usage report of one account at `now`. */
export async function accountUsage(db: Queryable, account: { accountId: string; tier: Tier }, now: Date): Promise<UsageReport> {
  const w = windowStarts(now);
  const { windows, ai } = await counters(db, account.accountId, account.tier, now);
  const keys = await perKey(db, account.accountId, w.month);
  const daily = await perDay(db, account.accountId, w.month, w.day);
  return { tier: account.tier, windows, ai, keys, daily, meta: { generatedAt: now, timeZone: 'UTC' } };
}
