/**
 * Reads of the change log for dated answers (`as_of`). Every read is one record's own
 * history through an index of 0820_changes_as_of.sql (by record key, by product id, by code,
 * by source), never a scan of the log. The log holds each record's full normalised image in
 * `after` (workers/ingest/images.ts): a product without its packs, a pack with its
 * identifiers, prices and `product_key`, a recall notice with its `pack_keys`.
 */
import type { Queryable } from '../../platform/db.ts';

export type HistoryTable = 'products' | 'packs' | 'recalls';

/** A record of one source's register, as the change log keys it. */
export interface RecordKey {
  source: string;
  key: string;
}

/** One version of a record: the change that produced it and the image after it (null once deleted). */
export interface Version extends RecordKey {
  id: string;
  at: Date;
  type: 'insert' | 'update' | 'delete' | 'recall';
  /** The product the record belonged to (products: itself; packs and recalls: their product). */
  drugId: string | null;
  image: Record<string, unknown> | null;
}

/** Columns of a version; `light` keeps only what statuses need, for products whose images hold monographs. */
function columns(light: boolean): string {
  const image = light
    ? `CASE WHEN c.after IS NULL THEN NULL ELSE jsonb_build_object('marketing_status', c.after -> 'marketing_status',
         'identifiers', c.after -> 'identifiers') END`
    : 'c.after';
  return `c.id, c.natural_key ->> 'source' AS source, c.natural_key ->> 'key' AS key, c.occurred_at AS at,
    c.change_type AS type, c.drug_id AS "drugId", ${image} AS image`;
}

const keyText = (k: RecordKey): string => JSON.stringify({ source: k.source, key: k.key });
/** One text per record key, for maps. */
export const keyOf = (k: RecordKey): string => `${k.source}\u0000${k.key}`;

/** Versions grouped by record, oldest first within each. */
function byRecord(rows: Version[]): Map<string, Version[]> {
  const out = new Map<string, Version[]>();
  for (const row of rows) {
    const list = out.get(keyOf(row));
    if (list) list.push(row);
    else out.set(keyOf(row), [row]);
  }
  return out;
}

/**
 * The statements of the reads below, exported so a test can EXPLAIN exactly them
 * (test/catalogue/as-of-plans.test.ts). $1/$2 as in the functions that run them.
 */
export const HISTORY_SQL = {
  byKey: (light: boolean) => `SELECT ${columns(light)} FROM changes c
    WHERE c.table_name = $1 AND c.natural_key = ANY($2::jsonb[]) ORDER BY c.occurred_at, c.id`,
  productsById: `SELECT ${columns(true)} FROM changes c
    WHERE c.drug_id = ANY($1::uuid[]) AND c.table_name = 'products' ORDER BY c.occurred_at, c.id`,
  keysOfProducts: `SELECT DISTINCT c.natural_key ->> 'source' AS source, c.natural_key ->> 'key' AS key FROM changes c
    WHERE c.drug_id = ANY($1::uuid[]) AND c.table_name = $2 ORDER BY 1, 2`,
  withCode: `SELECT DISTINCT c.table_name AS "table", c.natural_key ->> 'source' AS source, c.natural_key ->> 'key' AS key FROM changes c
    WHERE ((c.after -> 'identifiers') @> $1::jsonb OR (c.after -> 'identifiers') @> $2::jsonb)
      AND c.table_name IN ('products', 'packs')
    ORDER BY 1, 2, 3 LIMIT 50`,
  starts: `SELECT s.source, (SELECT c.occurred_at FROM changes c WHERE c.source = s.source ORDER BY c.occurred_at LIMIT 1) AS start
    FROM unnest($1::text[]) AS s(source)`,
};

/** Every version of the given records of one table (index changes_record_history). */
export async function versionsByKey(db: Queryable, table: HistoryTable, keys: readonly RecordKey[], light = false): Promise<Map<string, Version[]>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query<Version>(HISTORY_SQL.byKey(light), [table, keys.map(keyText)]);
  return byRecord(rows);
}

/** Every version of the given products, by product id (index changes_drug_history). */
export async function productVersions(db: Queryable, ids: readonly string[]): Promise<Map<string, Version[]>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<Version>(HISTORY_SQL.productsById, [ids]);
  const out = new Map<string, Version[]>();
  for (const row of rows) out.set(row.drugId!, [...(out.get(row.drugId!) ?? []), row]);
  return out;
}

/** Keys of the packs or recalls that ever belonged to one of the products (index changes_drug_history). */
export async function keysOfProducts(db: Queryable, table: 'packs' | 'recalls', ids: readonly string[]): Promise<RecordKey[]> {
  const { rows } = await db.query<RecordKey>(HISTORY_SQL.keysOfProducts, [ids, table]);
  return rows;
}

/** Full images of versions by change id (primary key). */
export async function imagesById(db: Queryable, ids: readonly string[]): Promise<Map<string, Record<string, unknown> | null>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; after: Record<string, unknown> | null }>('SELECT id, after FROM changes WHERE id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.after]));
}

/**
 * Products and packs whose image ever carried `code` in one of `systems`, deleted ones
 * included (GIN index changes_identifiers; at most two systems: gtin and ean read each other's).
 * At most 50: more records for one code would be a broken register.
 */
export async function recordsWithCode(db: Queryable, systems: readonly string[], code: string): Promise<Array<RecordKey & { table: 'products' | 'packs' }>> {
  const probes = systems.slice(0, 2).map((system) => JSON.stringify([{ system, code }]));
  const { rows } = await db.query<RecordKey & { table: 'products' | 'packs' }>(HISTORY_SQL.withCode, [probes[0], probes[1] ?? probes[0]]);
  return rows;
}

/** When each source's history starts: its first change (index changes_source_history); absent without one. */
export async function historyStarts(db: Queryable, sources: readonly string[]): Promise<Map<string, Date>> {
  if (sources.length === 0) return new Map();
  const { rows } = await db.query<{ source: string; start: Date | null }>(HISTORY_SQL.starts, [[...new Set(sources)]]);
  return new Map(rows.filter((r) => r.start !== null).map((r) => [r.source, r.start!]));
}

/** The version in force at `at`: the newest at or before it, or null. */
export function versionAt(versions: readonly Version[] | undefined, at: Date): Version | null {
  let found: Version | null = null;
  for (const v of versions ?? []) {
    if (v.at.getTime() <= at.getTime()) found = v;
    else break;
  }
  return found;
}
