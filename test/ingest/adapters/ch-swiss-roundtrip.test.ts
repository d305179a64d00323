/**
 * Round trips of the Swiss register adapters: fixture → registry adapter → ingest engine →
 * the HTTP lookup a pharmacist would use, answering the fixture's values.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';
import { buildPackungen } from '../../fixtures/registers/ch-swissmedic/packungen.ts';

const fixture = (path: string): Buffer => readFileSync(new URL(`../../fixtures/registers/${path}`, import.meta.url));

async function loaded(adapter: string, name: string, content: Buffer): Promise<{ t: TestApp; key: string }> {
  const { snapshot } = await findAdapter(adapter)!.parse([{ name: `/downloads/${name}`, content }]);
  const t = await startTestApp();
  await ingestSnapshot(t.db, snapshot);
  return { t, key: await t.key({ tier: 'enterprise' }) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe.each([
  ['ch-zurrose', 'transfer.dat', () => fixture('ch-zurrose/transfer.dat')],
  ['ch-refdata', 'Refdata.Articles.xml', () => fixture('ch-refdata/Refdata.Articles.xml')],
  ['ch-swissmedic', 'Packungen.xlsx', () => buildPackungen()],
] as const)('%s round trip', (adapter, name, content) => {
  let t: TestApp;
  let key: string;
  const lookup = async (system: string, code: string): Promise<Json> => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=${system}&code=${code}`, headers: bearer(key) });
    expect(res.statusCode, `${system} ${code}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    ({ t, key } = await loaded(adapter, name, await content()));
  });
  afterAll(() => t.close());

  it('answers the fixture values by GTIN and by the register\'s own codes', async () => {
    if (adapter === 'ch-zurrose') {
      const dolonarc = await lookup('pharmacode', '2345678');
      expect(dolonarc).toMatchObject({ product_name: 'DOLONARC Tabl 10 mg 20 Stk', country: 'CH' });
      expect(dolonarc.matched_pack).toMatchObject({ description: 'DOLONARC Tabl 10 mg 20 Stk', dispensing_category: 'A' });
      expect(dolonarc.matched_pack.prices).toEqual(expect.arrayContaining([
        expect.objectContaining({ kind: 'public', amount: 23.45, currency: 'CHF' }),
        expect.objectContaining({ kind: 'ex_factory', amount: 12.34, currency: 'CHF' }),
      ]));
      const exemplol = await lookup('pharmacode', '7001235');
      expect(exemplol.matched_pack.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'gtin', code: '7680653170010' })]));
      expect((await lookup('pharmacode', '0058502')).product_name).toBe('KÜHLKOMPRESSE Gel für Säuglinge 1 Stk');
      expect((await lookup('gtin', '7680620440016')).veterinary).toBe(true);
    }
    if (adapter === 'ch-refdata') {
      const exemplol = await lookup('gtin', '7680653170027');
      expect(exemplol).toMatchObject({ product_name: 'EXEMPLOL Filmtabl', holder: 'Exempla AG', atc_code: 'N02BE01' });
      expect(exemplol.matched_pack).toMatchObject({ description: 'EXEMPLOL Filmtabl 500 mg 100 Stk', dispensing_category: 'B' });
      expect((await lookup('swissmedic_no', '65317011')).matched_pack).toMatchObject({ marketing_status: 'withdrawn' });
      const watte = await lookup('gtin', '7612345000015');
      expect(watte.identifiers.map((i: Json) => i.system)).not.toContain('swissmedic_no');
    }
    if (adapter === 'ch-swissmedic') {
      const dolonarc = await lookup('gtin', '7680581110034');
      expect(dolonarc).toMatchObject({ product_name: 'Dolonarc 10 mg, Tabletten', dispensing_category: 'A', holder: 'Exempla AG' });
      expect(dolonarc.matched_pack).toMatchObject({ description: '20 Tablette(n)', dispensing_category: 'A', narcotic_list: 'a' });
      const gram = await lookup('swissmedic_no', '65317011');
      expect(gram).toMatchObject({ product_name: 'Exemplol 1 g, Filmtabletten', authorised_on: '2016-01-01' });
      expect(gram.matched_pack).toMatchObject({ dispensing_category: 'B' });
      expect((await lookup('gtin', '7680620440016')).veterinary).toBe(true);
    }
  });
});

describe('the three Swiss sources in one catalogue', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const inputs: Array<[string, string, Buffer]> = [
      ['ch-swissmedic', 'Packungen.xlsx', await buildPackungen()],
      ['ch-refdata', 'Refdata.Articles.xml', fixture('ch-refdata/Refdata.Articles.xml')],
      ['ch-zurrose', 'transfer.dat', fixture('ch-zurrose/transfer.dat')],
    ];
    for (const [adapter, name, content] of inputs) await ingestSnapshot(t.db, (await findAdapter(adapter)!.parse([{ name, content }])).snapshot);
  });
  afterAll(() => t.close());

  it('keeps every source\'s rows side by side, and a re-ingest of one source leaves the others alone', async () => {
    const counts = async () => (await t.db.query<{ source: string; n: number }>(
      `SELECT source, count(*)::int AS n FROM packs WHERE source LIKE 'ch-%' GROUP BY source ORDER BY source`)).rows;
    const before = await counts();
    expect(before).toEqual([{ source: 'ch-refdata', n: 6 }, { source: 'ch-swissmedic', n: 5 }, { source: 'ch-zurrose', n: 5 }]);
    await ingestSnapshot(t.db, (await findAdapter('ch-zurrose')!.parse([{ name: 'transfer.dat', content: fixture('ch-zurrose/transfer.dat') }])).snapshot);
    expect(await counts()).toEqual(before);
    const res = await t.app.inject({ url: '/v1/drugs/lookup?system=gtin&code=7680581110034', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().matched_pack).toMatchObject({ dispensing_category: 'A' });
  });
});
