import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CODES, IDS, seedCatalogue, seedManyIbuprofen } from './fixtures.ts';

describe('GET /v1/drugs (typeahead search)', () => {
  let t: TestApp;
  let key: string;
  const get = (query: string, k = key) => t.app.inject({ url: `/v1/drugs?${query}`, headers: bearer(k) });
  const ids = (res: { json(): { results: Array<{ id: string }> } }) => res.json().results.map((r) => r.id);

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('finds brands by substance name, salts folded to the moiety, product-name matches first', async () => {
    const res = await get('q=IBUPROFEN&country=ALL');
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
    const body = res.json();
    expect(body).toMatchObject({ q: 'IBUPROFEN', country: 'ALL', matched_by: 'product_name' });
    const byId = new Map(body.results.map((r: { id: string; matched_by: string }) => [r.id, r.matched_by]));
    expect(byId.get(IDS.ibuprofenAlDe)).toBe('product_name');
    expect(byId.get(IDS.brufenCh)).toBe('substance_name');
    expect(byId.get(IDS.algiforCh)).toBe('substance_name');
    expect(byId.get(IDS.advilUs)).toBe('substance_name');
    expect(byId.has(IDS.dafalganCh)).toBe(false);
    expect(body.results[0].matched_by).toBe('product_name');
    expect(body.count).toBe(body.results.length);
    const brufen = body.results.find((r: { id: string }) => r.id === IDS.brufenCh);
    expect(brufen).toEqual({
      id: IDS.brufenCh, product_name: 'Brufen 400 mg Filmtabletten', substance_name: 'ibuprofen', country: 'CH', atc_code: 'M01AE01',
      brand: 'Brufen', dose_form: 'film-coated tablet', marketing_status: 'active', matched_by: 'substance_name',
    });
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'de-ifa', 'fr-bdpm', 'it-aifa', 'us-fda-ndc']);
    expect(body._meta.sources.find((s: { id: string }) => s.id === 'fr-bdpm').schema_state).toBe('stale');
    expect(body._meta.sources.find((s: { id: string }) => s.id === 'it-aifa').schema_state).toBe('never_run');
  });

  it('searches CH by default and says so with a Deprecation header', async () => {
    const res = await get('q=ibuprofen');
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.headers.link).toContain('rel="deprecation"');
    expect(res.json().country).toBe('CH');
    expect(res.json().results.map((r: { country: string }) => r.country)).toEqual(['CH', 'CH', 'CH']);
    expect(ids(res)).toEqual(expect.arrayContaining([IDS.brufenCh, IDS.algiforCh, IDS.oldIbuprofenCh]));
  });

  it('matches short prefixes case-insensitively and filters by ATC prefix', async () => {
    expect(ids(await get('q=da&country=CH'))).toEqual([IDS.dafalganCh]);
    const filtered = await get('q=ibuprofen&country=ALL&atc=n02');
    expect(filtered.json()).toMatchObject({ count: 0, results: [], matched_by: null });
    expect(ids(await get('q=tab&country=CH&atc=N02BE'))).toEqual([IDS.dafalganCh]);
  });

  it('treats LIKE wildcards in q as literal characters', async () => {
    expect((await get('q=%25%25%25&country=ALL')).json().results).toEqual([]);
    expect((await get('q=___&country=ALL')).json().results).toEqual([]);
  });

  it('tries codes first across every register when no country is given', async () => {
    const res = await get(`q=${CODES.brufenGtin}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.json()).toMatchObject({ matched_by: 'gtin', count: 1, results: [{ id: IDS.brufenCh, matched_by: 'gtin' }] });
    expect(res.json().country).toBeNull();
    const fr = await get(`q=${CODES.advilCip13}`);
    expect(fr.json().results).toEqual([expect.objectContaining({ id: IDS.advilFr, country: 'FR' })]);
    expect(['gtin', 'cip13']).toContain(fr.json().matched_by);
  });

  it('narrows a code match only by an explicit country', async () => {
    const res = await get(`q=${CODES.advilCip13}&country=DE`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ country: 'DE', count: 0, results: [], matched_by: null });
    expect(ids(await get(`q=${CODES.advilCip13}&country=FR`))).toEqual([IDS.advilFr]);
  });

  it('recognises NDC, PZN, AIC, CIP7, national numbers, UNII, rxcui and ATC codes', async () => {
    const cases: Array<[string, string, string[]]> = [
      [CODES.advilNdcPrinted, 'ndc', [IDS.advilUs]],
      [`PZN-${CODES.ibuflamPzn}`, 'pzn', [IDS.ibuflamDe]],
      [`A${CODES.brufenAic}`, 'aic', [IDS.brufenIt]],
      [CODES.advilCip7, 'cip7', [IDS.advilFr]],
      [CODES.brufenSwissmedic, 'swissmedic_no', [IDS.brufenCh]],
      ['rxcui:161', 'rxcui', [IDS.dafalganCh, IDS.tylenolUs]],
    ];
    for (const [q, matchedBy, expected] of cases) {
      const res = await get(`q=${encodeURIComponent(q)}&country=ALL`);
      expect(res.json().matched_by, q).toBe(matchedBy);
      expect(ids(res).sort(), q).toEqual([...expected].sort());
    }
    const unii = await get('q=WK2XYI10QM&country=ALL');
    expect(unii.json().matched_by).toBe('unii');
    expect(ids(unii)).toEqual(expect.arrayContaining([IDS.brufenCh, IDS.algiforCh, IDS.advilUs, IDS.ibuflamDe]));
    const atc = await get('q=C08CA&country=ALL');
    expect(atc.json()).toMatchObject({ matched_by: 'atc_class', results: [{ id: IDS.norvascCh, matched_by: 'atc_class' }] });
    expect((await get('q=n02be01&country=US')).json()).toMatchObject({ matched_by: 'atc', results: [{ id: IDS.tylenolUs }] });
  });

  it('honours limit', async () => {
    const res = await get('q=ibuprofen&country=ALL&limit=2');
    expect(res.json().count).toBe(2);
    expect(res.json().results).toHaveLength(2);
  });

  it.each([
    ['no q', 'country=CH', 'q'],
    ['a blank q', 'q=%20%20&country=CH', 'q'],
    ['limit 0', 'q=ibu&limit=0', 'limit'],
    ['limit above 100', 'q=ibu&limit=101', 'limit'],
    ['an unknown country', 'q=ibu&country=XX', 'country'],
    ['a malformed atc prefix', 'q=ibu&atc=1X', 'atc'],
    ['an unknown parameter', 'q=ibu&contry=DE', 'contry'],
  ])('answers 422 validation for %s', async (_what, query, field) => {
    const res = await get(query);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json())[0]).toBe('error');
    expect(res.json()).toMatchObject({ error: 'validation', details: [expect.objectContaining({ field })] });
  });

  it('answers 401 without a key and 403 without the drugs:read scope', async () => {
    const anonymous = await t.app.inject({ url: '/v1/drugs?q=ibu' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('unauthorized');
    const narrow = await t.key({ tier: 'enterprise', scopes: ['atc:read'] });
    const res = await get('q=ibu', narrow);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read', tier: 'enterprise' });
  });

  it('costs the same number of SQL round trips for limit=5 and limit=100', async () => {
    await seedManyIbuprofen(t.db, 120);
    const roundTrips = async (limit: number) => {
      await get('q=ibuprofen&country=CH&limit=1'); // warm the key cache so auth costs the same each time
      const before = t.db.roundTrips;
      const res = await get(`q=ibuprofen&country=CH&limit=${limit}`);
      expect(res.json().count).toBe(limit);
      return t.db.roundTrips - before;
    };
    const five = await roundTrips(5);
    const hundred = await roundTrips(100);
    expect(hundred).toBe(five);
    // Quota (1; the key is cached) and the names-starting-with-q statement, which fills the
    // page and also reads the rows' ingredients (1); sources come from the process's cache.
    expect(five).toBe(2);
  });

  it('walks a substance found in thousands of products in name order, same results shape', async () => {
    // Bulk rows so the dense plan (index walk) runs: 2,100 DE products containing ibuprofen.
    await t.db.query(
      `INSERT INTO products (id, source, natural_key, country, product_name, atc_code, dose_form, route, record, content_hash)
       SELECT ('00000000-0000-4000-a000-' || lpad(i::text, 12, '0'))::uuid, 'de-ifa', 'bulk-' || i, 'DE', 'Schmerzmittel ' || lpad(i::text, 4, '0'),
              'M01AE01', 'tablet', 'oral', '{}', 'bulk' FROM generate_series(1, 2100) AS i`,
    );
    await t.db.query(
      `INSERT INTO product_ingredients (product_id, position, unii, strength_value, strength_unit)
       SELECT ('00000000-0000-4000-a000-' || lpad(i::text, 12, '0'))::uuid, 0, 'WK2XYI10QM', 200, 'mg' FROM generate_series(1, 2100) AS i`,
    );
    const res = await get('q=ibuprofen&country=DE&limit=5');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { product_name: string; matched_by: string }) => [r.product_name, r.matched_by])).toEqual([
      ['Ibuprofen AL 400', 'product_name'],
      ['IBUFLAM 400 mg Filmtabletten', 'substance_name'],
      ['Schmerzmittel 0001', 'substance_name'],
      ['Schmerzmittel 0002', 'substance_name'],
      ['Schmerzmittel 0003', 'substance_name'],
    ]);
    const unii = (await get('q=WK2XYI10QM&country=DE&limit=3')).json();
    expect(unii.results.map((r: { product_name: string; matched_by: string }) => [r.product_name, r.matched_by])).toEqual([
      ['IBUFLAM 400 mg Filmtabletten', 'unii'], ['Ibuprofen AL 400', 'unii'], ['Schmerzmittel 0001', 'unii'],
    ]);
  });
});
