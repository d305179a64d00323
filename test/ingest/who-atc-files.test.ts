import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

const input = (name: string): InputFile => ({
  name,
  content: readFileSync(new URL(`../fixtures/registers/who-atc/${name}`, import.meta.url)),
});

/** `drugref ingest who-atc <files...>` without the process: the registered adapter, then the engine. */
async function ingest(db: Database, ...names: string[]) {
  const { snapshot } = await findAdapter('who-atc')!.parse(names.map(input));
  return ingestSnapshot(db, snapshot);
}

async function atcState(db: Database): Promise<unknown> {
  const nodes = await db.query('SELECT code, name, level, parent_code, source FROM atc_nodes ORDER BY code');
  const ddd = await db.query('SELECT code, value::float8 AS value, unit, route, note, source FROM atc_ddd ORDER BY code, route, unit');
  return { nodes: nodes.rows, ddd: ddd.rows };
}

describe('WHO code list and DDD table: one ingest or two, in either order', () => {
  const dbs: Database[] = [];
  const open = async () => {
    const db = await openTestDatabase();
    dbs.push(db);
    return db;
  };
  afterAll(async () => { await Promise.all(dbs.map((db) => db.close())); });

  it('reaches the same state loaded together, codes then DDDs, or DDDs then codes', async () => {
    const together = await open();
    await ingest(together, 'codes.csv', 'ddd.csv');
    const codesFirst = await open();
    const first = await ingest(codesFirst, 'codes.csv');
    expect(first.tables.atc_nodes).toMatchObject({ insert: 11, update: 0, delete: 0 });
    const second = await ingest(codesFirst, 'ddd.csv');
    // Only the three codes with DDDs change; every other node stays as the code list left it.
    expect(second.tables.atc_nodes).toMatchObject({ insert: 0, update: 3, delete: 0, unchanged: 8 });
    const dddFirst = await open();
    expect((await ingest(dddFirst, 'ddd.csv')).tables.atc_nodes).toMatchObject({ insert: 3 });
    expect((await ingest(dddFirst, 'codes.csv')).tables.atc_nodes).toMatchObject({ insert: 8, update: 3, delete: 0 });
    const state = await atcState(together);
    expect(await atcState(codesFirst)).toEqual(state);
    expect(await atcState(dddFirst)).toEqual(state);
    expect(state).toMatchObject({
      nodes: expect.arrayContaining([{ code: 'N', name: 'NERVOUS SYSTEM', level: 1, parent_code: null, source: 'who-atc' }]),
      ddd: expect.arrayContaining([{ code: 'N02BE01', value: 3, unit: 'g', route: 'P', note: null, source: 'who-atc' }]),
    });
  });

  it('never lets a later ingest of one file remove the other file\'s facts', async () => {
    const db = await open();
    await ingest(db, 'codes.csv', 'ddd.csv');
    const state = await atcState(db);
    expect((await ingest(db, 'ddd.csv')).changes).toBe(0);
    expect((await ingest(db, 'codes.csv')).changes).toBe(0);
    expect(await atcState(db)).toEqual(state);
    // A new code list without N02BE71 drops that node only; the DDDs stay.
    const shorter = { name: 'codes.csv', content: Buffer.from(input('codes.csv').content.toString().replace(/^N02BE71.*\n/m, '')) };
    const { snapshot } = await findAdapter('who-atc')!.parse([shorter]);
    expect((await ingestSnapshot(db, snapshot)).tables.atc_nodes).toMatchObject({ delete: 1, update: 0 });
    expect((await db.query(`SELECT 1 FROM atc_ddd WHERE code = 'N02BE01'`)).rowCount).toBe(3);
  });

  it('records one change per code, with the node and its DDDs in one image', async () => {
    const db = await open();
    await ingest(db, 'ddd.csv');
    await ingest(db, 'codes.csv');
    const { rows } = await db.query<{ change_type: string; before: unknown; after: unknown }>(
      `SELECT change_type, before, after FROM changes WHERE table_name = 'atc_nodes' AND natural_key = '{"code":"N02BE01"}' ORDER BY occurred_at`);
    expect(rows.map((r) => r.change_type)).toEqual(['insert', 'update']);
    expect(rows[0]!.after).toEqual({ code: 'N02BE01', level: 5, ddd: [{ route: 'O', unit: 'g', value: 3 }, { route: 'P', unit: 'g', value: 3 }, { route: 'R', unit: 'g', value: 3 }] });
    expect(rows[1]!.after).toMatchObject({ code: 'N02BE01', name: 'paracetamol' });
  });
});

describe('GET /v1/atc/N02BE01 after the code list and the DDD table', () => {
  for (const order of [['codes.csv', 'ddd.csv'], ['ddd.csv', 'codes.csv']]) {
    describe(`ingested ${order.join(' then ')}`, () => {
      let t: TestApp;
      let key: string;
      beforeAll(async () => {
        t = await startTestApp();
        for (const file of order) await ingest(t.db, file);
        key = await t.key({ tier: 'developer' });
      });
      afterAll(() => t.close());

      it('answers the DDDs and the full parent chain up to N, NERVOUS SYSTEM', async () => {
        const res = await t.app.inject({ url: '/v1/atc/N02BE01', headers: bearer(key) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          code: 'N02BE01',
          name: 'paracetamol',
          level: 5,
          ancestors: [
            { code: 'N', name: 'NERVOUS SYSTEM', level: 1 },
            { code: 'N02', name: 'ANALGESICS', level: 2 },
            { code: 'N02B', name: 'OTHER ANALGESICS AND ANTIPYRETICS', level: 3 },
            { code: 'N02BE', name: 'Anilides', level: 4 },
          ],
          ddd: [
            { value: 3, unit: 'g', route: 'O', note: null },
            { value: 3, unit: 'g', route: 'P', note: null },
            { value: 3, unit: 'g', route: 'R', note: null },
          ],
        });
      });
    });
  }
});
