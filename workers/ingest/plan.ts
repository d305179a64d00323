/**
 * What each record kind contributes to an ingest: counts, change records, and two write
 * steps. The engine runs every kind's `upsert` in dependency order (classes before the
 * substances that link to them, products before their packs) and then every `remove` in
 * reverse order, so a deleted parent never takes a row that moved to a new parent with it.
 */
import type { Queryable } from '../../platform/db.ts';
import type { JsonValue } from './canonical.ts';
import type { ChangeRow } from './changes.ts';
import type { Diff, StoredRow } from './diff.ts';
import type { Imaged } from './images.ts';

/** Changes written per table, plus rows left alone. */
export interface TableCounts {
  insert: number;
  update: number;
  delete: number;
  recall: number;
  unchanged: number;
  /** Keys held by another source (shared tables), left to that source. */
  shared: number;
}

export interface KindPlan {
  table: string;
  counts: TableCounts;
  changes: ChangeRow[];
  upsert(tx: Queryable): Promise<void>;
  remove(tx: Queryable): Promise<void>;
}

export function emptyCounts(): TableCounts {
  return { insert: 0, update: 0, delete: 0, recall: 0, unchanged: 0, shared: 0 };
}

/** Counts of a diff (new rows of a recall table count as `recall`). */
export function countsOf(diff: Diff<unknown>, insertAs: 'insert' | 'recall' = 'insert'): TableCounts {
  const counts = emptyCounts();
  counts[insertAs] = diff.inserts.length;
  counts.update = diff.updates.length;
  counts.delete = diff.deletes.length;
  counts.unchanged = diff.unchanged;
  counts.shared = diff.shared;
  return counts;
}

interface ChangeContext<E> {
  table: string;
  source: string;
  naturalKey(key: string): Record<string, string>;
  /** Stored images of updated and deleted rows, by key. */
  before: ReadonlyMap<string, JsonValue>;
  drugOfRecord?(record: Imaged<E>): string | null;
  drugOfStored?(row: StoredRow): string | null;
  insertType?: 'insert' | 'recall';
}

/**
 * Change records of a diff: inserts and updates in snapshot order, then deletes by key.
 * A delete carries the stored image as `before` and null as `after` (docs/api-decisions.md).
 */
export function changesOf<E>(diff: Diff<E>, ctx: ChangeContext<E>): ChangeRow[] {
  const base = (key: string) => ({ table_name: ctx.table, natural_key: ctx.naturalKey(key), source: ctx.source });
  const rows: ChangeRow[] = [];
  for (const { record, stored } of diff.upserts) {
    rows.push({
      ...base(record.key),
      drug_id: ctx.drugOfRecord?.(record) ?? null,
      change_type: stored ? 'update' : (ctx.insertType ?? 'insert'),
      before: stored ? (ctx.before.get(record.key) ?? null) : null,
      after: record.image,
    });
  }
  for (const row of diff.deletes) {
    rows.push({ ...base(row.key), drug_id: ctx.drugOfStored?.(row) ?? null, change_type: 'delete', before: ctx.before.get(row.key) ?? null, after: null });
  }
  return rows;
}

/** JSON text for a `jsonb_to_recordset($n::jsonb)` parameter. */
export function recordset(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

// Keeps each statement's JSON parameter to a few megabytes on national-scale registers
// (the FDA directory has about 250,000 packages) while a demo country is one statement.
const CHUNK_RECORDS = 5000;

/** Runs `write` once per slice of `records`, in order (set-based, a few statements per register). */
export async function inChunks<T>(records: readonly T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < records.length; start += CHUNK_RECORDS) await write(records.slice(start, start + CHUNK_RECORDS));
}
