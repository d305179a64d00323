import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { hashKey } from '../../resolvers/accounts/keys.ts';
import { loadConfig } from '../../platform/config.ts';
import { accountIdOf, consoleAuth, exchange, loginToken, signIn } from './helpers.ts';

describe('console sign-in: one-time tokens and console tokens', () => {
  const clock = manualClock('2026-03-10T12:00:00Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ now: clock.now });
    await t.key({ tier: 'pro', account: 'acme' });
  });
  afterAll(() => t.close());

  const keys = (token: string) => t.app.inject({ url: '/console/api/keys', headers: consoleAuth(token) });

  it('exchanges a one-time token once for a 30-minute console token, storing only hashes, no cookie', async () => {
    clock.set('2026-03-10T12:00:00Z');
    const token = await loginToken(t, 'acme', clock.now());
    const res = await exchange(t, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    const body = res.json();
    expect(body).toEqual({ console_token: expect.stringMatching(/^dct_[A-Za-z0-9_-]{43}$/), expires_at: '2026-03-10T12:30:00.000Z', account: { name: 'acme', tier: 'pro' } });
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM console_sessions');
    expect(stored.rows.map((r) => r.token_hash)).toContain(hashKey(body.console_token));
    expect(JSON.stringify(stored.rows)).not.toContain(body.console_token);
    expect((await keys(body.console_token)).statusCode).toBe(200);

    const again = await exchange(t, token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'unauthorized', message: 'This sign-in link is unknown, already used or expired; ask for a new one.' });
  });

  it('lets only one of two concurrent exchanges of a token win', async () => {
    const token = await loginToken(t, 'acme', clock.now());
    const [a, b] = await Promise.all([exchange(t, token), exchange(t, token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
  });

  it('refuses a one-time token after ten minutes, an unknown one, and a body without one', async () => {
    clock.set('2026-03-10T13:00:00Z');
    const token = await loginToken(t, 'acme', clock.now());
    clock.advance(10 * 60_000);
    expect((await exchange(t, token)).statusCode).toBe(401);
    expect((await exchange(t, 'dcl_nothing')).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ error: 'validation', details: [{ location: 'body', field: 'token', message: "must have required property 'token'" }] });
    expect((await exchange(t, '')).statusCode).toBe(422);
    expect((await exchange(t, { token: 'x' })).statusCode).toBe(422);
  });

  it('refuses an expired console token, a missing one, an API key, and signs out with 204', async () => {
    clock.set('2026-03-10T14:00:00Z');
    const token = await signIn(t, 'acme', clock.now());
    clock.advance(30 * 60_000 - 1);
    expect((await keys(token)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await keys(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: 'unauthorized', message: 'The console token is unknown, signed out or expired; sign in again.' });

    const none = await t.app.inject({ url: '/console/api/keys' });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toContain('console token is required');
    const apiKey = await t.key({ tier: 'pro', account: 'acme' });
    expect((await keys(apiKey)).statusCode).toBe(401);

    const live = await signIn(t, 'acme', clock.now());
    expect((await t.app.inject({ url: '/v1/usage', headers: bearer(live) })).statusCode).toBe(401);
    const out = await t.app.inject({ method: 'DELETE', url: '/console/api/session', headers: consoleAuth(live) });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect((await keys(live)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/console/api/session', headers: consoleAuth(live) })).statusCode).toBe(401);
  });

  it('answers 405 with allow on known paths and a JSON 404 elsewhere under /console/api', async () => {
    const wrong = await t.app.inject({ method: 'GET', url: '/console/api/session' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST, DELETE');
    expect(wrong.json().error).toBe('method_not_allowed');
    const token = await signIn(t, 'acme', clock.now());
    for (const url of ['/console/api/nothing', '/console/api/v1/atc/N02', '/console/api/v1/drugs/00000000-0000-0000-0000-000000000000']) {
      const res = await t.app.inject({ url, headers: consoleAuth(token) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: `No operation answers GET ${url}.` });
    }
  });

  it('ends the sessions of a deleted account, and only those', async () => {
    const token = await signIn(t, 'acme', clock.now());
    await t.key({ tier: 'developer', account: 'short-lived' });
    const other = await signIn(t, 'short-lived', clock.now());
    await t.db.query('DELETE FROM accounts WHERE id = $1', [await accountIdOf(t, 'short-lived')]);
    expect((await keys(other)).statusCode).toBe(401);
    expect((await keys(token)).statusCode).toBe(200);
  });

  it('reads the console settings from the environment', () => {
    const base = { DATA_DIR: 'memory://' };
    expect(loadConfig(base)).toMatchObject({ consoleSessionTtlSeconds: 1800, publicBaseUrl: null, ssoAllowPrivateIssuers: false });
    expect(loadConfig({ ...base, CONSOLE_SESSION_TTL_SECONDS: '600', PUBLIC_BASE_URL: 'https://drugs.example.com/', SSO_ALLOW_PRIVATE_ISSUERS: 'true' }))
      .toMatchObject({ consoleSessionTtlSeconds: 600, publicBaseUrl: 'https://drugs.example.com', ssoAllowPrivateIssuers: true });
    expect(() => loadConfig({ ...base, CONSOLE_SESSION_TTL_SECONDS: '5' })).toThrow(/CONSOLE_SESSION_TTL_SECONDS must be an integer >= 60/);
  });
});
