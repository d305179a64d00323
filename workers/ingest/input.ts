/**
 * What the ingest engine reads: a snapshot whose products (and, for registers that list packs
 * in a file of their own, packs) may arrive as streams rather than arrays, so a national
 * register never has to be held in memory at once. A plain `Snapshot` (arrays, the JSON format)
 * is one of these. The engine consumes the streams once, in chunks (engine.ts).
 */
import type { AdapterResult, PackEntry, ProductEntry, Snapshot } from './snapshot.ts';

/** Records given as an array, a generator, or an asynchronous stream. */
export type Many<T> = Iterable<T> | AsyncIterable<T>;

/** A pack listed apart from its product: `product_key` names a product of the same snapshot. */
export interface LoosePack {
  product_key: string;
  pack: PackEntry;
}

/** A snapshot with streamable products; the small kinds (classification, substances, recalls) stay arrays. */
export interface SnapshotInput extends Omit<Snapshot, 'products'> {
  products?: Many<ProductEntry>;
  /**
   * Packs given apart from their products, read after every product. A register whose packs sit
   * in their own file (FDA package.txt) streams them here instead of nesting them in products.
   */
  packs?: Many<LoosePack>;
}

/** An adapter's result whose snapshot streams: problems and file reports are complete on return. */
export interface StreamedAdapterResult extends Omit<AdapterResult, 'snapshot'> {
  snapshot: SnapshotInput;
}

/** An error thrown while reading an adapter's stream (a file that turns out unreadable midway). */
export class StreamReadError extends Error {
  constructor(cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause });
    this.name = 'StreamReadError';
  }
}

/**
 * Yields `records` in arrays of at most `size`. Errors of the source are wrapped in
 * StreamReadError, so the caller can tell a file that failed midway from a database failure.
 */
export async function* batches<T>(records: Many<T> | undefined, size: number): AsyncGenerator<T[]> {
  if (!records) return;
  if (Array.isArray(records)) {
    for (let start = 0; start < records.length; start += size) yield records.slice(start, start + size);
    return;
  }
  let batch: T[] = [];
  const iterator = Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : (records as Iterable<T>)[Symbol.iterator]();
  let done = false;
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (err) {
        done = true;
        throw new StreamReadError(err);
      }
      if (next.done) break;
      batch.push(next.value);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    done = true;
    if (batch.length > 0) yield batch;
  } finally {
    // A consumer that stops early (a failed write) closes the source, so its files are closed.
    if (!done) await iterator.return?.();
  }
}

/**
 * Iterates `source` while already reading its next item: a streamed file is parsed while the
 * database writes the chunk before (one core each), instead of one waiting for the other.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  let finished = false;
  try {
    for (;;) {
      const current = await next;
      if (current.done) break;
      next = iterator.next();
      // A read that fails while the current item is written is reported when its turn comes.
      next.catch(() => undefined);
      yield current.value;
    }
    finished = true;
  } finally {
    if (!finished) {
      await next.catch(() => undefined);
      await iterator.return?.();
    }
  }
}
