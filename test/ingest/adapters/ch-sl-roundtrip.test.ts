/**
 * Round trip of the SL adapter: fixture → adapter → ingest engine → the HTTP answers a
 * pharmacist checks (pack lookup by GTIN and pharmacode, the Swiss claim pre-check).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/ch-sl/${name}`, import.meta.url));

describe('ch-sl round trip: Preparations.xml → drugref ingest → API', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const result = await findAdapter('ch-sl')!.parse([{ name: 'Preparations.xml', content: fixture('Preparations.xml') }]);
    await ingestSnapshot(t.db, result.snapshot);
    const old = await findAdapter('ch-sl')!.parse([{ name: 'Preparations.xml', content: fixture('Preparations-2013.xml') }]);
    // The older list as another source, so both schemas are in the catalogue side by side.
    await ingestSnapshot(t.db, { ...old.snapshot, source: { ...old.snapshot.source, id: 'ch-sl-2013' } });
  });
  afterAll(() => t.close());

  it('looks a pack up by GTIN with its limitation codes, types, points, flag and co-insurance', async () => {
    const res = await get('/v1/drugs/lookup?system=gtin&code=7680653170010');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ product_name: 'Exemplol Filmtabl 500 mg', atc_code: 'N02BE01', generic: false });
    expect(body.matched_pack.sl).toMatchObject({
      listed: true, flag: 'O', coinsurance_percent: 40, public_price: 3.9,
      limitation: { points: 30 },
      limitations: [
        { code: 'EXEMPLOL', type: 'DIA', niveau: 'IP', level: 'preparation' },
        { code: 'EXEMPLOL16', type: 'KOM', level: 'pack' },
      ],
    });
    const { rows } = await t.db.query<{ category: string }>(
      "SELECT record ->> 'dispensing_category' AS category FROM packs WHERE source = 'ch-sl' AND natural_key = '7680653170010'");
    expect(rows[0]?.category).toBe('D');
    expect(body.matched_pack.dispensing_category).toBe('D');
  });

  it('looks a pack without GTIN up by pharmacode, with the IT-code PKT limitation value', async () => {
    const res = await get('/v1/drugs/lookup?system=pharmacode&code=3817150');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ product_name: 'Lactonova Plv', matched_pack: { description: '450 g' } });
    expect(res.json().matched_pack.sl.limitations).toEqual([
      { code: '070240', type: 'PKT', value: 40, niveau: 'IP', level: 'preparation', text: 'Gesamthaft zugelassen: 40 Punkte', valid_from: '2000-01-01' },
    ]);
  });

  it('reads the older schema through the API: pharmacode lookup, B category, 20 % in 2013', async () => {
    const res = await get('/v1/drugs/lookup?system=pharmacode&code=177804');
    expect(res.statusCode).toBe(200);
    expect(res.json().matched_pack.identifiers).toContainEqual(expect.objectContaining({ system: 'gtin', code: '7680284860144' }));
    expect(res.json().matched_pack.sl).toMatchObject({ coinsurance_percent: 20, limitation: { points: 20 }, limitations: [{ code: '070240', type: 'PKT', value: 40 }] });
  });

  it('pre-checks a Swiss claim from the ingested SL entry', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/ch/claims/validate', headers: bearer(key), payload: { pack: '7680653170010', quantity: 2 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      listed: true, status: 'reimbursable_with_limitation', public_price_chf: 3.9, total_public_price_chf: 7.8,
      limitation: { limited: true, points: 30 },
      coinsurance: { percent: 40, basis: 'sl_entry' },
      pack: { sl_flag: 'O', units: 16 },
    });
    expect(res.json().limitation.text).toContain('Höchstens 2 Packungen pro Quartal.');
  });
});
