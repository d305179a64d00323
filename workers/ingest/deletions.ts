/**
 * Deletions of a streamed snapshot, set-based: the source's stored products and packs whose
 * keys the snapshot never stated (staging.ts `ingest_seen`) get one `delete` change record
 * each, carrying the stored image as `before`, in key order as the feed requires, and are then
 * deleted in SQL. Nothing of the stored register is loaded into memory, however much goes.
 */
import type { Queryable } from '../../platform/db.ts';
import type { IngestStage } from './staging.ts';

type Table = 'products' | 'packs';

/** Table → the column a delete record names as its drug. Constants, never user input. */
const DRUG_COLUMN: Record<Table, string> = { products: 'id', packs: 'product_id' };

const unstated = (table: Table, source: string) => `t.source = ${source}::text
  AND NOT EXISTS (SELECT 1 FROM ingest_seen s WHERE s.kind = '${table}' AND s.key = t.natural_key)`;

const STAMP = `(SELECT greatest(clock_timestamp(), $1::timestamptz, (SELECT max(occurred_at) FROM changes) + interval '1 microsecond') AS at) AS base`;

// Byte order of the key ("C"): the order the in-memory diff sorts deletes in (diff.ts). Stamped as changes.ts does.
const recordsOf = (table: Table, rows: string) => `
  INSERT INTO changes (source, table_name, natural_key, drug_id, change_type, before, after, occurred_at)
  SELECT $2, '${table}', jsonb_build_object('source', $2::text, 'key', t.natural_key), t.drug, 'delete', t.record, NULL,
         base.at + (row_number() OVER (ORDER BY t.natural_key COLLATE "C") - 1) * interval '1 microsecond'
  FROM ${rows} t CROSS JOIN ${STAMP}`;

/**
 * Appends a delete record for each row of `source` in `table` that the snapshot did not state,
 * leaving the rows (a product's go after its packs'); returns how many.
 */
export function recordDeletes(stage: IngestStage, table: Table, source: string): Promise<number> {
  const rows = `(SELECT t.natural_key, t.${DRUG_COLUMN[table]} AS drug, t.record FROM ${table} t WHERE ${unstated(table, '$2')})`;
  return stage.appendSelected(recordsOf(table, rows), [source]);
}

/** Deletes the rows of `source` in `table` that the snapshot did not state and appends their delete records; returns how many. */
export function deleteAndRecord(stage: IngestStage, table: Table, source: string): Promise<number> {
  return stage.appendSelected(`WITH gone AS (
    DELETE FROM ${table} t WHERE ${unstated(table, '$2')} RETURNING t.natural_key, t.${DRUG_COLUMN[table]} AS drug, t.record)
    ${recordsOf(table, 'gone')}`, [source]);
}

/**
 * Deletes the rows of `source` in `table` that the snapshot did not state (after their records).
 * Packs go before products (children first), so a deleted product never takes a pack with it silently.
 */
export async function deleteUnstated(tx: Queryable, table: Table, source: string): Promise<void> {
  await tx.query(`DELETE FROM ${table} t WHERE ${unstated(table, '$1')}`, [source]);
}

/** Rows of `source` in `table` now stored, and how many of them the snapshot did not state. */
export async function countUnstated(tx: Queryable, table: Table, source: string): Promise<{ stored: number; unstated: number }> {
  const { rows } = await tx.query<{ stored: number; unstated: number }>(
    `SELECT count(*)::int AS stored, count(*) FILTER (WHERE ${unstated(table, '$1')})::int AS unstated FROM ${table} t WHERE t.source = $1`, [source]);
  return rows[0] ?? { stored: 0, unstated: 0 };
}
