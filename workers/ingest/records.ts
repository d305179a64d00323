/**
 * Stored state of the tables that keep a `record` image and a `content_hash` (substances,
 * products, packs, recalls): the hashes for the diff, then the images of only the rows that
 * change, so re-ingesting an unchanged register reads hashes and nothing more.
 */
import type { Queryable } from '../../platform/db.ts';
import type { JsonValue } from './canonical.ts';
import type { StoredRow } from './diff.ts';

export type RecordTable = 'substances' | 'products' | 'packs' | 'recalls';

/** A product's derived columns as one text, compared with `derivedKey` (write-products.ts). */
const DERIVED_PRODUCT_COLUMNS = `concat_ws('#', coalesce(substance_signature, ''), coalesce(medicine_signature, ''),
  coalesce(reimbursement_rate_percent::text, ''))`;

// Table → natural key column and the row id column. Constants, never user input.
const KEYS: Record<RecordTable, { key: string; id: string; product: string; derived: string }> = {
  substances: { key: 'unii', id: 'NULL::uuid', product: 'NULL::uuid', derived: 'NULL::text' },
  products: { key: 'natural_key', id: 'id', product: 'id', derived: DERIVED_PRODUCT_COLUMNS },
  packs: { key: 'natural_key', id: 'id', product: 'product_id', derived: 'NULL::text' },
  recalls: { key: 'natural_key', id: 'id', product: 'product_id', derived: 'NULL::text' },
};

type HashRow = { key: string; hash: string; source: string; id: string | null; product_id: string | null; derived: string | null };

/**
 * The rows of source `$1` whose natural key is in `$2`, one index probe per key. Written as
 * `= ANY($2)` the planner scans every row of the source instead (with or without statistics),
 * which made each chunk of a streamed register cost the whole register.
 */
export function rowsOfKeys(table: 'products' | 'packs' | 'recalls'): string {
  return `unnest($2::text[]) AS wanted(key)
    CROSS JOIN LATERAL (SELECT * FROM ${table} t WHERE t.source = $1 AND t.natural_key = wanted.key LIMIT 1) AS ${table}`;
}

async function selectHashes(tx: Queryable, table: RecordTable, from: string, params: unknown[]): Promise<Map<string, StoredRow>> {
  const k = KEYS[table];
  const { rows } = await tx.query<HashRow>(
    `SELECT ${k.key} AS key, content_hash AS hash, source, ${k.id} AS id, ${k.product} AS product_id, ${k.derived} AS derived
     FROM ${from}`,
    params,
  );
  return new Map(rows.map((r) => [r.key, {
    key: r.key, hash: r.hash, source: r.source, ...(r.id ? { id: r.id } : {}), productId: r.product_id, derived: r.derived,
  }]));
}

/**
 * Hashes of the source's rows, plus (for the globally keyed substances) the rows of other
 * sources that hold one of `keys`.
 */
export async function storedHashes(tx: Queryable, table: RecordTable, source: string, keys: string[] = []): Promise<Map<string, StoredRow>> {
  const k = KEYS[table];
  return table === 'substances'
    ? selectHashes(tx, table, `${table} WHERE source = $1 OR ${k.key} = ANY($2::text[])`, [source, keys])
    : selectHashes(tx, table, `${table} WHERE source = $1`, [source]);
}

/** Hashes of the source's rows among `keys` only: one chunk of a streamed register (products, packs). */
export async function storedHashesOf(tx: Queryable, table: 'products' | 'packs', source: string, keys: string[]): Promise<Map<string, StoredRow>> {
  if (keys.length === 0) return new Map();
  return selectHashes(tx, table, rowsOfKeys(table), [source, keys]);
}

/** Stored images of the given keys of one source. */
export async function storedImages(tx: Queryable, table: RecordTable, source: string, keys: string[]): Promise<Map<string, JsonValue>> {
  if (keys.length === 0) return new Map();
  const k = KEYS[table];
  const from = table === 'substances' ? `${table} WHERE source = $1 AND ${k.key} = ANY($2::text[])` : rowsOfKeys(table);
  const { rows } = await tx.query<{ key: string; record: JsonValue }>(`SELECT ${k.key} AS key, record FROM ${from}`, [source, keys]);
  return new Map(rows.map((r) => [r.key, r.record]));
}
