import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

describe('GET /v1/atc/{code} (the route table end to end)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    key = await t.key({ tier: 'developer' });
  });
  afterAll(() => t.close());

  it('answers a node with its parent chain, DDDs and _meta.sources in snake_case', async () => {
    const res = await t.app.inject({ url: '/v1/atc/n02be01', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'N02BE01',
      name: 'paracetamol',
      level: 5,
      ancestors: [
        { code: 'N', level: 1 }, { code: 'N02', level: 2 }, { code: 'N02B', level: 3 }, { code: 'N02BE', name: 'Anilides', level: 4 },
      ],
      ddd: [{ value: 3, unit: 'g', route: 'O', note: null }, { value: 3, unit: 'g', route: 'R', note: null }],
    });
    expect(body._meta.sources).toEqual([
      { id: 'who-atc', name: 'WHO ATC/DDD index', country: null, last_synced_at: expect.any(String), schema_state: 'ok', demo: false },
    ]);
    expect(res.headers['x-service-tier']).toBe('developer');
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
    expect(res.headers.etag).toMatch(/^".+"$/);
  });

  it('serves the alias /v1/therapies/{code} with the same answer', async () => {
    const a = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    const b = await t.app.inject({ url: '/v1/therapies/N02', headers: bearer(key) });
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(b.headers.etag).toBe(a.headers.etag);
  });

  it('answers 304 with no body on a matching if-none-match', async () => {
    const first = await t.app.inject({ url: '/v1/atc/N02BE', headers: bearer(key) });
    const again = await t.app.inject({ url: '/v1/atc/N02BE', headers: { ...bearer(key), 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 404 not_found for a code that is not in the tree', async () => {
    const other = await t.key({ tier: 'starter' });
    const res = await t.app.inject({ url: '/v1/atc/Z99', headers: bearer(other) });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json())[0]).toBe('error');
    expect(res.json()).toEqual({ error: 'not_found', message: 'ATC code was not found.' });
  });

  it('answers 422 validation for a malformed code, naming the parameter', async () => {
    const other = await t.key({ tier: 'starter' });
    const res = await t.app.inject({ url: '/v1/atc/12345', headers: bearer(other) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'code' }] });
    expect(res.json().message).toContain('path code');
  });
});
