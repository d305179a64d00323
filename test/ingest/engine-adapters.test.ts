import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { AdapterResult } from '../../workers/ingest/snapshot.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { openTestDatabase } from '../helpers/db.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/ingest/', import.meta.url));

async function parse(adapter: string, ...files: string[]): Promise<AdapterResult> {
  const inputs = await Promise.all(files.map(async (f) => ({ name: basename(f), content: await readFile(join(FIXTURES, adapter, f)) })));
  return findAdapter(adapter)!.parse(inputs);
}

async function one<R extends Record<string, unknown>>(db: Database, sql: string, params: unknown[] = []): Promise<R> {
  const { rows } = await db.query<R>(sql, params);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('ingest engine with each register adapter', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('who-atc: loads the tree with parents and DDDs, skipping the malformed row', async () => {
    const { snapshot, problems } = await parse('who-atc', 'atc.csv');
    expect(problems).toEqual([expect.objectContaining({ file: 'atc.csv', line: 10 })]);
    const report = await ingestSnapshot(db, snapshot);
    expect(report.tables.atc_nodes).toMatchObject({ insert: 6, update: 0, delete: 0 });
    expect(await one(db, `SELECT parent_code, level, source FROM atc_nodes WHERE code = 'N02BE01'`)).toEqual({ parent_code: 'N02BE', level: 5, source: 'who-atc' });
    expect(await one(db, `SELECT count(*)::int AS n FROM atc_ddd WHERE code = 'N02BE01'`)).toEqual({ n: 3 });
    expect(await one(db, `SELECT count(*)::int AS n FROM changes WHERE source = 'who-atc' AND change_type = 'insert'`)).toEqual({ n: 6 });
  });

  it('fda-ndc: loads products, packages with NDC identifiers, provisional substances and their classes', async () => {
    const { snapshot, problems } = await parse('fda-ndc', 'product.txt', 'package.txt');
    expect(problems.map((p) => `${p.file}:${p.line}`)).toEqual(['product.txt:4', 'package.txt:5']);
    const report = await ingestSnapshot(db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 2 }, packs: { insert: 3 }, substances: { insert: 2 }, classes: { insert: 2 } });
    const advil = await one<{ id: string; country: string; substance_signature: string; medicine_signature: string }>(db,
      `SELECT id, country, substance_signature, medicine_signature FROM products WHERE source = 'fda-ndc' AND product_name = 'Advil'`);
    // Provisional keys sign with their normalised INN name, shared by every register (write-links.ts).
    expect(advil).toMatchObject({ country: 'US', substance_signature: 'inn:ibuprofen', medicine_signature: 'inn:ibuprofen:200mg|tablet|oral' });
    expect(await one(db, `SELECT drug_id FROM identifiers WHERE system = 'ndc11' AND code = '00573016430'`)).toEqual({ drug_id: advil.id });
    expect(await one(db, `SELECT count(*)::int AS n FROM substance_classes WHERE unii = 'name:IBUPROFEN'`)).toEqual({ n: 2 });
    expect(await one(db, `SELECT count(*)::int AS n FROM product_classes WHERE product_id = $1`, [advil.id])).toEqual({ n: 2 });
  });

  it('fr-bdpm: loads Windows-1252 products with CIP13 packs, prices and the reimbursement rate', async () => {
    const { snapshot, problems } = await parse('fr-bdpm', 'CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt');
    expect(problems.map((p) => `${p.file}:${p.line}`)).toEqual(['CIS_bdpm.txt:3']);
    const report = await ingestSnapshot(db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 2 }, packs: { insert: 2 } });
    const doliprane = await one<{ id: string; product_name: string; rate: string }>(db,
      `SELECT id, product_name, reimbursement_rate_percent::text AS rate FROM products WHERE source = 'fr-bdpm' AND natural_key = '60234100'`);
    expect(doliprane).toMatchObject({ product_name: 'DOLIPRANE 1000 mg, comprimé', rate: '65' });
    const pack = await one<{ drug_id: string; pack_id: string }>(db, `SELECT drug_id, pack_id FROM identifiers WHERE system = 'cip13' AND code = '3400933989453'`);
    expect(pack.drug_id).toBe(doliprane.id);
    expect(await one(db, `SELECT count(*)::int AS n FROM pack_prices WHERE pack_id = $1`, [pack.pack_id])).toMatchObject({ n: expect.any(Number) });
    expect((await db.query(`SELECT 1 FROM pack_prices WHERE pack_id = $1 AND currency = 'EUR' AND amount = 1.16`, [pack.pack_id])).rowCount).toBe(1);
  });

  it('ch-sl: loads SL packs with prices and SL data; an unchanged file writes nothing; a new price is one pack update', async () => {
    const first = await parse('ch-sl', 'Preparations.xml');
    expect(first.problems.map((p) => p.line)).toEqual([81]);
    const report = await ingestSnapshot(db, first.snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 2 }, packs: { insert: 3 } });
    const sl = await one<{ sl: { listed: boolean } }>(db, `SELECT sl FROM packs WHERE source = 'ch-sl' AND natural_key = '7680653170010'`);
    expect(sl.sl.listed).toBe(true);
    expect((await ingestSnapshot(db, first.snapshot)).changes).toBe(0);
    const changed = await parse('ch-sl', 'price-changed/Preparations.xml');
    const before = await one<{ n: number }>(db, 'SELECT count(*)::int AS n FROM changes');
    expect((await ingestSnapshot(db, changed.snapshot)).changes).toBe(1);
    const { rows } = await db.query<{ table_name: string; change_type: string; before: { prices: Array<{ kind: string; amount: number }> }; after: { prices: Array<{ kind: string; amount: number }> } }>(
      'SELECT table_name, change_type, before, after FROM changes ORDER BY occurred_at DESC, id DESC LIMIT 1');
    expect(before.n + 1).toBe((await one<{ n: number }>(db, 'SELECT count(*)::int AS n FROM changes')).n);
    expect(rows[0]).toMatchObject({ table_name: 'packs', change_type: 'update' });
    expect(rows[0]!.before.prices.find((p) => p.kind === 'public')!.amount).toBe(6.1);
    expect(rows[0]!.after.prices.find((p) => p.kind === 'public')!.amount).toBe(6.45);
  });

  it('snapshot: loads a JSON snapshot and publishes its recall as a recall change', async () => {
    const { snapshot, problems } = await parse('snapshot', 'snapshot.json');
    expect(problems).toHaveLength(1);
    const report = await ingestSnapshot(db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 1 }, packs: { insert: 1 }, recalls: { recall: 1 }, substances: { insert: 1 } });
    const product = await one<{ id: string; medicine_signature: string }>(db, `SELECT id, medicine_signature FROM products WHERE source = 'example-de'`);
    expect(product.medicine_signature).toBe('362O9ITL9D:500mg|tablet|oral');
    expect(await one(db, `SELECT change_type, drug_id FROM changes WHERE table_name = 'recalls'`)).toEqual({ change_type: 'recall', drug_id: product.id });
  });
});
