/**
 * The AI answer allowance: a monthly number of answers per tier (UTC calendar month),
 * then prepaid pack credits. A turn's cost is fixed before the model runs, and is
 * reserved atomically (monthly first, then packs) so concurrent turns never overspend;
 * a turn whose model call fails gets its reservation back.
 */
import type { Database } from '../../platform/db.ts';
import type { Tier } from '../accounts/tiers.ts';

/**
 * Answers included per month. The spec gives two sets; this is the second (Free 3,
 * Pro 50, Starter 150, Growth 750), because the first gives Free "5 cents of credit",
 * about half an answer, which cannot pay for any whole answer (docs/api-decisions.md).
 * Enterprise is "by contract": 5,000 unless a contract says otherwise.
 */
export const AI_ANSWERS_PER_MONTH: Record<Tier, number> = {
  developer: 3,
  pro: 50,
  starter: 150,
  growth: 750,
  enterprise: 5_000,
};

/** Characters of turn input (message plus history) that one answer covers. */
export const CHARS_PER_ANSWER = 4_000;

/** A very long turn counts as more than one answer: one per started 4,000 characters. */
export function turnCost(inputChars: number): number {
  return Math.max(1, Math.ceil(inputChars / CHARS_PER_ANSWER));
}

/** The UTC calendar month `now` falls in (its first day) and when the next one starts. */
export function monthWindow(now: Date): { monthStart: string; resets: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { monthStart: start.toISOString().slice(0, 10), resets: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** Answers taken for one turn and where from, so a failed turn can give them back. */
export interface Reservation {
  accountId: string;
  monthStart: string;
  fromAllowance: number;
  fromPacks: number;
  allowanceLeft: number;
  packCreditsLeft: number;
  resets: Date;
}

/** Either a reservation, or the figures the 402 reports. */
export type ReserveOutcome =
  | { granted: true; reservation: Reservation }
  | { granted: false; included: number; allowanceLeft: number; packCredits: number; resets: Date };

/** Takes `cost` answers from the month's allowance, then from packs, or refuses untouched. */
export async function reserveAnswers(db: Database, accountId: string, tier: Tier, cost: number, now: Date): Promise<ReserveOutcome> {
  const included = AI_ANSWERS_PER_MONTH[tier];
  const { monthStart, resets } = monthWindow(now);
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO chat_allowance_usage (account_id, month_start, answers_used) VALUES ($1, $2, 0)
       ON CONFLICT (account_id, month_start) DO NOTHING`,
      [accountId, monthStart],
    );
    // Row locks serialise concurrent turns of one account across instances.
    const usage = await tx.query<{ answers_used: number }>(
      'SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1 AND month_start = $2 FOR UPDATE',
      [accountId, monthStart],
    );
    const balance = await tx.query<{ credits: number }>('SELECT credits FROM chat_pack_balance WHERE account_id = $1 FOR UPDATE', [accountId]);
    const allowanceLeft = Math.max(0, included - (usage.rows[0]?.answers_used ?? 0));
    const packCredits = balance.rows[0]?.credits ?? 0;
    const fromAllowance = Math.min(cost, allowanceLeft);
    const fromPacks = cost - fromAllowance;
    if (fromPacks > packCredits) return { granted: false, included, allowanceLeft, packCredits, resets };
    await tx.query('UPDATE chat_allowance_usage SET answers_used = answers_used + $3 WHERE account_id = $1 AND month_start = $2', [accountId, monthStart, fromAllowance]);
    if (fromPacks > 0) {
      await tx.query('UPDATE chat_pack_balance SET credits = credits - $2, updated_at = now() WHERE account_id = $1', [accountId, fromPacks]);
    }
    return {
      granted: true,
      reservation: { accountId, monthStart, fromAllowance, fromPacks, allowanceLeft: allowanceLeft - fromAllowance, packCreditsLeft: packCredits - fromPacks, resets },
    };
  });
}

/** Gives a failed turn's answers back to where they came from. */
export async function refundAnswers(db: Database, r: Reservation): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      'UPDATE chat_allowance_usage SET answers_used = GREATEST(0, answers_used - $3) WHERE account_id = $1 AND month_start = $2',
      [r.accountId, r.monthStart, r.fromAllowance],
    );
    if (r.fromPacks > 0) await addPackCredits(tx, r.accountId, r.fromPacks);
  });
}

/** Adds pack credits to an account's balance (inside the caller's transaction). */
export async function addPackCredits(tx: { query: Database['query'] }, accountId: string, credits: number): Promise<void> {
  await tx.query(
    `INSERT INTO chat_pack_balance (account_id, credits) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET credits = chat_pack_balance.credits + EXCLUDED.credits, updated_at = now()`,
    [accountId, credits],
  );
}
