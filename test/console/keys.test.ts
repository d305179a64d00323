import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { consoleAuth, signIn } from './helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DEVELOPER_SCOPES = ['drugs:read', 'atc:read', 'changes:read', 'chat:write'];

describe('console keys', () => {
  const clock = manualClock('2026-03-10T12:00:00Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ now: clock.now, config: { keyCacheTtlMs: 30_000 } });
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  const list = (token: string) => t.app.inject({ url: '/console/api/keys', headers: consoleAuth(token) });
  const create = (token: string, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url: '/console/api/keys', headers: consoleAuth(token), payload: payload as object });
  const revoke = (token: string, id: string) => t.app.inject({ method: 'DELETE', url: `/console/api/keys/${id}`, headers: consoleAuth(token) });

  it('lists the account\'s keys with its tier, limit and scopes, never a key', async () => {
    const existing = await t.key({ tier: 'developer', account: 'dev-co' });
    const token = await signIn(t, 'dev-co');
    const res = await list(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      keys: [{ id: expect.stringMatching(UUID), name: null, prefix: 'svc_live_', last4: existing.slice(-4), scopes: DEVELOPER_SCOPES, created_at: expect.any(String), last_used_at: null, revoked_at: null }],
      limit: 2,
      tier: 'developer',
      tier_scopes: DEVELOPER_SCOPES,
    });
    expect(res.body).not.toContain(existing);
  });

  it('creates a narrowed key whose plaintext is shown once, works at /v1 within its scopes, and records its last use', async () => {
    const token = await signIn(t, 'dev-co');
    const res = await create(token, { name: ' CI pipeline ', scopes: ['atc:read', 'drugs:read'] });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { key, plaintext } = res.json();
    expect(plaintext).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(key).toEqual({ id: expect.stringMatching(UUID), name: 'CI pipeline', prefix: 'svc_live_', last4: plaintext.slice(-4), scopes: ['drugs:read', 'atc:read'], created_at: expect.any(String), last_used_at: null, revoked_at: null });

    expect((await t.app.inject({ url: '/v1/atc/N02', headers: bearer(plaintext) })).statusCode).toBe(200);
    const outside = await t.app.inject({ url: '/v1/changes', headers: bearer(plaintext) });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ error: 'forbidden', missing_scope: 'changes:read' });

    const listed = await list(token);
    expect(listed.body).not.toContain(plaintext);
    const again = listed.json().keys.find((k: { id: string }) => k.id === key.id);
    expect(again).toEqual({ ...key, last_used_at: '2026-03-10T12:00:00.000Z' });
    const stored = await t.db.query('SELECT * FROM api_keys WHERE id = $1', [key.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(plaintext);
  });

  it('refuses scopes outside the tier and unknown scopes with 422, naming them', async () => {
    const token = await signIn(t, 'dev-co');
    const outside = await create(token, { scopes: ['drugs:read', 'webhooks:write'] });
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toEqual({
      error: 'validation',
      message: 'Scope(s) webhooks:write are not in the developer tier; it grants: drugs:read, atc:read, changes:read, chat:write.',
      details: [{ location: 'body', field: 'scopes', message: 'Scope(s) webhooks:write are not in the developer tier; it grants: drugs:read, atc:read, changes:read, chat:write.' }],
    });
    const unknown = await create(token, { scopes: ['admin'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('Unknown scope(s): admin.');
    const empty = await create(token, { scopes: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().details).toEqual([{ location: 'body', field: 'scopes', message: 'must NOT have fewer than 1 items' }]);
    expect((await create(token, { name: 'x', plaintext: 'mine' })).statusCode).toBe(422);
  });

  it('enforces the tier\'s key limit with a message to show, and frees a slot on revocation', async () => {
    const token = await signIn(t, 'dev-co');
    const refused = await create(token, { name: 'third' });
    expect(refused.statusCode).toBe(422);
    const message = "This account already has 2 active keys, the developer tier's limit. Revoke a key you no longer use, or upgrade for more.";
    expect(refused.json()).toEqual({ error: 'validation', message, details: [{ location: 'body', field: null, message }], tier: 'developer', limit: 2 });
    const [first] = (await list(token)).json().keys.filter((k: { name: string | null }) => k.name === null);
    const revoked = await revoke(token, first.id);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ key: { ...first, revoked_at: expect.any(String) } });
    expect((await create(token, { name: 'third' })).statusCode).toBe(201);
  });

  it('creates a key with every scope of the tier for an empty body, and wants a JSON body', async () => {
    await t.key({ tier: 'pro', account: 'defaults-co' });
    const token = await signIn(t, 'defaults-co');
    const empty = await create(token, {});
    expect(empty.statusCode).toBe(201);
    expect(empty.json().key).toMatchObject({ name: null, scopes: [...DEVELOPER_SCOPES, 'graphql:query'] });
    const absent = await t.app.inject({ method: 'POST', url: '/console/api/keys', headers: consoleAuth(token) });
    expect(absent.statusCode).toBe(422);
    expect(absent.json()).toMatchObject({ error: 'validation', details: [{ location: 'body', field: null }] });
  });

  it('lets only one of two concurrent creations take the last slot', async () => {
    await t.key({ tier: 'developer', account: 'race-co' });
    const token = await signIn(t, 'race-co');
    const results = await Promise.all([create(token), create(token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  });

  it('answers 404 for another account\'s key and an unknown id, 422 for an id that is no uuid', async () => {
    const theirs = await t.key({ tier: 'pro', account: 'other-co' });
    const theirId = (await t.db.query<{ id: string }>('SELECT id FROM api_keys WHERE last_four = $1', [theirs.slice(-4)])).rows[0]!.id;
    const token = await signIn(t, 'dev-co');
    const cross = await revoke(token, theirId);
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ error: 'not_found', message: 'A key with that id in this account was not found.' });
    expect((await t.app.inject({ url: '/v1/usage', headers: bearer(theirs) })).statusCode).toBe(200);
    expect((await revoke(token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const bad = await revoke(token, 'abcd');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toMatchObject({ location: 'path', field: 'id' });
    const otherToken = await signIn(t, 'other-co');
    expect((await list(otherToken)).json().keys.map((k: { last4: string }) => k.last4)).toEqual([theirs.slice(-4)]);
  });

  it('refuses a revoked key at /v1 once the key cache TTL has passed', async () => {
    clock.set('2026-03-11T09:00:00Z');
    await t.key({ tier: 'pro', account: 'revoke-co' });
    const token = await signIn(t, 'revoke-co');
    const { key, plaintext } = (await create(token, { name: 'to revoke' })).json();
    expect((await t.app.inject({ url: '/v1/usage', headers: bearer(plaintext) })).statusCode).toBe(200);
    const first = await revoke(token, key.id);
    expect(first.statusCode).toBe(200);
    // Still accepted from the cache (spec: up to 30 s) ...
    clock.advance(29_000);
    expect((await t.app.inject({ url: '/v1/usage', headers: bearer(plaintext) })).statusCode).toBe(200);
    // ... and refused once the cached entry expired.
    clock.advance(1_001);
    const refused = await t.app.inject({ url: '/v1/usage', headers: bearer(plaintext) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'unauthorized', message: 'The API key is unknown or revoked.' });
    // Revoking again keeps the first revocation time.
    const twice = await revoke(token, key.id);
    expect(twice.statusCode).toBe(200);
    expect(twice.json().key.revoked_at).toBe(first.json().key.revoked_at);
  });
});
