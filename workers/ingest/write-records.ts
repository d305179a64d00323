/**
 * Streams a snapshot's products and packs through the engine in chunks, so memory holds one
 * chunk however large the register: each chunk of products is diffed against the stored rows
 * of its own keys only (write-products.ts) and written, then the packs likewise
 * (write-packs.ts). Rows the snapshot no longer states are found and deleted set-based at the
 * end (deletions.ts).
 */
import type { Queryable } from '../../platform/db.ts';
import { IngestError } from './diff.ts';
import { batches, readAhead } from './input.ts';
import type { SnapshotInput } from './input.ts';
import type { ProductEntry } from './snapshot.ts';
import { recordDeletes } from './deletions.ts';
import { emptyCounts } from './plan.ts';
import { rowsOfKeys } from './records.ts';
import type { TableCounts } from './plan.ts';
import type { IngestStage } from './staging.ts';
import type { MoietyResolver } from './write-derived.ts';
import { writePackChunk } from './write-packs.ts';
import type { OwnedPack } from './write-packs.ts';
import { refreshPackRates, writeProductChunk } from './write-products.ts';

/** Products per chunk by default: a few megabytes of images and JSON, a handful of statements. */
export const DEFAULT_CHUNK_PRODUCTS = 2000;

export interface RecordsWritten {
  products: TableCounts;
  packs: TableCounts;
  /** Products the snapshot states. */
  productCount: number;
  /** Countries of the snapshot's products (the merge step recomputes them). */
  countries: Set<string>;
}

export interface ChunkOptions {
  /** Products (or loose packs) per chunk. */
  chunkSize: number;
  /** Called after each chunk with the products and packs written so far. */
  onRows?: (rows: number) => void;
}

function addCounts(into: TableCounts, from: TableCounts): void {
  for (const key of Object.keys(into) as Array<keyof TableCounts>) into[key] += from[key];
}

// Index probes per key (records.ts), kept only when this snapshot stated the product.
const STATED_PRODUCTS = `
  SELECT products.natural_key, products.id FROM ${rowsOfKeys('products')}
   WHERE EXISTS (SELECT 1 FROM ingest_seen s WHERE s.kind = 'products' AND s.key = products.natural_key)`;

/** Row ids of the snapshot's own products among `keys`; a key naming no such product refuses the snapshot. */
async function productIdsOf(tx: Queryable, source: string, keys: string[]): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ natural_key: string; id: string }>(STATED_PRODUCTS, [source, keys]);
  const ids = new Map(rows.map((r) => [r.natural_key, r.id]));
  const orphan = keys.find((k) => !ids.has(k));
  if (orphan) throw new IngestError(`a pack belongs to product ${orphan}, which the snapshot does not list`);
  return ids;
}

// A pack left unchanged keeps the product it had: that product must be one the snapshot states
// too. Read from the products the snapshot does not state (usually none) to their stated packs.
const PACK_OF_UNSTATED_PRODUCT = `
  SELECT k.natural_key AS pack, p.natural_key AS product FROM products p JOIN packs k ON k.product_id = p.id
   WHERE p.source = $1 AND NOT EXISTS (SELECT 1 FROM ingest_seen s WHERE s.kind = 'products' AND s.key = p.natural_key)
     AND EXISTS (SELECT 1 FROM ingest_seen s WHERE s.kind = 'packs' AND s.key = k.natural_key)
   LIMIT 1`;

async function checkLoosePacks(tx: Queryable, source: string): Promise<void> {
  const { rows } = await tx.query<{ pack: string; product: string }>(PACK_OF_UNSTATED_PRODUCT, [source]);
  if (rows[0]) throw new IngestError(`pack ${rows[0].pack} belongs to product ${rows[0].product}, which the snapshot does not list`);
}

/**
 * The packs nested in an array of products, with the row ids their products got (`ids`; none
 * for a stream: those were written with their products), then the loose packs.
 */
async function* packsAfterProducts(input: SnapshotInput, ids: ReadonlyMap<string, string>, onRate: () => void): AsyncGenerator<OwnedPack> {
  if (Array.isArray(input.products)) {
    for (const p of input.products as ProductEntry[]) for (const pack of p.packs) yield { pack, productKey: p.key, productId: ids.get(p.key)! };
  }
  for await (const loose of input.packs ?? []) {
    // A nested pack's rate was seen with its product (write-products.ts); a loose one's only now.
    if (typeof loose.pack.reimbursement_rate_percent === 'number') onRate();
    yield { pack: loose.pack, productKey: loose.product_key };
  }
}

/**
 * Writes every product and pack of `input` chunk by chunk (inside the open transaction), with
 * their change records in feed order: products, the products' deletes (the engine deletes
 * those rows after the packs), then packs. Products given as an array are read twice, products
 * then packs; a stream of products with nested packs writes each chunk's packs with it and
 * holds their records back until the products' deletes are recorded (staging.ts).
 */
export async function writeRecords(tx: Queryable, stage: IngestStage, input: SnapshotInput, moieties: MoietyResolver, options: ChunkOptions): Promise<RecordsWritten> {
  const source = input.source.id;
  const out: RecordsWritten = { products: emptyCounts(), packs: emptyCounts(), productCount: 0, countries: new Set() };
  const nestedAlong = !Array.isArray(input.products);
  // Products given as an array are in memory already: their ids are kept for the packs' pass.
  const ids = new Map<string, string>();
  let rows = 0;
  const progress = (n: number) => options.onRows?.(rows += n);
  for await (const chunk of readAhead(batches(input.products, options.chunkSize))) {
    const written = await writeProductChunk(tx, stage, source, chunk, moieties);
    addCounts(out.products, written.counts);
    out.productCount += chunk.length;
    for (const p of chunk) out.countries.add(p.country);
    if (!nestedAlong) written.idByKey.forEach((id, key) => ids.set(key, id));
    const packs: OwnedPack[] = nestedAlong ? chunk.flatMap((p) => p.packs.map((pack) => ({ pack, productKey: p.key, productId: written.idByKey.get(p.key)! }))) : [];
    if (packs.length > 0) addCounts(out.packs, await writePackChunk(tx, stage, source, packs, { hold: true }));
    progress(chunk.length + packs.length);
  }
  // A partial snapshot deletes nothing (snapshot.ts `partial`): no product's delete is recorded.
  if (input.partial !== true) out.products.delete = await recordDeletes(stage, 'products', source);
  await stage.appendHeld();
  const resolve = (keys: string[]) => productIdsOf(tx, source, keys);
  let rated = false;
  // A pack is about half a product's size (and has no children of its own but prices and codes).
  for await (const chunk of readAhead(batches(packsAfterProducts(input, ids, () => { rated = true; }), 2 * options.chunkSize))) {
    addCounts(out.packs, await writePackChunk(tx, stage, source, chunk, { resolve }));
    progress(chunk.length);
  }
  if (input.packs) await checkLoosePacks(tx, source);
  // A product's rate is the highest of its packs': those of loose packs are known only now.
  if (rated) await refreshPackRates(tx, source);
  return out;
}
