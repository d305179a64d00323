/**
 * The engine streams products and packs in chunks (workers/ingest/write-records.ts): an
 * ingest larger than one chunk must give exactly the changes and catalogue of a single chunk,
 * whether products come as an array or a stream, their packs nested or listed apart; a failure in
 * a late chunk must leave nothing written; and no query may read more than a chunk of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../platform/db.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import type { IngestOptions, IngestProgress } from '../../workers/ingest/engine.ts';
import type { LoosePack, SnapshotInput } from '../../workers/ingest/input.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { catalogueDigest, tableCounts } from './snapshots.ts';

const SOURCE = { id: 'test-chunks', name: 'Chunked register', country: 'CH' as const, refresh_interval_hours: 24 };
const SMALL_CHUNK = 4;

function product(i: number, version = 1): ProductEntry {
  const key = `P${String(i).padStart(3, '0')}`;
  return {
    key, country: 'CH', product_name: `Product ${i}${version > 1 && i % 5 === 0 ? ' forte' : ''}`, dose_form: 'Tabl', route: 'oral',
    identifiers: [{ system: 'swissmedic_no', code: String(10000 + i) }],
    ingredients: [{ unii: i % 2 ? 'name:PARACETAMOL' : 'name:IBUPROFEN', strength_value: 100 + i, strength_unit: 'mg' }],
    packs: [1, 2].map((n) => ({
      key: `${key}-${n}`, description: `${n * 10} Stk`, units: n * 10, unit: 'Stk',
      identifiers: [{ system: 'gtin' as const, code: `76800${String(i).padStart(3, '0')}000${n}0` }],
      prices: [{ amount: version > 1 && i % 7 === 0 ? 9.5 + n : 5 + n, currency: 'CHF', kind: 'public' }],
    })),
  };
}

function snapshot(products: ProductEntry[]): Snapshot {
  return {
    format: SNAPSHOT_FORMAT, source: SOURCE,
    substances: [{ unii: 'name:PARACETAMOL', name: 'Paracetamol', provisional: true }, { unii: 'name:IBUPROFEN', name: 'Ibuprofen', provisional: true }],
    products,
  };
}

/** 30 products (60 packs), then: updates and deletes in every chunk, a pack moved across chunks, new products. */
const first = (): Snapshot => snapshot(Array.from({ length: 30 }, (_, i) => product(i)));
function second(): Snapshot {
  const products = Array.from({ length: 34 }, (_, i) => product(i, 2)).filter((_, i) => i % 6 !== 3);
  // P002's second pack moves to P028, several chunks later.
  const moved = products[2]!.packs.pop()!;
  products.find((p) => p.key === 'P028')!.packs.push(moved);
  return snapshot(products);
}

interface Change {
  table_name: string;
  change_type: string;
  key: string;
  drug: string | null;
  before: unknown;
  after: unknown;
}

/** Changes in feed order, their drug named by its product's natural key (ids differ between databases). */
async function feed(db: Database): Promise<Change[]> {
  const { rows } = await db.query<Change>(
    `SELECT c.table_name, c.change_type, coalesce(c.natural_key->>'key', c.natural_key->>'unii') AS key,
            coalesce(p.natural_key, CASE WHEN c.table_name = 'products' THEN coalesce(c.after, c.before)->>'key'
                                         ELSE coalesce(c.after, c.before)->>'product_key' END) AS drug, c.before, c.after
       FROM changes c LEFT JOIN products p ON p.id = c.drug_id ORDER BY c.occurred_at, c.id`);
  return rows;
}

/** The catalogue as rows without random ids. */
async function state(db: Database): Promise<unknown> {
  const { rows } = await db.query(
    `SELECT 'p' AS t, p.natural_key AS k, p.content_hash AS h, p.substance_signature AS x FROM products p
     UNION ALL SELECT 'k', k.natural_key, k.content_hash, p.natural_key FROM packs k JOIN products p ON p.id = k.product_id
     UNION ALL SELECT 'i', i.system || ':' || i.code, coalesce(k.natural_key, ''), p.natural_key
       FROM identifiers i JOIN products p ON p.id = i.drug_id LEFT JOIN packs k ON k.id = i.pack_id
     UNION ALL SELECT 'r', k.natural_key, pr.kind, pr.amount::text FROM pack_prices pr JOIN packs k ON k.id = pr.pack_id
     UNION ALL SELECT 'g', p.natural_key, i.unii, i.strength_value::text FROM product_ingredients i JOIN products p ON p.id = i.product_id
     ORDER BY 1, 2, 3, 4`);
  return rows;
}

