/**
 * Round trips of the Artikelstamm and SL group price adapters: fixture → adapter → ingest
 * engine → the pack lookup a pharmacist would check.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const input = (dir: string, name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/${dir}/${name}`, import.meta.url)) });

describe('ch-artikelstamm and ch-sl-groups round trips → API', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    await ingestSnapshot(t.db, (await findAdapter('ch-artikelstamm')!.parse([input('ch-artikelstamm', 'artikelstamm.xml')])).snapshot);
    const groups = ['bag_sl_group_prices.csv', 'weleda_arzneimittel.csv', 'wala_arzneimittel.csv'].map((n) => input('ch-sl-groups', n));
    await ingestSnapshot(t.db, (await findAdapter('ch-sl-groups')!.parse(groups)).snapshot);
  });
  afterAll(() => t.close());

  it('Artikelstamm: a GTIN resolves to its PRODNO product with CHF prices, limitation code and co-insurance', async () => {
    const res = await get('/v1/drugs/lookup?system=gtin&code=7680284860144');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      product_name: 'Ancopir Inj Lös', atc_code: 'A11DB',
      matched_pack: {
        description: 'Ancopir, Injektionslösung', units: 5,
        prices: expect.arrayContaining([expect.objectContaining({ kind: 'public', amount: 8.55, currency: 'CHF' })]),
        sl: { listed: true, coinsurance_percent: 40, flag: 'O', limitations: [{ code: '070240', value: 40 }] },
      },
    });
    const { rows } = await t.db.query<{ category: string }>(
      "SELECT record ->> 'dispensing_category' AS category FROM packs WHERE source = 'ch-artikelstamm' AND natural_key = '7680284860144'");
    expect(rows[0]?.category).toBe('B');
  });

  it('Artikelstamm: a non-pharma article is found by its pharmacode', async () => {
    const res = await get('/v1/drugs/lookup?system=pharmacode&code=2345671');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ product_name: 'Verbandwatte 100 g', matched_pack: { description: 'Verbandwatte 100 g' } });
  });

  it('SL groups: a GTIN resolves to a pack with its pharma group code, group price and group-priced pack price', async () => {
    const res = await get('/v1/drugs/lookup?system=gtin&code=7611916151071');
    expect(res.statusCode).toBe(200);
    expect(res.json().matched_pack).toMatchObject({
      prices: [expect.objectContaining({ kind: 'group', amount: 20, currency: 'CHF' })],
      sl: { listed: true, group_code: '2070631', group_price: 2.5 },
    });
  });
});
