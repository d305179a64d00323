/**
 * Replays a route's recorded statements (bench/server.ts records them through `onQuery`)
 * with the same texts, parameters and dependency shape: statements that ran at the same
 * time (dataloader batches, parallel resolvers) run together again, a statement that began
 * after every earlier one had finished waits for them, and a transaction's statements run
 * in a transaction on one connection. This is what the same-SQL baseline executes.
 *
 * The quota statement is replayed through the service's own quota counting
 * (`countRequest`), which shares one statement among the requests of an account that arrive
 * while its previous count is in flight: replayed one per request, the baseline would pay
 * more quota statements under load than the route it stands for.
 */
import type { Database } from '../platform/db.ts';
import { countRequest, QUOTA_COUNT_SQL } from '../resolvers/accounts/quota.ts';
import type { RecordedStatement } from './server.ts';

/** One independent step: a pooled statement or a whole transaction. */
export interface Unit {
  tx: number | null;
  statements: Array<Pick<RecordedStatement, 'text' | 'params' | 'prepare'>>;
  startedAt: number;
  endedAt: number;
}

/** Steps that ran concurrently; each wave starts after the previous one has finished. */
export type Waves = Unit[][];

function units(statements: readonly RecordedStatement[]): Unit[] {
  const out: Unit[] = [];
  const byTx = new Map<number, Unit>();
  for (const s of [...statements].sort((a, b) => a.startedAt - b.startedAt)) {
    const statement = { text: s.text, params: s.params, ...(s.prepare ? { prepare: true } : {}) };
    if (s.tx === null) {
      out.push({ tx: null, statements: [statement], startedAt: s.startedAt, endedAt: s.endedAt });
      continue;
    }
    const open = byTx.get(s.tx);
    if (open) {
      open.statements.push(statement);
      open.endedAt = Math.max(open.endedAt, s.endedAt);
    } else {
      const unit: Unit = { tx: s.tx, statements: [statement], startedAt: s.startedAt, endedAt: s.endedAt };
      byTx.set(s.tx, unit);
      out.push(unit);
    }
  }
  return out;
}

/** Groups recorded statements into waves of concurrent steps. */
export function toWaves(statements: readonly RecordedStatement[]): Waves {
  const waves: Waves = [];
  let finished = -Infinity;
  for (const unit of units(statements)) {
    const current = waves.at(-1);
    // Began before everything so far had finished: it did not wait for them.
    if (current && unit.startedAt < finished) current.push(unit);
    else waves.push([unit]);
    finished = Math.max(finished, unit.endedAt);
  }
  return waves;
}

const BEGIN = /^\s*BEGIN\b/i;
const END = /^\s*(COMMIT|ROLLBACK)\b/i;

async function runUnit(db: Database, unit: Unit): Promise<void> {
  if (unit.tx === null) {
    const s = unit.statements[0]!;
    if (s.text === QUOTA_COUNT_SQL) return replayQuota(db, s.params!);
    await db.query(s.text, s.params, s.prepare ? { prepare: true } : undefined);
    return;
  }
  // db.transaction sends its own BEGIN and COMMIT.
  const inner = unit.statements.filter((s, i) => !(i === 0 && BEGIN.test(s.text)) && !(i === unit.statements.length - 1 && END.test(s.text)));
  await db.transaction(async (tx) => {
    for (const s of inner) await tx.query(s.text, s.params);
  });
}

/** The recorded quota count, counted again with its account, limits, key and date. */
async function replayQuota(db: Database, params: readonly unknown[]): Promise<void> {
  const [accountId, , , monthly, daily, keyIds, at] = params as [string, string, string, number | null, number | null, Array<string | null>, string];
  await countRequest(db, { accountId, monthly, daily }, new Date(at), keyIds[0] ?? null);
}

/** Runs the waves in order, the steps of a wave concurrently. */
export async function replay(db: Database, waves: Waves): Promise<void> {
  for (const wave of waves) {
    if (wave.length === 1) await runUnit(db, wave[0]!);
    else await Promise.all(wave.map((u) => runUnit(db, u)));
  }
}

/** Round trips one replay makes (each statement, plus BEGIN/COMMIT of a transaction). */
export function roundTripsOf(waves: Waves): number {
  return waves.flat().reduce((n, u) => n + u.statements.length, 0);
}
