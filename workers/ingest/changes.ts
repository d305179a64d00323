/**
 * The change records one ingest appends to the `changes` table, in set-based inserts of a
 * few thousand as the engine settles them (staging.ts), never the whole register at once.
 *
 * `occurred_at` is strictly increasing within an ingest and across ingests: each chunk
 * starts at the database clock (`clock_timestamp()`, inside the writing transaction, as the
 * feed's visibility horizon requires: docs/webhooks.md) or one microsecond after the newest
 * stored change when that is later, and each record adds one microsecond in the order it was
 * recorded, so the keyset order `(occurred_at, id)` is the order of recording. Ingests hold
 * an advisory lock (see engine.ts), so no other ingest appends between reading that maximum
 * and committing.
 */
import type { Queryable } from '../../platform/db.ts';
import type { JsonValue } from './canonical.ts';

export type ChangeType = 'insert' | 'update' | 'delete' | 'recall';

export interface ChangeRow {
  table_name: string;
  natural_key: Record<string, string>;
  drug_id: string | null;
  change_type: ChangeType;
  before: JsonValue | null;
  after: JsonValue | null;
  source: string;
}

// Keeps each statement's JSON parameter to a few megabytes on large registers.
const CHUNK_ROWS = 2000;

const INSERT_CHANGES = `
  INSERT INTO changes (source, table_name, natural_key, drug_id, change_type, before, after, occurred_at)
  SELECT c.source, c.table_name, c.natural_key, c.drug_id, c.change_type, c.before, c.after,
         base.at + (c.ord - 1) * interval '1 microsecond'
  FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
         source text, table_name text, natural_key jsonb, drug_id uuid, change_type text, before jsonb, after jsonb))
       WITH ORDINALITY AS c(source, table_name, natural_key, drug_id, change_type, before, after, ord)
  CROSS JOIN (SELECT greatest(clock_timestamp(), $2::timestamptz,
                              (SELECT max(occurred_at) FROM changes) + interval '1 microsecond') AS at) AS base`;

/**
 * Appends the records in order; returns how many were written. `notBefore` (a caller's clock)
 * is only a lower bound: a clock behind the database's is ignored, because a row stamped in
 * the past could commit behind a feed cursor already handed out.
 */
export async function appendChanges(tx: Queryable, rows: readonly ChangeRow[], notBefore: Date | null = null): Promise<number> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    await tx.query(INSERT_CHANGES, [JSON.stringify(chunk), notBefore]);
  }
  return rows.length;
}
