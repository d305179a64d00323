/**
 * The diff at the heart of ingestion: a snapshot's records against the stored rows, by
 * natural key and content hash. Only rows of the snapshot's own source are updated or
 * deleted; a key already held by another source (shared tables: ATC nodes, classes,
 * substances) stays with that source and is counted as `shared`.
 */
import type { Imaged } from './images.ts';

/** What the engine knows of a stored row before writing. */
export interface StoredRow {
  key: string;
  hash: string;
  source: string;
  /** Row uuid where the table has one (products, packs, recalls). */
  id?: string;
  /** Owning product of a pack, for the change record's drug_id. */
  productId?: string | null;
  /** Columns derived from other records (products: signatures, reimbursement rate). */
  derived?: string | null;
}

export interface Diff<E> {
  inserts: Imaged<E>[];
  updates: Array<Imaged<E> & { stored: StoredRow }>;
  deletes: StoredRow[];
  /** Inserts and updates together in snapshot order (the order of their change records). */
  upserts: Array<{ record: Imaged<E>; stored: StoredRow | null }>;
  unchanged: number;
  shared: number;
}

/**
 * Splits `desired` into inserts, updates and unchanged rows, and lists the stored rows of
 * `source` that the snapshot no longer has as deletes. `stored` may hold rows of other
 * sources (looked up by key); those are never touched.
 */
export function diffRecords<E>(source: string, desired: readonly Imaged<E>[], stored: ReadonlyMap<string, StoredRow>): Diff<E> {
  const diff: Diff<E> = { inserts: [], updates: [], deletes: [], upserts: [], unchanged: 0, shared: 0 };
  const wanted = new Set<string>();
  for (const record of desired) {
    wanted.add(record.key);
    const row = stored.get(record.key);
    if (!row) {
      diff.inserts.push(record);
      diff.upserts.push({ record, stored: null });
    } else if (row.source !== source) diff.shared += 1;
    else if (row.hash !== record.hash) {
      diff.updates.push({ ...record, stored: row });
      diff.upserts.push({ record, stored: row });
    } else diff.unchanged += 1;
  }
  for (const row of stored.values()) {
    if (row.source === source && !wanted.has(row.key)) diff.deletes.push(row);
  }
  diff.deletes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return diff;
}

/** Throws when two records share a natural key: an upsert cannot write one row twice. */
export function assertUniqueKeys(kind: string, records: readonly { key: string }[]): void {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const { key } of records) {
    if (seen.has(key)) dupes.add(key);
    seen.add(key);
  }
  if (dupes.size > 0) {
    const list = [...dupes].slice(0, 5).join(', ');
    throw new IngestError(`snapshot has ${dupes.size} duplicate ${kind} key(s): ${list}${dupes.size > 5 ? ', …' : ''}`);
  }
}

/** A snapshot the engine refuses before writing anything. */
export class IngestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IngestError';
  }
}
