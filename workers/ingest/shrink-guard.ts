/**
 * The shrink guard: a register file cut short (a truncated download, a publisher's partial
 * export) is well-formed and would otherwise be published — thousands of products deleted,
 * delete records fanned out to every webhook subscriber, freshness still `ok`. An ingest that
 * would delete more than a share of a source's stored products or packs, or whose file had
 * more than a share of its rows skipped as malformed, is refused instead and writes nothing.
 * `drugref ingest --allow-shrink` / `drugref sync --allow-shrink` accept one such file.
 */
import type { Queryable } from '../../platform/db.ts';
import { IngestError } from './diff.ts';
import { countUnstated } from './deletions.ts';

export interface ShrinkLimits {
  /** Largest share (percent) of a source's stored products or packs one ingest may delete. */
  maxDeletePercent: number;
  /** Largest share (percent) of a file's rows that may be skipped as malformed. */
  maxSkippedPercent: number;
}

/**
 * Sources and files smaller than this are not guarded: a small register losing a few rows is
 * an ordinary update, and a percentage of a handful of rows says nothing.
 */
export const GUARD_MIN_ROWS = 100;

/** Why the guard refused: `shrink` (too many deletions) or `skipped` (too many malformed rows). */
export type GuardKind = 'shrink' | 'skipped';

/** An ingest the guard refused; the transaction it is thrown in rolls back. */
export class ShrinkRefusedError extends IngestError {
  constructor(readonly guard: GuardKind, message: string) {
    super(message);
  }
}

const percent = (part: number, whole: number): number => Math.round((part / whole) * 1000) / 10;

/**
 * The refusal message when too many of a file's rows were malformed (the rows the adapter
 * reported as problems), or null when it may go on. Rows an adapter leaves aside by design
 * (RxNorm's other sources, a register's out-of-scope records) are not malformed.
 */
export function skippedRefusal(rows: { read: number; malformed: number } | null, limits: ShrinkLimits): string | null {
  if (!rows || rows.read < GUARD_MIN_ROWS) return null;
  const share = percent(rows.malformed, rows.read);
  if (share <= limits.maxSkippedPercent) return null;
  return `${rows.malformed} of ${rows.read} rows (${share} %) were skipped as malformed, more than the ${limits.maxSkippedPercent} % allowed; `
    + 'nothing was written (accept this file once with --allow-shrink)';
}

/**
 * Throws ShrinkRefusedError when the deletions the snapshot implies exceed the limit, for the
 * products or the packs of `source`. `inserted` are the rows this ingest added (not stored before).
 */
export async function guardDeletions(tx: Queryable, source: string, inserted: { products: number; packs: number }, limits: ShrinkLimits): Promise<void> {
  for (const table of ['products', 'packs'] as const) {
    const { stored, unstated } = await countUnstated(tx, table, source);
    const before = stored - inserted[table];
    if (before < GUARD_MIN_ROWS) continue;
    const share = percent(unstated, before);
    if (share > limits.maxDeletePercent) {
      throw new ShrinkRefusedError('shrink', `the file would delete ${unstated} of the ${before} ${table} of source ${source} (${share} %), `
        + `more than the ${limits.maxDeletePercent} % allowed: a file cut short? Nothing was written (accept it once with --allow-shrink)`);
    }
  }
}
