import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { open } from '../../platform/crypto/vault.ts';
import { ownerOf, rotateCredentials } from '../../resolvers/byol/vault.ts';
import { KEY_A, KEY_B, vaultConfig } from './helpers.ts';

const API_KEY = 'dbk_live_5f2a9c3e7b1d4a8f6c0e2b9d7a3f1c5e';

interface Row { account_id: string; key_id: string; nonce: Uint8Array; ciphertext: Uint8Array; auth_tag: Uint8Array; key_hint: string | null }

async function storedRows(t: TestApp): Promise<Row[]> {
  return (await t.db.query<Row>('SELECT account_id, key_id, nonce, ciphertext, auth_tag, key_hint FROM byol_credentials ORDER BY created_at')).rows;
}

async function accountOf(t: TestApp, key: string): Promise<string> {
  const res = await t.db.query<{ account_id: string }>('SELECT account_id FROM api_keys WHERE last_four = $1', [key.slice(-4)]);
  return res.rows[0]!.account_id;
}

describe('BYOL vault: GET, PUT, DELETE /v1/byol/{provider}', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ config: vaultConfig() });
    key = await t.key({ tier: 'growth' });
  });
  afterAll(() => t.close());

  it('answers GET with configured false before anything is stored', async () => {
    const res = await t.app.inject({ url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ provider: 'drugbank', configured: false, configured_at: null, updated_at: null, key_hint: null, credential_fields: ['api_key'] });
    expect(res.headers['x-service-tier']).toBe('growth');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  it('stores a credential sealed with AES-256-GCM: the row holds no plaintext and opens only with the right key and owner', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/byol/drugbank', headers: bearer(key), payload: { credentials: { api_key: API_KEY } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'drugbank', configured: true, key_hint: API_KEY.slice(-4), configured_at: expect.any(String) });
    expect(res.body).not.toContain(API_KEY);

    const [row] = await storedRows(t);
    const sealed = { keyId: row!.key_id, nonce: Buffer.from(row!.nonce), ciphertext: Buffer.from(row!.ciphertext), tag: Buffer.from(row!.auth_tag) };
    expect(sealed.keyId).toBe('k1');
    expect(sealed.ciphertext.toString('utf8')).not.toContain(API_KEY);
    expect(sealed.ciphertext.toString('hex')).not.toContain(Buffer.from(API_KEY).toString('hex'));
    const owner = ownerOf(row!.account_id, 'drugbank');
    expect(JSON.parse(open(sealed, { keys: { k1: KEY_A }, activeKeyId: 'k1' }, owner))).toEqual({ api_key: API_KEY });
    expect(() => open(sealed, { keys: { k1: KEY_B }, activeKeyId: 'k1' }, owner)).toThrow(/does not open/);
    expect(() => open(sealed, { keys: { k1: KEY_A }, activeKeyId: 'k1' }, ownerOf('00000000-0000-0000-0000-000000000000', 'drugbank'))).toThrow(/does not open/);
  });

  it('uses a fresh nonce per record, so the same credential never gives the same ciphertext', async () => {
    const before = (await storedRows(t))[0]!;
    await t.app.inject({ method: 'PUT', url: '/v1/byol/drugbank', headers: bearer(key), payload: { credentials: { api_key: API_KEY } } });
    const after = (await storedRows(t))[0]!;
    expect(Buffer.from(after.nonce).equals(Buffer.from(before.nonce))).toBe(false);
    expect(Buffer.from(after.ciphertext).equals(Buffer.from(before.ciphertext))).toBe(false);
  });

  it('answers GET with status only: when, and the last four of the key', async () => {
    const res = await t.app.inject({ url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ configured: true, key_hint: API_KEY.slice(-4), configured_at: expect.any(String), updated_at: expect.any(String) });
    expect(res.body).not.toContain(API_KEY.slice(0, -4));
  });

  it('keeps tenants apart: another account sees nothing configured', async () => {
    const other = await t.key({ tier: 'growth' });
    const res = await t.app.inject({ url: '/v1/byol/drugbank', headers: bearer(other) });
    expect(res.json()).toMatchObject({ configured: false, key_hint: null });
  });

  it('refuses a PUT body that does not fit the provider with 422 naming fields, never values', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/byol/fdb', headers: bearer(key), payload: { credentials: { client_id: 'acme', api_key: 'secret-value-123456789' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', details: expect.arrayContaining([
      { location: 'body', field: 'credentials.api_key', message: 'is not a fdb credential field' },
      { location: 'body', field: 'credentials.client_secret', message: 'is required and must be a string' },
    ]) });
    expect(res.body).not.toContain('secret-value-123456789');
    const empty = await t.app.inject({ method: 'PUT', url: '/v1/byol/fdb', headers: bearer(key), payload: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().details[0]).toMatchObject({ location: 'body', field: 'credentials' });
  });

  it('answers an unknown provider with 422 on GET, PUT and DELETE', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/v1/byol/acme-drugs', headers: bearer(key), ...(method === 'PUT' ? { payload: { credentials: { api_key: API_KEY } } } : {}) });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'provider' }] });
    }
  });

  it('answers POST on the provider and on its query with 404 for any valid key, even without byol:write', async () => {
    const free = await t.key({ tier: 'developer' });
    for (const url of ['/v1/byol/drugbank', '/v1/byol/drugbank/query', '/v1/byol/unknown']) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(free), payload: {} });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())[0]).toBe('error');
      expect(res.json().error).toBe('not_found');
    }
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/byol/drugbank/query', headers: { ...bearer(free), 'content-type': 'application/json' }, payload: '{not json' });
    expect(malformed.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/byol/drugbank' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers other verbs with 405 and an allow header that leaves out the refused POST', async () => {
    const key = await t.key();
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, PUT, DELETE, HEAD');
    expect(res.json().error).toBe('method_not_allowed');
  });

  it('answers 403 forbidden with missing_scope below the growth tier', async () => {
    const starter = await t.key({ tier: 'starter' });
    const res = await t.app.inject({ url: '/v1/byol/drugbank', headers: bearer(starter) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', tier: 'starter', missing_scope: 'byol:write' });
  });

  it('deletes with 204 and no body, and again with 204 when nothing is left', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const rows = await t.db.query('SELECT 1 FROM byol_credentials WHERE account_id = $1', [await accountOf(t, key)]);
    expect(rows.rowCount).toBe(0);
    const again = await t.app.inject({ method: 'DELETE', url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(again.statusCode).toBe(204);
  });

  it('never writes a credential into the logs', async () => {
    await t.app.inject({ method: 'PUT', url: '/v1/byol/medispan', headers: bearer(key), payload: { credentials: { username: 'pharmacy-ops', password: 'Pa55word-NeverLogged' } } });
    expect(t.logs.length).toBeGreaterThan(0);
    expect(t.logs.join('\n')).not.toContain('Pa55word-NeverLogged');
    expect(t.logs.join('\n')).not.toContain(API_KEY);
  });
});

describe('BYOL vault without a master key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { byolMasterKeys: {}, byolActiveKeyId: null } });
  });
  afterAll(() => t.close());

  it('answers PUT, DELETE and query with 503 unavailable and retry-after, and stores nothing', async () => {
    const key = await t.key({ tier: 'growth' });
    const put = await t.app.inject({ method: 'PUT', url: '/v1/byol/drugbank', headers: bearer(key), payload: { credentials: { api_key: API_KEY } } });
    const del = await t.app.inject({ method: 'DELETE', url: '/v1/byol/drugbank', headers: bearer(key) });
    const query = await t.app.inject({ url: '/v1/byol/drugbank/query?q=aspirin', headers: bearer(key) });
    for (const res of [put, del, query]) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await t.db.query('SELECT 1 FROM byol_credentials')).rowCount).toBe(0);
    const get = await t.app.inject({ url: '/v1/byol/drugbank', headers: bearer(key) });
    expect(get.statusCode).toBe(200);
    expect(get.json().configured).toBe(false);
  });

  it('logs the 503 refusals at warn without a stack: they are expected, not faults', () => {
    const refusals = t.logs.map((line) => JSON.parse(line) as { level: number; msg: string; code?: string; err?: unknown })
      .filter((entry) => entry.code === 'unavailable');
    expect(refusals.length).toBeGreaterThan(0);
    for (const entry of refusals) {
      expect(entry.level).toBe(40);
      expect(entry.msg).toBe('request refused');
      expect(entry.err).toBeUndefined();
    }
    expect(t.logs.join('\n')).not.toMatch(/"level":50/);
  });
});

describe('BYOL master key rotation', () => {
  it('re-seals every row under the active key; the old key is then no longer needed', async () => {
    const t = await startTestApp({ config: vaultConfig() });
    try {
      const key = await t.key({ tier: 'growth' });
      await t.app.inject({ method: 'PUT', url: '/v1/byol/drugbank', headers: bearer(key), payload: { credentials: { api_key: API_KEY } } });
      const moved = await rotateCredentials(t.db, { keys: { k1: KEY_A, k2: KEY_B }, activeKeyId: 'k2' });
      expect(moved).toBe(1);
      const [row] = await storedRows(t);
      expect(row!.key_id).toBe('k2');
      const sealed = { keyId: 'k2', nonce: Buffer.from(row!.nonce), ciphertext: Buffer.from(row!.ciphertext), tag: Buffer.from(row!.auth_tag) };
      expect(JSON.parse(open(sealed, { keys: { k2: KEY_B }, activeKeyId: 'k2' }, ownerOf(row!.account_id, 'drugbank')))).toEqual({ api_key: API_KEY });
      expect(await rotateCredentials(t.db, { keys: { k2: KEY_B }, activeKeyId: 'k2' })).toBe(0);
    } finally {
      await t.close();
    }
  });
});
