import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { revokeKey } from '../../resolvers/accounts/keys.ts';

const URL = '/v1/atc/N02';

describe('authentication', () => {
  const clock = manualClock('2026-03-10T12:00:00Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ now: clock.now, config: { keyCacheTtlMs: 30_000 } });
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  const unauthorized = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
  };

  it('accepts svc_live_ and svc_test_ keys as a bearer token', async () => {
    for (const test of [false, true]) {
      const key = await t.key({ test });
      expect(key).toMatch(test ? /^svc_test_[A-Za-z0-9_-]{32}$/ : /^svc_live_[A-Za-z0-9_-]{32}$/);
      const res = await t.app.inject({ url: URL, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-service-tier']).toBe('enterprise');
    }
  });

  it('answers 401 without a header, with another scheme, or with a malformed key', async () => {
    unauthorized(await t.app.inject({ url: URL }));
    unauthorized(await t.app.inject({ url: URL, headers: { authorization: 'Basic dXNlcjpwYXNz' } }));
    unauthorized(await t.app.inject({ url: URL, headers: { authorization: 'Bearer' } }));
    unauthorized(await t.app.inject({ url: URL, headers: bearer('svc_live_short') }));
    unauthorized(await t.app.inject({ url: URL, headers: bearer(`svc_live_${'A'.repeat(32)}`) }));
  });

  it('never accepts a key from a query parameter or another header', async () => {
    const key = await t.key();
    unauthorized(await t.app.inject({ url: `${URL}?api_key=${key}` }));
    unauthorized(await t.app.inject({ url: URL, headers: { 'x-api-key': key } }));
    unauthorized(await t.app.inject({ url: URL, headers: { authorization: key } }));
  });

  it('refuses legacy_live_ and legacy_test_ keys and says a replacement is needed', async () => {
    for (const prefix of ['legacy_live_', 'legacy_test_']) {
      const res = await t.app.inject({ url: URL, headers: bearer(`${prefix}${'x'.repeat(32)}`) });
      unauthorized(res);
      expect((res.json() as { message: string }).message).toMatch(/replacement/);
    }
  });

  it('answers 401 before any body is parsed or validated', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/atc/not-a-code!', headers: { 'content-type': 'application/json' }, payload: '{bad json' });
    unauthorized(res);
  });

  it('keeps accepting a revoked key until the cache TTL passes, then answers 401', async () => {
    const key = await t.key();
    expect((await t.app.inject({ url: URL, headers: bearer(key) })).statusCode).toBe(200);
    expect(await revokeKey(t.db, key.slice(-4))).toEqual(expect.any(String));
    clock.advance(29_000);
    expect((await t.app.inject({ url: URL, headers: bearer(key) })).statusCode).toBe(200);
    clock.advance(1_001);
    unauthorized(await t.app.inject({ url: URL, headers: bearer(key) }));
  });

  it('rejects a revoked key at once when nothing cached it', async () => {
    const key = await t.key();
    await revokeKey(t.db, key.slice(-4));
    unauthorized(await t.app.inject({ url: URL, headers: bearer(key) }));
  });
});

describe('scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  it('answers 403 forbidden with tier and missing_scope when the key was narrowed', async () => {
    const key = await t.key({ tier: 'growth', scopes: ['drugs:read'] });
    const res = await t.app.inject({ url: URL, headers: bearer(key) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', message: expect.stringContaining('atc:read'), tier: 'growth', missing_scope: 'atc:read' });
    expect(Object.keys(res.json())[0]).toBe('error');
  });

  it('grants a scope only when both tier and key hold it', async () => {
    const key = await t.key({ tier: 'developer', scopes: ['atc:read', 'byol:write'] });
    const ok = await t.app.inject({ url: URL, headers: bearer(key) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-service-tier']).toBe('developer');
  });
});
