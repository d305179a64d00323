/**
 * Round trip of the Danish takst fixtures: adapter → ingest engine (what `drugref ingest dk-lms`
 * runs) → the HTTP answers, asserted against the fixture lines.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const FILES = ['lms01.txt', 'lms02.txt', 'lms03.txt', 'lms09.txt', 'lms30.txt'];

describe('dk-lms round trip: takst files → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const files = FILES.map((name) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/dk-lms/${name}`, import.meta.url)) }));
    const { snapshot } = await findAdapter('dk-lms')!.parse(files);
    await ingestSnapshot(t.db, snapshot);
  });
  afterAll(() => t.close());

  it('looks a pack up by varenummer with its DKK prices, holder, Drug ID and the takst as source', async () => {
    const res = await get('/v1/drugs/lookup?system=dk_varenummer&code=413552');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'Eliquis filmovertrukne tabl. 5 mg', country: 'DK', atc_code: 'B01AF02', holder: 'Bristol-Myers Squibb/Pfizer EEIG',
      matched_pack: { description: '168 stk. (blister)', units: 168 },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'ex_factory', amount: 1650, currency: 'DKK' }),
      expect.objectContaining({ kind: 'public', amount: 2056.45, currency: 'DKK' }),
      expect.objectContaining({ kind: 'reimbursed', amount: 1980, currency: 'DKK' }),
    ]));
    expect(body.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'dk_drug_id', code: '28105108212' })]));
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('dk-lms');
  });

  it('finds the drug by name and answers /v1/drugs/{id} with its ingredient strength', async () => {
    const search = await get('/v1/drugs?q=metformin&country=DK');
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().results).toEqual([expect.objectContaining({ product_name: 'Metformin "Actavis" filmovertrukne tabl. 500 mg', country: 'DK' })]);
    const lookup = await get('/v1/drugs/lookup?system=dk_varenummer&code=028182');
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json().matched_pack).toMatchObject({ description: '3 x 100 stk.', units: 300 });
    const record = await get(`/v1/drugs/${lookup.json().id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json().ingredients).toEqual([expect.objectContaining({ strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' })]);
  });

  it('finds a medicine for animals by its varenummer but not by name', async () => {
    const lookup = await get('/v1/drugs/lookup?system=dk_varenummer&code=123123');
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json()).toMatchObject({ product_name: 'Metacam oral suspension 1,5 mg/ml' });
    const search = await get('/v1/drugs?q=metacam&country=DK');
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().results).toEqual([]);
  });

  it('answers an unknown varenummer with 404 and a malformed one with 422', async () => {
    expect((await get('/v1/drugs/lookup?system=dk_varenummer&code=123456')).statusCode).toBe(404);
    expect((await get('/v1/drugs/lookup?system=dk_varenummer&code=12345')).statusCode).toBe(422);
  });
});
