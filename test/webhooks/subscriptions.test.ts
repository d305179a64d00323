import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openSecret, rootKey } from '../../resolvers/changes/keyring.ts';
import { MAX_SUBSCRIPTIONS_PER_ACCOUNT } from '../../resolvers/changes/subscriptions.ts';

const CONFIG_KEY = randomBytes(32).toString('hex');

describe('POST, GET and DELETE /v1/webhooks', () => {
  let t: TestApp;
  let key: string;

  const create = (payload: unknown, k = key) => t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(k), payload: payload as Record<string, unknown> });
  const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_subscriptions')).rows[0]!.n;

  beforeAll(async () => {
    t = await startTestApp({ config: { webhookSecretKey: CONFIG_KEY } });
    key = await t.key({ tier: 'starter', account: 'hooks-a' });
  });
  afterAll(() => t.close());

  it('creates a subscription with 201, the one-time secret and the default events', async () => {
    const res = await create({ url: 'https://hooks.example.com/drugref' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-service-tier']).toBe('starter');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.example.com/drugref',
      events: ['changes.insert', 'changes.update', 'changes.delete'],
      created_at: expect.any(String),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(Object.keys(body)).toEqual(['id', 'url', 'events', 'created_at', 'secret']);
  });

  it('seals the secret with the configured key: the row holds no plaintext and opens only with that key', async () => {
    const res = await create({ url: 'https://hooks.example.com/sealed', events: ['changes.recall', 'changes.insert', 'changes.recall'] });
    expect(res.statusCode).toBe(201);
    const { id, secret, events } = res.json();
    expect(events).toEqual(['changes.insert', 'changes.recall']);
    const { rows } = await t.db.query<{ secret_sealed: Buffer; secret_key_ref: string }>('SELECT secret_sealed, secret_key_ref FROM webhook_subscriptions WHERE id = $1', [id]);
    const row = rows[0]!;
    expect(row.secret_key_ref).toMatch(/^config:[0-9a-f]{12}$/);
    expect(row.secret_sealed.toString('hex')).not.toContain(secret);
    expect(row.secret_sealed.toString('latin1')).not.toContain(secret);
    expect(openSecret(await rootKey(t.config, t.db), row.secret_sealed, id)).toBe(secret);
    const otherKey = { ...t.config, webhookSecretKey: randomBytes(32).toString('hex') };
    expect(() => openSecret({ material: Buffer.from(otherKey.webhookSecretKey, 'hex'), ref: 'x' }, row.secret_sealed, id)).toThrow();
    expect((await t.db.query('SELECT 1 FROM webhook_fallback_key')).rowCount).toBe(0);
  });

  it('refuses an unknown event with 422 listing the allowed set, and writes nothing', async () => {
    const before = await count();
    const res = await create({ url: 'https://hooks.example.com/x', events: ['changes.insert', 'changes.upsert'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('validation');
    for (const event of ['changes.insert', 'changes.update', 'changes.delete', 'changes.recall']) expect(res.json().message).toContain(event);
    expect(res.json().details[0]).toMatchObject({ location: 'body', field: 'events.1' });
    expect(await count()).toBe(before);
  });

  it('refuses a URL that does not parse or is not http(s), an empty event list and unknown fields with 422', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'not a url' }, /url must be an absolute URL/],
      [{ url: 'ftp://files.example.com/hook' }, /url must use http or https, not ftp/],
      [{ url: 'javascript:alert(1)' }, /url must use http or https/],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, /at most 2048/],
      [{ url: 'https://example.com/h', events: [] }, /at least one event/],
      [{ events: ['changes.insert'] }, /body url/],
      [{ url: 'https://example.com/h', secret: 'mine' }, /secret is not a known parameter/],
    ];
    const before = await count();
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error).toBe('validation');
      expect(res.json().message).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  it('lists the account\'s subscriptions without secrets, with last_delivery null before any attempt', async () => {
    const other = await t.key({ tier: 'growth', account: 'hooks-b' });
    await create({ url: 'https://b.example.com/hook' }, other);
    const res = await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const { webhooks } = res.json() as { webhooks: Array<Record<string, unknown>> };
    expect(webhooks.map((w) => w.url)).toEqual(['https://hooks.example.com/drugref', 'https://hooks.example.com/sealed']);
    expect(webhooks[0]).toEqual({
      id: expect.any(String), url: 'https://hooks.example.com/drugref', events: ['changes.insert', 'changes.update', 'changes.delete'],
      created_at: expect.any(String), delivered_until: expect.any(String), last_delivery: null,
    });
    expect(res.body).not.toMatch(/secret/);
  });

  it('deletes with 204 and no body; another tenant\'s id is 404 webhook_not_found and stays', async () => {
    const mine = (await create({ url: 'https://hooks.example.com/delete-me' })).json().id as string;
    const stranger = await t.key({ tier: 'enterprise', account: 'hooks-c' });
    const foreign = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?id=${mine}`, headers: bearer(stranger) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'webhook_not_found', message: `No webhook subscription ${mine} belongs to this account.` });
    expect((await t.db.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1', [mine])).rowCount).toBe(1);

    const res = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?id=${mine}`, headers: bearer(key) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['x-service-tier']).toBe('starter');
    expect((await t.db.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1', [mine])).rowCount).toBe(0);
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/webhooks?id=${mine}`, headers: bearer(key) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('webhook_not_found');
  });

  it('refuses DELETE without an id or with a non-uuid id with 422', async () => {
    for (const url of ['/v1/webhooks', '/v1/webhooks?id=42']) {
      const res = await t.app.inject({ method: 'DELETE', url, headers: bearer(key) });
      expect(res.statusCode, url).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'id' }] });
    }
  });

  it('answers 401 without a key and 403 forbidden below the starter tier', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: 'https://x.example.com' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/webhooks?id=00000000-0000-0000-0000-000000000001' })).statusCode).toBe(401);
    const anonymous = await t.app.inject({ url: '/v1/webhooks' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('unauthorized');
    const pro = await t.key({ tier: 'pro', account: 'hooks-pro' });
    for (const req of [
      { method: 'POST' as const, url: '/v1/webhooks', payload: { url: 'https://x.example.com' } },
      { method: 'DELETE' as const, url: '/v1/webhooks?id=00000000-0000-0000-0000-000000000001' },
      { method: 'GET' as const, url: '/v1/webhooks' },
    ]) {
      const res = await t.app.inject({ ...req, headers: bearer(pro) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden', tier: 'pro', missing_scope: 'webhooks:write' });
    }
  });

  it(`stops at ${MAX_SUBSCRIPTIONS_PER_ACCOUNT} subscriptions per account with 422, leaving nothing behind`, async () => {
    const busy = await t.key({ tier: 'enterprise', account: 'hooks-busy' });
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_ACCOUNT; i++) expect((await create({ url: `https://busy.example.com/${i}` }, busy)).statusCode).toBe(201);
    const before = await count();
    const res = await create({ url: 'https://busy.example.com/one-too-many' }, busy);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(new RegExp(`at most ${MAX_SUBSCRIPTIONS_PER_ACCOUNT}`));
    expect(await count()).toBe(before);
  });
});

describe('webhook secrets without WEBHOOK_SECRET_KEY', () => {
  it('fall back to one key created in the database, and still open', async () => {
    const t = await startTestApp();
    try {
      const key = await t.key({ tier: 'starter' });
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'https://dev.example.com/hook' } });
      expect(res.statusCode).toBe(201);
      const { rows } = await t.db.query<{ secret_sealed: Buffer; secret_key_ref: string }>('SELECT secret_sealed, secret_key_ref FROM webhook_subscriptions');
      expect(rows[0]!.secret_key_ref).toBe('db');
      expect((await t.db.query('SELECT 1 FROM webhook_fallback_key')).rowCount).toBe(1);
      expect(openSecret(await rootKey(t.config, t.db), rows[0]!.secret_sealed, res.json().id)).toBe(res.json().secret);
    } finally {
      await t.close();
    }
  });
});
