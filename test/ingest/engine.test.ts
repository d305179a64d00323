import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { ingestSnapshot, ingestSnapshots } from '../../workers/ingest/engine.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { atcSnapshot, catalogueDigest, chSnapshot, IBUPROFEN, PARACETAMOL, tableCounts } from './snapshots.ts';

interface ChangeRecord {
  id: string;
  table_name: string;
  natural_key: Record<string, string>;
  drug_id: string | null;
  change_type: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  source: string;
  occurred_at: Date;
}

async function changesSince(db: Database, after: number): Promise<ChangeRecord[]> {
  const { rows } = await db.query<ChangeRecord & { n: number }>(
    'SELECT * FROM (SELECT c.*, row_number() OVER (ORDER BY occurred_at, id)::int AS n FROM changes c) x WHERE n > $1 ORDER BY n', [after]);
  return rows;
}

async function changeCount(db: Database): Promise<number> {
  return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes')).rows[0]!.n;
}

describe('ingest engine', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('inserts a snapshot with one change record per record, in strictly increasing order', async () => {
    const report = await ingestSnapshots(db, [atcSnapshot(), chSnapshot()]);
    expect(report.sources).toEqual(['test-atc', 'test-ch']);
    expect(report.tables.atc_nodes.insert).toBe(3);
    expect(report.tables.products.insert).toBe(2);
    expect(report.tables.packs.insert).toBe(2);
    expect(report.tables.substances.insert).toBe(2);
    expect(report.tables.classes.insert).toBe(1);
    expect(report.changes).toBe(3 + 1 + 2 + 2 + 2);
    const changes = await changesSince(db, 0);
    expect(changes).toHaveLength(report.changes);
    expect(changes.every((c) => c.change_type === 'insert' && c.before === null && c.after !== null)).toBe(true);
    const times = changes.map((c) => c.occurred_at.getTime() * 1000);
    expect(new Set(changes.map((c) => c.occurred_at.toISOString() + c.id)).size).toBe(changes.length);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const product = changes.find((c) => c.table_name === 'products' && c.natural_key.key === '65317')!;
    expect(product.natural_key).toEqual({ source: 'test-ch', key: '65317' });
    const stored = await db.query<{ id: string; substance_signature: string; medicine_signature: string }>(
      `SELECT id, substance_signature, medicine_signature FROM products WHERE natural_key = '65317'`);
    expect(product.drug_id).toBe(stored.rows[0]!.id);
    expect(stored.rows[0]).toMatchObject({ substance_signature: PARACETAMOL, medicine_signature: `${PARACETAMOL}:500mg|tablet|oral` });
    const atc = changes.find((c) => c.table_name === 'atc_nodes' && c.natural_key.code === 'N02BE01')!;
    expect(atc.after).toEqual({ code: 'N02BE01', name: 'paracetamol', level: 5, ddd: [{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'R' }] });
    const source = await db.query<{ last_synced_at: Date | null }>(`SELECT last_synced_at FROM sources WHERE id = 'test-ch'`);
    expect(source.rows[0]!.last_synced_at).toBeInstanceOf(Date);
    expect((await db.query(`SELECT 1 FROM atc_nodes WHERE code = 'N02' AND parent_code = 'N'`)).rowCount).toBe(1);
    expect((await db.query(`SELECT 1 FROM identifiers WHERE system = 'gtin' AND code = '7680653170010' AND pack_id IS NOT NULL`)).rowCount).toBe(1);
  });

  it('writes no change record when the same snapshots are ingested again', async () => {
    const before = await changeCount(db);
    const report = await ingestSnapshots(db, [atcSnapshot(), chSnapshot()]);
    expect(report.changes).toBe(0);
    expect(report.tables.products.unchanged).toBe(2);
    expect(await changeCount(db)).toBe(before);
  });

  it('turns a changed price into exactly one pack update carrying before and after', async () => {
    const before = await changeCount(db);
    const snapshot = chSnapshot();
    snapshot.products![0]!.packs[0]!.prices![0]!.amount = 4.2;
    const report = await ingestSnapshot(db, snapshot);
    expect(report.changes).toBe(1);
    const [change] = await changesSince(db, before);
    expect(change).toMatchObject({ table_name: 'packs', change_type: 'update', natural_key: { source: 'test-ch', key: '7680653170010' }, source: 'test-ch' });
    expect((change!.before!.prices as Array<{ amount: number }>)[0]!.amount).toBe(3.9);
    expect((change!.after!.prices as Array<{ amount: number }>)[0]!.amount).toBe(4.2);
    const price = await db.query<{ amount: string }>(`SELECT amount FROM pack_prices WHERE kind = 'public' AND pack_id = (SELECT id FROM packs WHERE natural_key = '7680653170010')`);
    expect(Number(price.rows[0]!.amount)).toBe(4.2);
  });

  it('keeps a withdrawn product as an update and deletes a product missing from the snapshot', async () => {
    const before = await changeCount(db);
    const snapshot = chSnapshot();
    snapshot.products![0]!.packs[0]!.prices![0]!.amount = 4.2;
    snapshot.products![0]!.marketing_status = 'withdrawn';
    const removed = snapshot.products!.pop()!;
    const ids = await db.query<{ id: string }>(`SELECT id FROM products WHERE natural_key = $1`, [removed.key]);
    await ingestSnapshot(db, snapshot);
    const changes = await changesSince(db, before);
    expect(changes.map((c) => `${c.table_name}:${c.change_type}:${c.natural_key.key}`)).toEqual([
      'products:update:65317', 'products:delete:39271', 'packs:delete:7680392710010',
    ]);
    const deleted = changes[1]!;
    expect(deleted).toMatchObject({ before: { key: '39271', product_name: 'Ibuprex' }, after: null, drug_id: ids.rows[0]!.id });
    expect(changes[2]!.drug_id).toBe(ids.rows[0]!.id);
    expect((await db.query(`SELECT 1 FROM products WHERE natural_key = '65317' AND marketing_status = 'withdrawn'`)).rowCount).toBe(1);
    expect((await db.query(`SELECT 1 FROM identifiers WHERE drug_id = $1`, [ids.rows[0]!.id])).rowCount).toBe(0);
  });

  it('records a newly published recall as a recall change tied to the product', async () => {
    const before = await changeCount(db);
    const snapshot = chSnapshot();
    snapshot.products![0]!.packs[0]!.prices![0]!.amount = 4.2;
    snapshot.products![0]!.marketing_status = 'withdrawn';
    snapshot.products!.pop();
    snapshot.recalls = [{ key: 'R-2026-01', product_key: '65317', country: 'CH', published_on: '2026-11-01', reason: 'Dosing error', level: 'B' }];
    await ingestSnapshot(db, snapshot);
    const changes = await changesSince(db, before);
    const id = (await db.query<{ id: string }>(`SELECT id FROM products WHERE natural_key = '65317'`)).rows[0]!.id;
    expect(changes).toHaveLength(1);
    // `before` is the recalled product as stored (docs/api-decisions.md), `after` the notice.
    expect(changes[0]).toMatchObject({
      table_name: 'recalls', change_type: 'recall', drug_id: id,
      before: { key: '65317', product_name: 'Exemplol', marketing_status: 'withdrawn' }, after: { key: 'R-2026-01', reason: 'Dosing error' },
    });
    expect((await db.query(`SELECT 1 FROM recalls WHERE natural_key = 'R-2026-01' AND product_id = $1`, [id])).rowCount).toBe(1);
  });

  it('leaves catalogue and change feed untouched when a snapshot fails midway', async () => {
    const counts = await tableCounts(db);
    const digest = await catalogueDigest(db);
    const snapshot = chSnapshot();
    snapshot.substances!.push({ unii: 'R16CO5Y76E', name: 'Aspirin' });
    // Substances and products are written before the pack whose status violates a CHECK constraint.
    (snapshot.products![1]!.packs[0] as { marketing_status: string }).marketing_status = 'suspended';
    await expect(ingestSnapshot(db, snapshot)).rejects.toThrow(/marketing_status|check/i);
    expect(await tableCounts(db)).toEqual(counts);
    expect(await catalogueDigest(db)).toBe(digest);
  });

  it('leaves shared keys with the source that holds them', async () => {
    const other = chSnapshot();
    other.source = { id: 'test-ch-2', name: 'Second', country: 'CH', refresh_interval_hours: 24 };
    other.substances![0]!.name = 'Acetaminophen';
    other.products = [];
    const report = await ingestSnapshot(db, other);
    expect(report.tables.substances).toMatchObject({ insert: 0, shared: 2 });
    expect((await db.query<{ name: string }>(`SELECT name FROM substances WHERE unii = $1`, [PARACETAMOL])).rows[0]!.name).toBe('Paracetamol');
    expect((await db.query(`SELECT 1 FROM substances WHERE unii = $1 AND source = 'test-ch'`, [IBUPROFEN])).rowCount).toBe(1);
  });
});
