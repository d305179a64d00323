import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { completeGtin } from '../../vocabulary/check-digits.ts';
import { CODES, IDS, seedCatalogue } from './fixtures.ts';

describe('GET /v1/drugs/lookup and /v1/packs/{system}/{code} (one resolver)', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, k = key) => t.app.inject({ url, headers: bearer(k) });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('resolves a pack GTIN to the drug record and the matched pack', async () => {
    const res = await get(`/v1/drugs/lookup?system=gtin&code=${CODES.brufenGtin}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.json()).toMatchObject({
      id: IDS.brufenCh, product_name: 'Brufen 400 mg Filmtabletten', atc_code: 'M01AE01',
      matched_pack: { description: '20 Filmtabletten', units: 20, prices: expect.arrayContaining([{ kind: 'public', amount: 9.85, currency: 'CHF', valid_from: '2026-01-01' }]) },
    });
    expect(res.json().matched_pack.identifiers).toContainEqual({ system: 'gtin', code: CODES.brufenGtin, valid_from: null, valid_to: null, previous: false });
    expect(res.json()._meta.sources[0].id).toBe('ch-sl');
  });

  it('answers the alias path with the same body', async () => {
    const a = await get(`/v1/drugs/lookup?system=pzn&code=${CODES.ibuflamPzn}`);
    const b = await get(`/v1/packs/pzn/${CODES.ibuflamPzn}`);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(a.json().id).toBe(IDS.ibuflamDe);
  });

  it('normalises printed forms before the lookup', async () => {
    const cases: Array<[string, string, string]> = [
      ['ndc11', CODES.advilNdcPrinted, IDS.advilUs],
      ['ndc11', CODES.tylenolNdc11, IDS.tylenolUs],
      ['pharmacode', `0${CODES.brufenPharmacode}`.slice(-7), IDS.brufenCh],
      ['ean', CODES.dafalganGtin, IDS.dafalganCh],
      ['cip13', CODES.advilCip13, IDS.advilFr],
      ['aic', `A${CODES.brufenAic}`, IDS.brufenIt],
      ['pzn', `PZN-${CODES.ibuflamPzn}`, IDS.ibuflamDe],
      ['swissmedic_no', CODES.brufenSwissmedicPack, IDS.brufenCh],
    ];
    for (const [system, code, id] of cases) {
      const res = await get(`/v1/drugs/lookup?system=${system}&code=${encodeURIComponent(code)}`);
      expect(res.statusCode, `${system} ${code}`).toBe(200);
      expect(res.json().id, `${system} ${code}`).toBe(id);
    }
  });

  it('answers 404 when a well-formed code resolves to nothing', async () => {
    const res = await get(`/v1/packs/gtin/${completeGtin('768099999999')}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Drug for this code was not found.' });
    expect((await get('/v1/drugs/lookup?system=se_varunummer&code=123456')).statusCode).toBe(404);
  });

  it('answers 422 for a wrong check digit, an unknown system or a missing code', async () => {
    const wrongDigit = CODES.brufenGtin.slice(0, -1) + ((Number(CODES.brufenGtin.slice(-1)) + 1) % 10);
    const res = await get(`/v1/drugs/lookup?system=gtin&code=${wrongDigit}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ field: 'code' }] });
    expect(res.json().message).toContain('check digit');
    const system = await get('/v1/packs/upc/123');
    expect(system.statusCode).toBe(422);
    expect(system.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'system' }] });
    const missing = await get('/v1/drugs/lookup?system=gtin');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details[0]).toMatchObject({ location: 'query', field: 'code' });
  });

  it('answers 401 without a key and 403 without drugs:read', async () => {
    expect((await t.app.inject({ url: `/v1/packs/gtin/${CODES.brufenGtin}` })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    const res = await get(`/v1/drugs/lookup?system=gtin&code=${CODES.brufenGtin}`, narrow);
    expect(res.statusCode).toBe(403);
    expect(res.json().missing_scope).toBe('drugs:read');
  });
});

describe('GET /v1/drugs/{id}/equivalents', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, k = key) => t.app.inject({ url, headers: bearer(k) });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('groups the same medicine and the same substance by country with exact counts', async () => {
    const res = await get(`/v1/drugs/${IDS.brufenCh}/equivalents`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ basis: 'identity', per_country: 3, drug: { id: IDS.brufenCh } });
    // Same 400 mg film-coated oral tablet: DE twice, FR, IT; the withdrawn CH generic is not listed.
    expect(body.same_medicine.map((g: { country: string; count: number }) => [g.country, g.count])).toEqual([['DE', 2], ['FR', 1], ['IT', 1]]);
    expect(body.same_medicine[0].drugs.map((d: { id: string }) => d.id)).toEqual([IDS.ibuflamDe, IDS.ibuprofenAlDe]);
    // Same moiety in any form: the lysine salt granules in CH and the 200 mg US tablet too.
    expect(body.same_substance.map((g: { country: string; count: number }) => [g.country, g.count])).toEqual([['CH', 1], ['DE', 2], ['FR', 1], ['IT', 1], ['US', 1]]);
    expect(body.same_substance[0].drugs[0]).toMatchObject({ id: IDS.algiforCh, substance_name: 'ibuprofen lysine' });
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'de-ifa', 'fr-bdpm', 'it-aifa', 'us-fda-ndc']);
  });

  it('cuts each country to per_country while keeping the exact count', async () => {
    const body = (await get(`/v1/drugs/${IDS.brufenCh}/equivalents?per_country=1`)).json();
    const de = body.same_medicine.find((g: { country: string }) => g.country === 'DE');
    expect(de).toMatchObject({ count: 2, drugs: [{ id: IDS.ibuflamDe }] });
  });

  it('falls back to the ATC class when the product has no substance layer', async () => {
    const body = (await get(`/v1/drugs/${IDS.unclassifiedDe}/equivalents`)).json();
    expect(body).toMatchObject({ basis: 'atc', same_medicine: [], same_substance: [{ country: 'FR', count: 1, drugs: [{ id: IDS.naprosyneFr }] }] });
    expect(body.same_substance).toHaveLength(1);
  });

  it('answers 404 for an unknown drug and 422 for a bad per_country', async () => {
    const res = await get('/v1/drugs/00000000-0000-4000-8000-0000000000ff/equivalents');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Drug was not found.' });
    const bad = await get(`/v1/drugs/${IDS.brufenCh}/equivalents?per_country=0`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toMatchObject({ field: 'per_country' });
    expect((await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/equivalents` })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    expect((await get(`/v1/drugs/${IDS.brufenCh}/equivalents`, narrow)).statusCode).toBe(403);
  });
});
