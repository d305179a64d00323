/**
 * Round trip of the FEST fixture: adapter → ingest engine (what `drugref ingest no-fest` runs)
 * → the HTTP answers, asserted against the fixture entries.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const ELIQUIS = 'ID_00000000-0000-0000-0000-00000000012E';

describe('no-fest round trip: fest251.xml → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const content = readFileSync(new URL('../../fixtures/registers/no-fest/fest251.xml', import.meta.url));
    const { snapshot } = await findAdapter('no-fest')!.parse([{ name: 'fest251.xml', content }]);
    await ingestSnapshot(t.db, snapshot);
  });
  afterAll(() => t.close());

  it('looks a pack up by varenummer with its NOK prices, GTIN and FEST as source', async () => {
    const res = await get('/v1/drugs/lookup?system=no_varenummer&code=413561');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'Eliquis tab 5 mg', country: 'NO', atc_code: 'B01AF02', holder: 'Bristol-Myers Squibb/Pfizer',
      matched_pack: { description: '168 stk (Blisterpakning)', units: 168 },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'ex_factory', amount: 1620, currency: 'NOK' }),
      expect.objectContaining({ kind: 'public', amount: 2041.7, currency: 'NOK' }),
    ]));
    expect(body.matched_pack.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'gtin', code: '7046264135617' })]));
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('no-fest');
  });

  it('looks the product up by its FEST merkevare id, in any case, and answers /v1/drugs/{id}', async () => {
    const res = await get(`/v1/drugs/lookup?system=no_merkevare_id&code=${ELIQUIS.toLowerCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    const record = await get(`/v1/drugs/${res.json().id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json().ingredients).toEqual([expect.objectContaining({ strength_value: 5, strength_unit: 'mg', strength_text: '5 mg' })]);
  });

  it('finds products by name and by the FEST id typed into q', async () => {
    const byName = await get('/v1/drugs?q=glucophage&country=NO');
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json().results).toEqual([expect.objectContaining({ product_name: 'Glucophage tab 500 mg', country: 'NO' })]);
    const byId = await get(`/v1/drugs?q=${ELIQUIS}`);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().results[0]).toMatchObject({ product_name: 'Eliquis tab 5 mg' });
  });
});
