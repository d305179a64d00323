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

/**
 * Hashes of the source's rows, plus (for the globally keyed substances) the rows of other
 * sources that hold one of `keys`.
 */
export async function storedHashes(tx: Queryable, table: RecordTable, source: string, keys: string[] = []): Promise<Map<string, StoredRow>> {
  const k = KEYS[table];
  const where = table === 'substances' ? `source = $1 OR ${k.key} = ANY($2::text[])` : 'source = $1';
  const { rows } = await tx.query<{ key: string; hash: string; source: string; id: string | null; product_id: string | null; derived: string | null }>(
    `SELECT ${k.key} AS key, content_hash AS hash, source, ${k.id} AS id, ${k.product} AS product_id, ${k.derived} AS derived
     FROM ${table} WHERE ${where}`,
    table === 'substances' ? [source, keys] : [source],
  );
  return new Map(rows.map((r) => [r.key, {
    key: r.key, hash: r.hash, source: r.source, ...(r.id ? { id: r.id } : {}), productId: r.product_id, derived: r.derived,
  }]));
}

/** Stored images of the given keys of one source. */
export async function storedImages(tx: Queryable, table: RecordTable, source: string, keys: string[]): Promise<Map<string, JsonValue>> {
  if (keys.length === 0) return new Map();
  const k = KEYS[table];
  const { rows } = await tx.query<{ key: string; record: JsonValue }>(
    `SELECT ${k.key} AS key, record FROM ${table} WHERE source = $1 AND ${k.key} = ANY($2::text[])`,
    [source, keys],
  );
  return new Map(rows.map((r) => [r.key, r.record]));
}