/** The same snapshot with products from a generator and packs listed apart, as a streaming adapter gives them. */
function streamed(s: Snapshot): SnapshotInput {
  const products = s.products!;
  return {
    ...s,
    products: (async function* () {
      for (const p of products) yield { ...p, packs: [] };
    })(),
    packs: (function* (): Generator<LoosePack> {
      for (const p of products) for (const pack of p.packs) yield { product_key: p.key, pack };
    })(),
  };
}

/** The same snapshot with products (their packs nested) from an asynchronous generator. */
function nestedStream(s: Snapshot): SnapshotInput {
  const products = s.products!;
  return {
    ...s,
    products: (async function* () {
      yield* products;
    })(),
  };
}

/** The database seen through a transaction that records the rows each query returns. */
function counting(db: Database, rowsPerQuery: Array<{ text: string; rows: number }>): Database {
  const wrap = (tx: Queryable): Queryable => ({
    query: async (text, params) => {
      const result = await tx.query(text, params);
      rowsPerQuery.push({ text, rows: result.rows.length });
      return result;
    },
  }) as Queryable;
  return Object.assign(Object.create(db) as Database, { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(wrap(tx))) });
}

describe('ingest engine in chunks', () => {
  let whole: Database;
  let chunked: Database;
  let stream: Database;
  let nested: Database;

  beforeAll(async () => {
    [whole, chunked, stream, nested] = await Promise.all([openTestDatabase(), openTestDatabase(), openTestDatabase(), openTestDatabase()]);
  });
  afterAll(() => Promise.all([whole, chunked, stream, nested].map((db) => db.close())));

  it('gives the changes and catalogue of one chunk when a register spans many, for arrays and for streams', async () => {
    const progress: IngestProgress[] = [];
    const small: IngestOptions = { chunkSize: SMALL_CHUNK, onProgress: (p) => progress.push(p) };
    for (const make of [first, second]) {
      const one = await ingestSnapshot(whole, make(), { chunkSize: 1000 });
      const many = await ingestSnapshot(chunked, make(), small);
      const streamedReport = await ingestSnapshot(stream, streamed(make()), { chunkSize: SMALL_CHUNK });
      const nestedReport = await ingestSnapshot(nested, nestedStream(make()), { chunkSize: SMALL_CHUNK });
      expect(many.tables).toEqual(one.tables);
      expect(streamedReport.tables).toEqual(one.tables);
      expect(nestedReport.tables).toEqual(one.tables);
      expect(many.changes).toBe(one.changes);
    }
    const expected = await feed(whole);
    // 2 substances + 30 products + 60 packs, then the second snapshot's updates, inserts and deletes.
    expect(expected.length).toBeGreaterThan(92);
    expect(await feed(chunked)).toEqual(expected);
    expect(await feed(stream)).toEqual(expected);
    expect(await feed(nested)).toEqual(expected);
    expect(await state(chunked)).toEqual(await state(whole));
    expect(await state(stream)).toEqual(await state(whole));
    expect(await state(nested)).toEqual(await state(whole));
    // Feed order: every product change before every pack change, deletes by key after each kind's upserts.
    const later = expected.slice(92);
    const kinds = later.map((c) => c.table_name);
    expect(kinds.lastIndexOf('products')).toBeLessThan(kinds.indexOf('packs'));
    expect(later.filter((c) => c.table_name === 'products' && c.change_type === 'delete').map((c) => c.key)).toEqual(['P003', 'P009', 'P015', 'P021', 'P027']);
    expect(later.find((c) => c.key === 'P002-2')).toMatchObject({ change_type: 'update', drug: 'P028' });
    expect(progress.filter((p) => p.rows !== undefined).length).toBeGreaterThan(10);
  });

  it('never reads more than one chunk of stored rows in a query', async () => {
    const rowsPerQuery: Array<{ text: string; rows: number }> = [];
    const third = second();
    third.products!.forEach((p) => { p.product_name = `${p.product_name} (renamed)`; });
    const report = await ingestSnapshot(counting(chunked, rowsPerQuery), third, { chunkSize: SMALL_CHUNK });
    expect(report.tables.products.update).toBe(third.products!.length);
    expect(third.products!.length).toBeGreaterThan(6 * SMALL_CHUNK);
    // A chunk of 4 products holds at most 8 packs (one product here has three).
    const largest = rowsPerQuery.reduce((a, b) => (b.rows > a.rows ? b : a));
    expect(largest.rows).toBeLessThanOrEqual(3 * SMALL_CHUNK);
  });

  it('takes a product\'s reimbursement rate from packs listed apart, as from nested ones', async () => {
    const rated = (s: Snapshot): Snapshot => {
      s.source = { ...SOURCE, id: 'test-chunks-rates' };
      s.products!.forEach((p, i) => p.packs.forEach((pack, n) => { pack.reimbursement_rate_percent = i % 3 === 0 ? 15 + 50 * n : 30; }));
      return s;
    };
    await ingestSnapshot(nested, streamed(rated(first())), { chunkSize: SMALL_CHUNK });
    await ingestSnapshot(whole, rated(first()), { chunkSize: SMALL_CHUNK });
    const rates = (db: Database) => db.query(`SELECT natural_key, reimbursement_rate_percent::float AS rate FROM products
      WHERE source = 'test-chunks-rates' ORDER BY natural_key`).then((r) => r.rows);
    const expected = await rates(whole);
    expect(expected).toHaveLength(30);
    expect(expected[0]).toEqual({ natural_key: 'P000', rate: 65 });
    expect(expected[1]).toEqual({ natural_key: 'P001', rate: 30 });
    expect(await rates(nested)).toEqual(expected);
  });

  it('writes nothing when a late chunk fails', async () => {
    const counts = await tableCounts(chunked);
    const digest = await catalogueDigest(chunked);
    const broken = second();
    // The last chunk's pack violates a CHECK constraint after earlier chunks were written.
    (broken.products!.at(-1)!.packs[0] as { marketing_status: string }).marketing_status = 'suspended';
    broken.products![0]!.product_name = 'Changed in the first chunk';
    await expect(ingestSnapshot(chunked, broken, { chunkSize: SMALL_CHUNK })).rejects.toThrow(/marketing_status|check/i);
    // A key stated again in a later chunk refuses the snapshot.
    const repeated = second();
    repeated.products!.push({ ...repeated.products![1]!, packs: [] });
    await expect(ingestSnapshot(chunked, repeated, { chunkSize: SMALL_CHUNK })).rejects.toThrow(/1 duplicate product key\(s\): P001/);
    // A stream that fails midway (an unreadable file) rolls back what the chunks before it wrote.
    const failing = streamed(second());
    failing.products = (async function* () {
      for (const p of second().products!.slice(0, 3 * SMALL_CHUNK)) yield { ...p, product_name: 'Half written', packs: [] };
      throw new Error('disk read failed');
    })();
    await expect(ingestSnapshot(chunked, failing, { chunkSize: SMALL_CHUNK })).rejects.toThrow(/disk read failed/);
    // A pack naming a product the snapshot does not list refuses it.
    const orphan = streamed(second());
    orphan.packs = [{ product_key: 'P999', pack: product(999).packs[0]! }];
    await expect(ingestSnapshot(chunked, orphan, { chunkSize: SMALL_CHUNK })).rejects.toThrow(/belongs to product P999, which the snapshot does not list/);
    // An unchanged pack whose product the snapshot no longer lists refuses it too (its product would be deleted under it).
    const dropped = streamed(second());
    dropped.products = (async function* () {
      for (const p of second().products!.filter((p) => p.key !== 'P004')) yield { ...p, packs: [] };
    })();
    await expect(ingestSnapshot(chunked, dropped, { chunkSize: SMALL_CHUNK })).rejects.toThrow(/pack P004-[12] belongs to product P004, which the snapshot does not list/);
    expect(await tableCounts(chunked)).toEqual(counts);
    expect(await catalogueDigest(chunked)).toBe(digest);
  });
});
