/**
 * Bad input loses nothing and leaks nothing: query strings on body routes are refused and
 * never logged, a body that repeats a key is refused, errors raised before the router or by
 * the HTTP parser answer from the error table with CORS (a URL past the limit is 414 however
 * long), no error body outgrows its request or echoes large input, and logs carry route
 * patterns, never what a caller typed into a path or a parameter name. Through real HTTP where the parser is involved.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const ORIGIN = { origin: 'https://app.example' };
const CDS_BODY = {
  hook: 'order-sign', hookInstance: '5f2a3c0e-8f6b-4c1e-9d59-0d3f2c1b7a10',
  context: { userId: 'Practitioner/1', patientId: 'p-1', draftOrders: { resourceType: 'Bundle', entry: [] } },
};

describe('request hygiene', () => {
  let t: TestApp;
  let key: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    key = await t.key({ tier: 'enterprise' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) => t.app.inject({
    method: 'POST', url, payload, headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
  });

  it('refuses a query string on prescription screening and CDS Hooks, and never logs it', async () => {
    const before = t.logs.length;
    const screening = await post('/v1/prescriptions/validate?name=Jane%20Roe&dob=1970-01-02', JSON.stringify({ proposed: ['ibuprofen'] }));
    expect(screening.statusCode).toBe(422);
    expect(screening.json()).toMatchObject({ error: 'validation', details: expect.arrayContaining([{ location: 'query', field: 'name', message: 'is not a known parameter' }]) });
    const cds = await post('/cds-services/drugref-order-sign?patient=Jane%20Roe', JSON.stringify(CDS_BODY));
    expect(cds.statusCode).toBe(422);
    expect(cds.json().error).toBe('validation');
    const logged = t.logs.slice(before).join('');
    expect(logged).toContain('/v1/prescriptions/validate?[unknown]=*&[unknown]=*');
    expect(logged).not.toMatch(/Jane|Roe|1970-01-02/);
  });

  it('refuses a body that repeats a key, so a second copy cannot hide the first from the PHI screen', async () => {
    const body = '{"proposed":["ibuprofen"],"context":{"name":"Jane Roe"},"context":{"age_band":"40-64"}}';
    const res = await post('/v1/prescriptions/validate', body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', message: 'The body repeats the key "context" within one object; send each key once.' });
    const nested = await post('/v1/interactions/check', '{"drugs":[{"a":1,"b":{"x":1,"x":2}}]}');
    expect(nested.json().message).toMatch(/repeats the key "x"/);
    // Equal keys in different objects, and keys equal to values, are fine.
    const fine = await post('/v1/interactions/check', '{"drugs":["warfarin","ibuprofen"]}');
    expect(fine.statusCode).toBe(200);
  });

  it('answers bad percent-encoding and over-long path parameters from the error table, with CORS', async () => {
    const bad = await t.app.inject({ url: '/v1/drugs/%ff', headers: { ...bearer(key), ...ORIGIN } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'bad_request', message: 'The path is not valid percent-encoded UTF-8.' });
    expect(bad.headers['access-control-allow-origin']).toBe('*');
    const long = await t.app.inject({ url: `/v1/drugs/${'a'.repeat(150)}`, headers: { ...bearer(key), ...ORIGIN } });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: 'uri_too_long', message: 'A path parameter is longer than 100 characters.' });
    expect(long.headers['access-control-allow-origin']).toBe('*');
    expect(long.body).not.toContain('aaaaaaaaaa');
  });

  /** One GET through Node's HTTP client, so the server's own parser sees the request. */
  const rawGet = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest(url, { headers: { ...ORIGIN, ...headers } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers header fields over the limit with 431 from the error table, with CORS', async () => {
    const { status, headers, body } = await rawGet(`${base}/v1/atc/N02`, { 'x-filler': 'a'.repeat(20_000) });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({ error: 'headers_too_large', message: 'The request header fields are larger than the service accepts.' });
    expect(headers['access-control-allow-origin']).toBe('*');
  });

  it('answers any URL past 8192 characters with 414, whether the router or the HTTP parser meets it first', async () => {
    const within = await rawGet(`${base}/v1/drugs?country=CH&q=${'b'.repeat(8192 - '/v1/drugs?country=CH&q='.length)}`, bearer(key));
    expect(within.status).toBe(422);
    const urls = [8193, 12_000, 16_300, 16_500, 20_000, 100_000].flatMap((length) => [
      `/v1/drugs?country=CH&q=${'b'.repeat(length - '/v1/drugs?country=CH&q='.length)}`,
      `/v1/drugs/${'c'.repeat(length - '/v1/drugs/'.length)}`,
      `/no/such/${'d'.repeat(length - '/no/such/'.length)}`,
    ]);
    for (const url of urls) {
      const res = await rawGet(`${base}${url}`, bearer(key));
      expect({ length: url.length, status: res.status }).toEqual({ length: url.length, status: 414 });
      expect(JSON.parse(res.body)).toEqual({ error: 'uri_too_long', message: 'The URL is longer than 8192 characters.' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('logs route patterns, never a path parameter or an unknown parameter name', async () => {
    const before = t.logs.length;
    const phi = ['Jane%20Roe9%201983-04-05', 'Jane+Roe+1983-04-05'];
    const urls = phi.flatMap((id) => [`/v1/drugs/${id}`, `/v1/drugs/${id}/profile`, `/v1/no-such-route/${id}`, `/v1/drugs?country=CH&${id}=1`]);
    const statuses = [];
    for (const url of [...urls, '/v1/drugs/x?Jane%20Roe%201983-04-05']) statuses.push((await rawGet(`${base}${url}`, bearer(key))).status);
    // Refused (bad id, no route, unknown parameter) after the request line was logged.
    expect(statuses.every((status) => status === 404 || status === 422)).toBe(true);
    const logged = t.logs.slice(before).join('');
    expect(logged).not.toMatch(/Jane|Roe|1983/);
    expect(logged).toContain('"url":"/v1/drugs/:id"');
    expect(logged).toContain('"url":"/v1/drugs/:id/profile"');
    expect(logged).toContain('"url":"[no route]"');
    expect(logged).toContain('"url":"/v1/drugs?country=*&[unknown]=*"');
  });

  it('bounds error bodies: at most 20 details with the count, never larger than a large request, no echo', async () => {
    const events = Array.from({ length: 5_000 }, (_, i) => `changes.bogus${i}`);
    const hook = await post('/v1/webhooks', JSON.stringify({ url: 'https://hooks.example/in', events }));
    expect(hook.statusCode).toBe(422);
    const body = hook.json();
    expect(body.details).toHaveLength(20);
    expect(body.details_total).toBe(5_000);
    expect(body.message).toMatch(/and 4995 more problems \(see details\)\.$/);
    expect(hook.body.length).toBeLessThan(16_000);

    const unknown = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const keys = await post('/v1/interactions/check', JSON.stringify({ drugs: ['a', 'b'], ...unknown }));
    expect(keys.statusCode).toBe(422);
    expect(keys.json().details_total).toBe(10_000);
    expect(keys.body.length).toBeLessThan(16_000);

    const huge = 'x'.repeat(649_000);
    const big = await post('/v1/interactions/check', JSON.stringify({ drugs: [huge, 'ibuprofen'] }));
    expect(big.statusCode).toBe(422);
    expect(big.body.length).toBeLessThan(16_000);
    expect(big.body).not.toContain('x'.repeat(1_000));

    const graphql = await post('/v1/graphql', JSON.stringify({ query: `{ ${'y'.repeat(100_000)}( }` }));
    expect(graphql.statusCode).toBe(400);
    expect(graphql.body.length).toBeLessThan(4_000);
    expect(graphql.body).not.toContain('y'.repeat(1_000));
  });
});
