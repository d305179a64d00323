import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { IDS, seedCatalogue } from '../catalogue/fixtures.ts';

describe('GET /v1/atc/{code}/children and /v1/atc/{code}/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...bearer(key), ...headers } });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('lists the direct children of a node in code order, with DDDs', async () => {
    const res = await get('/v1/atc/m01ae/children');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(res.json()).toMatchObject({
      code: 'M01AE', name: 'Propionic acid derivatives', level: 4,
      children: [
        { code: 'M01AE01', name: 'ibuprofen', level: 5, ddd: [{ value: 1.2, unit: 'g', route: 'O', note: null }] },
        { code: 'M01AE02', name: 'naproxen', level: 5, ddd: [] },
      ],
    });
    expect(res.json()._meta.sources[0].id).toBe('who-atc');
    expect((await get('/v1/atc/M01AE01/children')).json().children).toEqual([]);
  });

  it('answers 304, 404 and 422 for children', async () => {
    const first = await get('/v1/atc/N/children');
    expect((await get('/v1/atc/N/children', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    const missing = await get('/v1/atc/B01/children');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'ATC code was not found.' });
    expect((await get('/v1/atc/M1/children')).statusCode).toBe(422);
  });

  it('lists drugs in the subtree in CH by default, with the Deprecation header and an exact total', async () => {
    const res = await get('/v1/atc/M01AE/drugs');
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe('@1767225600');
    const body = res.json();
    expect(body).toMatchObject({ system: 'atc', code: 'M01AE', label: 'Propionic acid derivatives', country: 'CH', total: 3, limit: 50, offset: 0 });
    expect(body.results.map((d: { id: string }) => d.id)).toEqual([IDS.algiforCh, IDS.brufenCh, IDS.oldIbuprofenCh]);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'who-atc']);
  });

  it('covers every register with ALL, pages with limit/offset and refuses an offset past the end', async () => {
    const all = await get('/v1/atc/M01/drugs?country=ALL&limit=4');
    expect(all.headers.deprecation).toBeUndefined();
    expect(all.json()).toMatchObject({ country: 'ALL', total: 10, limit: 4, offset: 0 });
    expect(all.json().results).toHaveLength(4);
    const last = await get('/v1/atc/M01/drugs?country=ALL&limit=4&offset=8');
    expect(last.json().results).toHaveLength(2);
    expect(last.json().results.at(-1).atc_code).toBe('M01AE02');
    const beyond = await get('/v1/atc/M01/drugs?country=ALL&limit=4&offset=10');
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'offset' }] });
    expect(beyond.json().message).toBe('Invalid request: offset 10 is beyond the end of the result set (10 results).');
    const us = await get('/v1/atc/N02/drugs?country=US');
    expect(us.json()).toMatchObject({ total: 1, results: [{ id: IDS.tylenolUs }] });
    const empty = await get('/v1/atc/C08/drugs?country=FR');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ total: 0, results: [] });
  });

  it('costs the same round trips for a page of 2 and a page of 10', async () => {
    const roundTrips = async (limit: number) => {
      await get('/v1/atc/M/drugs?country=ALL&limit=1');
      const before = t.db.roundTrips;
      const res = await get(`/v1/atc/M/drugs?country=ALL&limit=${limit}`);
      expect(res.json().results).toHaveLength(limit);
      return t.db.roundTrips - before;
    };
    expect(await roundTrips(10)).toBe(await roundTrips(2));
  });

  it('answers 404, 422, 401 and 403 for drugs', async () => {
    expect((await get('/v1/atc/B01/drugs?country=ALL')).statusCode).toBe(404);
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'country=ch', 'page=2']) {
      const res = await get(`/v1/atc/M01/drugs?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('validation');
    }
    expect((await t.app.inject({ url: '/v1/atc/M01/drugs' })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['drugs:read'] });
    const res = await t.app.inject({ url: '/v1/atc/M01/drugs', headers: bearer(narrow) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'atc:read' });
  });
});
