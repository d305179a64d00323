import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { saveSsoSettings } from '../../resolvers/accounts/sso-config.ts';
import type { SsoSettings } from '../../resolvers/accounts/sso-config.ts';
import { hashKey } from '../../resolvers/accounts/keys.ts';
import { accountIdOf, consoleAuth, exchange } from './helpers.ts';
import { browseProvider, startIdp } from './oidc.ts';
import type { TestIdp } from './oidc.ts';

const BASE = 'http://drugref.test';
const REDIRECT_URI = `${BASE}/console/api/sso/callback`;
const MASTER = { byolMasterKeys: { k1: randomBytes(32) }, byolActiveKeyId: 'k1' };

describe('console single sign-on against a real OpenID provider', () => {
  let idp: TestIdp;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startIdp(REDIRECT_URI);
    t = await startTestApp({ config: { publicBaseUrl: BASE, ssoAllowPrivateIssuers: true, ...MASTER } });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  /** An account of `tier` with SSO settings (overrides merged over the test provider's). */
  async function account(name: string, tier: 'enterprise' | 'growth', settings: Partial<SsoSettings> = {}): Promise<void> {
    await t.key({ tier, account: name });
    await saveSsoSettings(t.db, { keys: MASTER.byolMasterKeys, activeKeyId: 'k1' }, await accountIdOf(t, name), {
      issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, emailDomain: 'hospital.example', subjects: [], ...settings,
    });
  }

  const start = (name: string) => t.app.inject({ url: `/console/api/sso/start?account=${encodeURIComponent(name)}` });
  const callback = (url: URL) => t.app.inject({ url: `${url.pathname}${url.search}` });
  /** start → provider (login as `login`) → the callback's answer. */
  async function signInAs(name: string, login: string, options: { abort?: boolean } = {}) {
    const started = await start(name);
    expect(started.statusCode).toBe(302);
    return callback(await browseProvider(started.headers.location as string, REDIRECT_URI, login, options));
  }

  it('signs an enterprise account in: code + PKCE S256 + state + nonce, then the one-time token flow', async () => {
    await account('st-mary', 'enterprise');
    const started = await start('st-mary');
    expect(started.statusCode).toBe(302);
    expect(started.headers['cache-control']).toBe('no-store');
    const auth = new URL(started.headers.location as string);
    expect(auth.origin).toBe(idp.issuer);
    const params = Object.fromEntries(auth.searchParams);
    expect(params).toMatchObject({ response_type: 'code', client_id: idp.clientId, redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge_method: 'S256' });
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toBeTruthy();
    expect(params.nonce).toBeTruthy();
    // The state is kept only as a hash; the verifier never leaves the server.
    const flows = await t.db.query<{ state_hash: string; code_verifier: string }>('SELECT state_hash, code_verifier FROM console_sso_flows');
    expect(flows.rows.map((r) => r.state_hash)).toContain(hashKey(params.state!));
    expect(started.headers.location).not.toContain(flows.rows.find((r) => r.state_hash === hashKey(params.state!))!.code_verifier);

    const back = await browseProvider(auth.href, REDIRECT_URI, 'alice@hospital.example');
    expect(back.searchParams.get('state')).toBe(params.state);
    const done = await callback(back);
    expect(done.statusCode).toBe(302);
    expect(done.headers['referrer-policy']).toBe('no-referrer');
    const location = done.headers.location as string;
    expect(location).toMatch(/^\/console\/#login=dcl_[A-Za-z0-9_-]{43}$/);

    const session = await exchange(t, location.split('#login=')[1]);
    expect(session.statusCode).toBe(200);
    expect(session.json().account).toEqual({ name: 'st-mary', tier: 'enterprise' });
    const keys = await t.app.inject({ url: '/console/api/keys', headers: consoleAuth(session.json().console_token) });
    expect(keys.statusCode).toBe(200);
    expect(keys.json().tier_scopes).toContain('sso');
    const row = await t.db.query<{ via: string; subject: string }>('SELECT via, subject FROM console_sessions WHERE token_hash = $1', [hashKey(session.json().console_token)]);
    expect(row.rows[0]).toEqual({ via: 'sso', subject: 'alice@hospital.example' });

    // Neither the code, the state nor any token reaches a log line.
    const logs = t.logs.join('');
    expect(logs).toContain('/console/api/sso/callback?[unknown]=*&[unknown]=*');
    for (const secret of [back.searchParams.get('code')!, params.state!, location.split('#login=')[1]!, session.json().console_token]) expect(logs).not.toContain(secret);

    // The callback works once: the state is spent.
    const replay = await callback(back);
    expect(replay.statusCode).toBe(302);
    expect(replay.headers.location).toBe('/console/#error=sso_state_invalid');
  });

  it('refuses a state it did not issue, and a callback without one', async () => {
    await account('st-john', 'enterprise');
    await start('st-john');
    const forged = await t.app.inject({ url: '/console/api/sso/callback?code=abc&state=not-ours' });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toBe('/console/#error=sso_state_invalid');
    expect((await t.app.inject({ url: '/console/api/sso/callback?code=abc' })).headers.location).toBe('/console/#error=sso_state_invalid');
  });

  it('refuses a non-enterprise account clearly, and unknown or unconfigured accounts alike', async () => {
    const before = idp.requests();
    await account('growth-co', 'growth');
    const growth = await start('growth-co');
    expect(growth.statusCode).toBe(302);
    expect(growth.headers.location).toBe('/console/#error=sso_not_enterprise');
    expect((await start('nobody')).headers.location).toBe('/console/#error=sso_unavailable');
    await t.key({ tier: 'enterprise', account: 'no-sso' });
    expect((await start('no-sso')).headers.location).toBe('/console/#error=sso_unavailable');
    expect(idp.requests()).toBe(before);
    const missing = await t.app.inject({ url: '/console/api/sso/start' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'account' }] });
  });

  it('maps only a verified e-mail of the domain, or a listed subject', async () => {
    await account('st-luke', 'enterprise');
    expect((await signInAs('st-luke', 'mallory@evil.example')).headers.location).toBe('/console/#error=sso_not_allowed');
    expect((await signInAs('st-luke', 'unverified@hospital.example')).headers.location).toBe('/console/#error=sso_not_allowed');
    expect((await signInAs('st-luke', 'bob@sub.hospital.example')).headers.location).toBe('/console/#error=sso_not_allowed');
    await account('st-paul', 'enterprise', { emailDomain: null, subjects: ['svc-operator-7'] });
    expect((await signInAs('st-paul', 'svc-operator-7')).headers.location).toMatch(/^\/console\/#login=dcl_/);
    expect((await signInAs('st-paul', 'svc-operator-8')).headers.location).toBe('/console/#error=sso_not_allowed');
  });

  it('turns a refusal at the provider and provider failures into error codes without detail', async () => {
    await account('st-anne', 'enterprise');
    const denied = await signInAs('st-anne', 'alice@hospital.example', { abort: true });
    expect(denied.headers.location).toBe('/console/#error=sso_denied');

    await account('bad-secret', 'enterprise', { clientSecret: 'wrong' });
    expect((await signInAs('bad-secret', 'alice@hospital.example')).headers.location).toBe('/console/#error=sso_failed');

    await account('down', 'enterprise', { issuer: 'http://127.0.0.1:9' });
    expect((await start('down')).headers.location).toBe('/console/#error=sso_failed');
    expect(t.logs.join('')).toContain('console sso refused');
    expect(t.logs.join('')).not.toContain(idp.clientSecret);
  });

  it('stores the client secret sealed, never in plaintext', async () => {
    await account('sealed', 'enterprise');
    const { rows } = await t.db.query('SELECT * FROM console_sso WHERE account_id = $1', [await accountIdOf(t, 'sealed')]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(JSON.stringify(rows)).includes(idp.clientSecret)).toBe(false);
    expect(Buffer.from((rows[0] as { ciphertext: Uint8Array }).ciphertext).includes(Buffer.from(idp.clientSecret))).toBe(false);
  });
});

describe('console SSO outbound policy', () => {
  it('does not contact a loopback issuer unless private issuers are allowed', async () => {
    const idp = await startIdp(REDIRECT_URI);
    const t = await startTestApp({ config: { publicBaseUrl: BASE, ...MASTER } });
    try {
      await t.key({ tier: 'enterprise', account: 'private-idp' });
      await saveSsoSettings(t.db, { keys: MASTER.byolMasterKeys, activeKeyId: 'k1' }, await accountIdOf(t, 'private-idp'), {
        issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, emailDomain: 'hospital.example', subjects: [],
      });
      const res = await t.app.inject({ url: '/console/api/sso/start?account=private-idp' });
      expect(res.headers.location).toBe('/console/#error=sso_failed');
      expect(idp.requests()).toBe(0);
    } finally {
      await t.close();
      await idp.close();
    }
  });
});
