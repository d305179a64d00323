import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { targetUrl } from '../../resolvers/byol/passthrough.ts';
import { startFakeProvider, vaultConfig } from './helpers.ts';
import type { FakeProvider } from './helpers.ts';

const KEY_OF_A = 'dbk_tenantA_9e1f3b7c5a2d4e6f8a0b1c3d';
const KEY_OF_B = 'dbk_tenantB_0a2c4e6f8b1d3f5a7c9e1b3d';

describe('GET /v1/byol/{provider}/query (live passthrough)', () => {
  let t: TestApp;
  let drugbank: FakeProvider;
  let failing: FakeProvider;
  let tenantA: string;
  let tenantB: string;

  beforeAll(async () => {
    drugbank = await startFakeProvider((req) => {
      if (req.url.startsWith('/api/v1/drug_names')) return { status: 200, body: { products: [{ drugbank_id: 'DB00316', name: 'Acetaminophen' }] } };
      if (req.url === '/api/v1/drugs/DB00316') return { status: 200, body: { drugbank_id: 'DB00316', name: 'Acetaminophen', caller: req.headers.authorization } };
      if (req.url === '/api/v1/drugs/DB99999') return { status: 404, body: { error: 'not found' } };
      if (req.url === '/api/v1/drugs/DB00001/interactions') return { status: 200, body: [{ with: 'DB00682' }] };
      if (req.url === '/api/v1/drugs/REVOKED') return { status: 401, body: { error: 'revoked key' } };
      return { status: 500, body: { trace: 'internal stack at provider.java:42' } };
    });
    failing = await startFakeProvider(() => ({ status: 503, body: { detail: 'maintenance window, db host 10.0.0.7' } }));
    t = await startTestApp({ config: { ...vaultConfig(), byolBaseUrls: { drugbank: drugbank.url, fdb: failing.url, medispan: 'http://127.0.0.1:1/closed' }, byolTimeoutMs: 2000 } });
    tenantA = await t.key({ tier: 'growth' });
    tenantB = await t.key({ tier: 'enterprise' });
    for (const [key, apiKey] of [[tenantA, KEY_OF_A], [tenantB, KEY_OF_B]] as const) {
      const res = await t.app.inject({ method: 'PUT', url: '/v1/byol/drugbank', headers: bearer(key), payload: { credentials: { api_key: apiKey } } });
      expect(res.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await drugbank.close();
    await failing.close();
  });

  it('sends one request with the tenant\'s own credential and wraps the answer in the envelope', async () => {
    const before = drugbank.seen.length;
    const res = await t.app.inject({ url: '/v1/byol/drugbank/query?q=acetaminophen', headers: bearer(tenantA) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      provider: 'drugbank',
      request: { kind: 'search', q: 'acetaminophen', method: 'GET', provider_path: '/api/v1/drug_names?q=acetaminophen' },
      status: 200,
      data: { products: [{ drugbank_id: 'DB00316', name: 'Acetaminophen' }] },
      fetched_at: expect.any(String),
    });
    expect(res.headers['x-service-tier']).toBe('growth');
    expect(drugbank.seen.length).toBe(before + 1);
    expect(drugbank.seen.at(-1)!.headers.authorization).toBe(KEY_OF_A);
  });

  it('uses tenant B\'s credential for tenant B: no credential crosses tenants', async () => {
    const a = await t.app.inject({ url: '/v1/byol/drugbank/query?id=DB00316', headers: bearer(tenantA) });
    const b = await t.app.inject({ url: '/v1/byol/drugbank/query?id=DB00316', headers: bearer(tenantB) });
    expect(a.json().data.caller).toBe(KEY_OF_A);
    expect(b.json().data.caller).toBe(KEY_OF_B);
    expect(a.json().request).toMatchObject({ kind: 'record', id: 'DB00316', provider_path: '/api/v1/drugs/DB00316' });
  });

  it('answers 404 when the caller has no credential for the provider, even if another tenant does', async () => {
    const tenantC = await t.key({ tier: 'growth' });
    const before = drugbank.seen.length;
    const res = await t.app.inject({ url: '/v1/byol/drugbank/query?q=aspirin', headers: bearer(tenantC) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
    expect(drugbank.seen.length).toBe(before);
  });

  it('follows a sub-resource path under the base URL', async () => {
    const res = await t.app.inject({ url: '/v1/byol/drugbank/query?path=drugs/DB00001/interactions', headers: bearer(tenantA) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ request: { kind: 'path', path: 'drugs/DB00001/interactions' }, data: [{ with: 'DB00682' }] });
  });

  it('passes a provider 404 through in the envelope', async () => {
    const res = await t.app.inject({ url: '/v1/byol/drugbank/query?id=DB99999', headers: bearer(tenantA) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 404, data: { error: 'not found' } });
  });

  it('refuses path escapes (scheme, host, .., encoded dots, backslashes) with 422 and sends nothing', async () => {
    const before = drugbank.seen.length;
    const attempts = ['../admin', 'drugs/../../secret', 'http://evil.example/x', '//evil.example/x', '%2e%2e/admin', 'drugs/%2F..%2Fadmin',
      'drugs\\..\\admin', 'drugs?x=1', 'a/./b', '..', '/etc/passwd/..', 'drugs#frag', 'user@evil.example'];
    for (const path of attempts) {
      const res = await t.app.inject({ url: `/v1/byol/drugbank/query?path=${encodeURIComponent(path)}`, headers: bearer(tenantA) });
      expect(res.statusCode, path).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'path' }] });
    }
    const badId = await t.app.inject({ url: `/v1/byol/drugbank/query?id=${encodeURIComponent('../../admin')}`, headers: bearer(tenantA) });
    expect(badId.statusCode).toBe(422);
    expect(drugbank.seen.length).toBe(before);
  });

  it('confines every accepted target to the base URL', () => {
    const base = 'https://api.provider.example/v1';
    expect(targetUrl(base, 'drugbank', { path: 'drugs/DB1' }).url.href).toBe('https://api.provider.example/v1/drugs/DB1');
    expect(targetUrl(base, 'drugbank', { q: 'a/../../b?c' }).url.href).toBe('https://api.provider.example/v1/drug_names?q=a%2F..%2F..%2Fb%3Fc');
    expect(() => targetUrl(base, 'drugbank', { q: 'x', id: 'y' })).toThrow(/exactly one/);
  });

  it('answers 422 unless exactly one of q, id, path is given', async () => {
    for (const qs of ['', '?q=a&id=b', '?id=a&path=b']) {
      const res = await t.app.inject({ url: `/v1/byol/drugbank/query${qs}`, headers: bearer(tenantA) });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('validation');
    }
  });

  it('answers 502 with a generic message when the provider fails, without its detail', async () => {
    await t.app.inject({ method: 'PUT', url: '/v1/byol/fdb', headers: bearer(tenantA), payload: { credentials: { client_id: 'acme-pharmacy', client_secret: 'fdb-secret-7d9f1b3e5a7c9e1f' } } });
    const res = await t.app.inject({ url: '/v1/byol/fdb/query?q=ibuprofen', headers: bearer(tenantA) });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'upstream_error', message: 'The licensed provider did not answer usably; try again later.' });
    expect(res.body).not.toContain('10.0.0.7');
    expect(failing.seen.at(-1)!.headers.authorization).toBe('SHAREDKEY acme-pharmacy:fdb-secret-7d9f1b3e5a7c9e1f');
    const unknownPath = await t.app.inject({ url: '/v1/byol/drugbank/query?path=boom', headers: bearer(tenantA) });
    expect(unknownPath.statusCode).toBe(502);
    expect(unknownPath.body).not.toContain('provider.java');
  });

  it('answers 502 when the provider cannot be reached, and 502 naming PUT when it refuses the credential', async () => {
    await t.app.inject({ method: 'PUT', url: '/v1/byol/medispan', headers: bearer(tenantA), payload: { credentials: { username: 'ops-user', password: 'medispan-Secret-1' } } });
    const closed = await t.app.inject({ url: '/v1/byol/medispan/query?q=x', headers: bearer(tenantA) });
    expect(closed.statusCode).toBe(502);
    const revoked = await t.app.inject({ url: '/v1/byol/drugbank/query?id=REVOKED', headers: bearer(tenantA) });
    expect(revoked.statusCode).toBe(502);
    expect(revoked.json().message).toContain('PUT /v1/byol/drugbank');
  });

  it('writes no credential into any log line, though the credentials reached the fakes', () => {
    const logs = t.logs.join('\n');
    expect(logs).toContain('byol passthrough failed');
    for (const secret of [KEY_OF_A, KEY_OF_B, 'fdb-secret-7d9f1b3e5a7c9e1f', 'medispan-Secret-1', Buffer.from('ops-user:medispan-Secret-1').toString('base64')]) {
      expect(logs).not.toContain(secret);
    }
  });
});
