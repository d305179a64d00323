/**
 * A streamed adapter result (input.ts) read to the end the way the engine reads it, with its
 * loose packs put back on their products in order: comparable with what `parse` returns.
 */
import type { StreamedAdapterResult } from '../../workers/ingest/input.ts';
import type { AdapterResult, ProductEntry } from '../../workers/ingest/snapshot.ts';

export async function collectStreamed(result: StreamedAdapterResult): Promise<AdapterResult> {
  const products: ProductEntry[] = [];
  for await (const p of (result.snapshot.products ?? []) as AsyncIterable<ProductEntry>) products.push(p);
  const byKey = new Map(products.map((p) => [p.key, p]));
  for await (const { product_key, pack } of result.snapshot.packs ?? []) {
    const product = byKey.get(product_key);
    if (!product) throw new Error(`loose pack ${pack.key} names product ${product_key}, which was not streamed`);
    product.packs.push(pack);
  }
  const { packs: _packs, ...rest } = result.snapshot;
  return { snapshot: { ...rest, products }, problems: result.problems, files: result.files! };
}
