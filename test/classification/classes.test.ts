import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { IDS, seedCatalogue } from '../catalogue/fixtures.ts';

interface ClassRow { system: string; code: string; label: string; level: number | null; drug_count: number; substance_count: number; market_count: number }

describe('GET /v1/classes, /v1/classes/{system}/{code} and /drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...bearer(key), ...headers } });
  const rows = (res: { json(): { results: ClassRow[] } }) => res.json().results;

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('lists classes of every axis with rollups, most drugs first', async () => {
    const res = await get('/v1/classes');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^".+"$/);
    const body = res.json();
    expect(body).toMatchObject({ total: 19, limit: 50, offset: 0 });
    // M (musculo-skeletal) and M01/M01A/M01AE hold 10 products, 9 via M01AE01 + 2 naproxen.
    expect(body.results[0]).toEqual({ system: 'atc', code: 'M', label: 'MUSCULO-SKELETAL SYSTEM', level: 1, drug_count: 10, substance_count: 1, market_count: 5 });
    const nsaid = body.results.find((r: ClassRow) => r.code === 'N0000175722');
    // The NSAID EPC class: Advil US directly, plus every M01AE01 product through ibuprofen's ATC code.
    expect(nsaid).toEqual({ system: 'epc', code: 'N0000175722', label: 'Nonsteroidal Anti-inflammatory Drug [EPC]', level: null, drug_count: 8, substance_count: 1, market_count: 5 });
    const ibuprofen = body.results.find((r: ClassRow) => r.code === 'M01AE01');
    expect(ibuprofen).toMatchObject({ drug_count: 8, substance_count: 1, market_count: 5 });
    const counts = body.results.map((r: ClassRow) => r.drug_count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['us-fda-ndc', 'who-atc']);
  });

  it('filters by system, q (label substring or code prefix), level, min_drugs and market', async () => {
    expect(rows(await get('/v1/classes?system=epc&sort=code')).map((r) => r.code)).toEqual(['N0000175560', 'N0000175722']);
    expect(rows(await get('/v1/classes?q=anilid')).map((r) => r.code)).toEqual(['N02BE']);
    expect(rows(await get('/v1/classes?q=n02b&sort=code')).map((r) => r.code)).toEqual(['N02B', 'N02BE', 'N02BE01']);
    expect(rows(await get('/v1/classes?system=atc&level=5&sort=code')).map((r) => r.code)).toEqual(['C08CA01', 'M01AE01', 'M01AE02', 'N02BE01']);
    expect(rows(await get('/v1/classes?system=atc&level=5&min_drugs=2&sort=code')).map((r) => r.code)).toEqual(['M01AE01', 'M01AE02', 'N02BE01']);
    expect(rows(await get('/v1/classes?system=atc&level=5&market=US&sort=code')).map((r) => r.code)).toEqual(['M01AE01', 'N02BE01']);
    expect(rows(await get('/v1/classes?q=%25')).length).toBe(0);
  });

  it('sorts by markets, code and label and pages with limit/offset', async () => {
    const markets = rows(await get('/v1/classes?system=atc&level=5&sort=markets'));
    expect(markets.map((r) => [r.code, r.market_count])).toEqual([['M01AE01', 5], ['M01AE02', 2], ['N02BE01', 2], ['C08CA01', 1]]);
    const label = rows(await get('/v1/classes?system=atc&level=4&sort=label'));
    expect(label.map((r) => r.label)).toEqual(['Anilides', 'Dihydropyridine derivatives', 'Propionic acid derivatives']);
    const page = await get('/v1/classes?sort=code&limit=5&offset=15');
    expect(page.json()).toMatchObject({ total: 19, limit: 5, offset: 15 });
    expect(rows(page).map((r) => r.code)).toEqual(['N02BE01', 'N0000175560', 'N0000175722', 'N0000000160']);
    const beyond = await get('/v1/classes?offset=19');
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().message).toBe('Invalid request: offset 19 is beyond the end of the result set (19 results).');
  });

  it('answers 304, 422, 401 and 403 for the list', async () => {
    const first = await get('/v1/classes?system=moa');
    expect((await get('/v1/classes?system=moa', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    for (const query of ['system=atcx', 'sort=price', 'level=6', 'min_drugs=-1', 'limit=201', 'offset=-1', 'market=XX', 'foo=1']) {
      const res = await get(`/v1/classes?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('validation');
    }
    expect((await t.app.inject({ url: '/v1/classes' })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['drugs:read'] });
    expect((await t.app.inject({ url: '/v1/classes', headers: bearer(narrow) })).json()).toMatchObject({ error: 'forbidden', missing_scope: 'atc:read' });
  });

  it('reads one ATC class: rollup, ancestors, children, members and related classes', async () => {
    const res = await get('/v1/classes/atc/m01ae');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      system: 'atc', code: 'M01AE', label: 'Propionic acid derivatives', level: 4, drug_count: 10, substance_count: 1, market_count: 5,
      ancestors: [{ system: 'atc', code: 'M', level: 1 }, { code: 'M01', level: 2 }, { code: 'M01A', level: 3 }],
      children: [{ code: 'M01AE01', label: 'ibuprofen', level: 5 }, { code: 'M01AE02', label: 'naproxen', level: 5 }],
      member_count: 1,
      sample_substances: [{ unii: 'WK2XYI10QM', name: 'ibuprofen' }],
      related: [
        { system: 'epc', code: 'N0000175722', label: 'Nonsteroidal Anti-inflammatory Drug [EPC]', shared_substances: 1 },
        { system: 'moa', code: 'N0000000160', label: 'Cyclooxygenase Inhibitors [MoA]', shared_substances: 1 },
      ],
    });
    expect(res.json()._meta.sources[0].id).toBe('who-atc');
  });

  it('reads one class on a flat axis with its ATC classes as related', async () => {
    const res = await get('/v1/classes/epc/N0000175560');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      system: 'epc', code: 'N0000175560', level: null, drug_count: 1, substance_count: 1, market_count: 1, ancestors: [], children: [],
      sample_substances: [{ unii: '1J444QC288', name: 'amlodipine' }],
      related: [{ system: 'atc', code: 'C08CA01', label: 'amlodipine', shared_substances: 1 }],
    });
  });

  it('answers 304, 404 and 422 for one class', async () => {
    const first = await get('/v1/classes/atc/N02');
    expect((await get('/v1/classes/atc/N02', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    const missing = await get('/v1/classes/moa/N0000999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'Class was not found.' });
    const bad = await get('/v1/classes/who/N02');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toMatchObject({ location: 'path', field: 'system' });
  });

  it('lists the drugs of a class in every jurisdiction unless a country is given', async () => {
    const atc = await get('/v1/classes/atc/n02be/drugs');
    expect(atc.statusCode).toBe(200);
    expect(atc.headers.deprecation).toBeUndefined();
    expect(atc.json()).toMatchObject({ system: 'atc', code: 'N02BE', country: null, total: 2 });
    expect(atc.json().results.map((d: { id: string }) => d.id).sort()).toEqual([IDS.dafalganCh, IDS.tylenolUs].sort());
    const epc = await get('/v1/classes/epc/N0000175722/drugs?country=US');
    expect(epc.json()).toMatchObject({ country: 'US', total: 1, results: [{ id: IDS.advilUs, product_name: 'Advil' }] });
    const walk = await get('/v1/classes/moa/N0000000160/drugs?limit=3');
    expect(walk.json()).toMatchObject({ total: 8, limit: 3, offset: 0 });
    expect(walk.json().results).toHaveLength(3);
    const beyond = await get('/v1/classes/moa/N0000000160/drugs?offset=8');
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().message).toContain('beyond the end of the result set');
  });

  it('answers 304, 404, 422, 401 and 403 for class drugs', async () => {
    const first = await get('/v1/classes/atc/C08/drugs');
    expect((await get('/v1/classes/atc/C08/drugs', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    expect((await get('/v1/classes/epc/N0000000000/drugs')).statusCode).toBe(404);
    expect((await get('/v1/classes/atc/C08/drugs?limit=0')).statusCode).toBe(422);
    expect((await t.app.inject({ url: '/v1/classes/atc/C08/drugs' })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['drugs:read'] });
    expect((await t.app.inject({ url: '/v1/classes/atc/C08/drugs', headers: bearer(narrow) })).statusCode).toBe(403);
  });
});
