/**
 * What the catalogue holds of FEST, for a document that holds only some of its catalogues
 * (an extract or a FEST web-service answer with only `KatLegemiddelpakning`, or only
 * `KatLegemiddelMerkevare`). Such a document updates the entries it holds; everything else of
 * the source must stay. The ingest engine deletes what a snapshot of a source does not state,
 * so the adapter states the held products, packs and substances again, as they were stored,
 * with the document's entries laid over them (no-fest-combine.ts): nothing is deleted.
 */
import type { Queryable } from '../../../platform/db.ts';
import type { PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';

/** Source id FEST is stored under. */
const SOURCE = 'no-fest';

/** The FEST products (each with its packs) and substances the catalogue holds. */
export interface HeldFest {
  products: Map<string, ProductEntry>;
  substances: SubstanceEntry[];
}

const PRODUCTS = 'SELECT record FROM products WHERE source = $1 ORDER BY natural_key';
const PACKS = `SELECT p.natural_key AS product, k.record AS pack
  FROM packs k JOIN products p ON p.id = k.product_id
  WHERE k.source = $1 ORDER BY k.natural_key`;
const SUBSTANCES = 'SELECT record FROM substances WHERE source = $1 ORDER BY unii';

/** An empty catalogue: what a document is laid over when no catalogue is given. */
export function nothingHeld(): HeldFest {
  return { products: new Map(), substances: [] };
}

/**
 * The stored FEST records as snapshot entries: a product's record is its entry without packs,
 * a pack's record its entry plus the key of its product (dropped here).
 */
export async function heldFest(db: Queryable): Promise<HeldFest> {
  const products = new Map<string, ProductEntry>();
  const { rows } = await db.query<{ record: ProductEntry }>(PRODUCTS, [SOURCE]);
  for (const { record } of rows) products.set(record.key, { ...record, packs: [] });
  const packs = await db.query<{ product: string; pack: PackEntry & { product_key?: string } }>(PACKS, [SOURCE]);
  for (const row of packs.rows) {
    const { product_key: _productKey, ...pack } = row.pack;
    products.get(row.product)?.packs.push(pack);
  }
  const substances = await db.query<{ record: SubstanceEntry }>(SUBSTANCES, [SOURCE]);
  return { products, substances: substances.rows.map((r) => r.record) };
}
