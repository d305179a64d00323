import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../facades/app.ts';
import { testConfig } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import { createKey } from '../../resolvers/accounts/keys.ts';
import { deprecationHeaders } from '../../facades/http/deprecation.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { bearer } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

// A POST route through the real pipeline and error handler, to exercise body handling
// before any domain route with a body exists.
function addEchoRoute(app: FastifyInstance): void {
  app.post('/v1/echo-test', {
    onRequest: app.guarded({ scope: 'drugs:read' }),
    schema: {
      body: {
        type: 'object',
        required: ['drugs'],
        additionalProperties: false,
        properties: { drugs: { type: 'array', items: { type: 'string' }, minItems: 1 }, mode: { type: 'string', enum: ['fast', 'full'] } },
      },
    },
    handler: async (request) => ({ received: request.body }),
  });
}

describe('HTTP conventions', () => {
  let app: FastifyInstance;
  let db: Database;
  let key: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedAtcBranch(db);
    app = await buildApp({ config: testConfig({ bodyLimitBytes: 2048 }), db, logStream: new Writable({ write: (_c, _e, done) => done() }) });
    addEchoRoute(app);
    await app.ready();
    key = (await createKey(db, { account: 'conventions', tier: 'enterprise' })).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const post = (payload: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/v1/echo-test', headers: { ...bearer(key), 'content-type': 'application/json', ...headers }, payload });

  it('accepts a valid JSON body', async () => {
    const res = await post(JSON.stringify({ drugs: ['a'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: { drugs: ['a'] } });
  });

  it('answers 422 validation for malformed JSON, with a message', async () => {
    const res = await post('{"drugs": [');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', message: 'The body is not valid JSON.' });
  });

  it('answers 422 validation for an oversize body', async () => {
    const res = await post(JSON.stringify({ drugs: ['x'.repeat(5000)] }));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/larger/);
  });

  it('answers 422 for wrong types, unknown fields and unknown enum values, listing each problem', async () => {
    const res = await post(JSON.stringify({ drugs: 'aspirin', mode: 'turbo', extra: 1 }));
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body)[0]).toBe('error');
    expect(body.error).toBe('validation');
    expect(body.details).toEqual(expect.arrayContaining([
      { location: 'body', field: 'drugs', message: 'must be array' },
      { location: 'body', field: 'mode', message: 'must be equal to one of the allowed values (fast, full)' },
      { location: 'body', field: 'extra', message: 'is not a known parameter' },
    ]));
    expect(body.message).toContain('body mode must be equal to one of the allowed values (fast, full)');
  });

  it('answers 422 for a body that is not JSON', async () => {
    const res = await post('drugs=a', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('validation');
  });

  it('answers 422 for an unknown query parameter', async () => {
    const res = await app.inject({ url: '/v1/atc/N02?contry=DE', headers: bearer(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ location: 'query', field: 'contry', message: 'is not a known parameter' }]);
  });

  it('answers 405 method_not_allowed with an allow header on a known path', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/v1/atc/N02', headers: bearer(key) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('answers 404 not_found for an unknown /v1 path', async () => {
    const res = await app.inject({ url: '/v1/nothing-here', headers: bearer(key) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'No operation answers GET /v1/nothing-here.' });
  });

  it('sends CORS headers exactly as the spec says, never allow-credentials', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/atc/N02',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, if-none-match' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type, if-none-match');
    expect(preflight.headers['access-control-max-age']).toBe('86400');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const res = await app.inject({ url: '/v1/atc/N02', headers: { ...bearer(key), origin: 'https://app.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe('etag, x-ratelimit-remaining, x-service-tier, retry-after');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('builds RFC 9745 Deprecation headers with a link', () => {
    expect(deprecationHeaders(new Date('2026-01-01T00:00:00Z'), 'https://docs.example/country')).toEqual({
      deprecation: '@1767225600',
      link: '<https://docs.example/country>; rel="deprecation"; type="text/html"',
    });
  });
});

describe('operational endpoints', () => {
  it('answers /healthz, /readyz and /metrics, and 503 with retry-after when the database is gone', async () => {
    const db = await openTestDatabase();
    const app = await buildApp({ config: testConfig(), db, logStream: new Writable({ write: (_c, _e, done) => done() }) });
    await app.ready();
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready', database: db.kind });
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.body).toContain('drugref_http_requests_total{route="/readyz",method="GET",status="200"} 1');
    await db.close();
    const down = await app.inject({ url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.json()).toMatchObject({ error: 'unavailable' });
    await app.close();
  });
});
