/**
 * Console single sign-on in Debian's Chromium against a real local OpenID provider
 * (oidc-provider, test/console/oidc.ts): the SSO form → the provider's own login and
 * consent pages → back to the console signed in; refusals land on the sign-in view with
 * a clear message and nothing left in the address bar.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { saveSsoSettings } from '../../../resolvers/accounts/sso-config.ts';
import { accountIdOf } from '../helpers.ts';
import { startIdp } from '../oidc.ts';
import type { TestIdp } from '../oidc.ts';
import { chromiumMissing, freePort, launchChromium, screenshot, startServedApp, watchPage } from './harness.ts';
import type { ServedApp } from './harness.ts';

const MASTER = { byolMasterKeys: { k1: randomBytes(32) }, byolActiveKeyId: 'k1' };
const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('console single sign-on in a real browser', () => {
  let browser: Browser;
  let idp: TestIdp;
  let served: ServedApp;

  beforeAll(async () => {
    const port = await freePort();
    idp = await startIdp(`http://127.0.0.1:${port}/console/api/sso/callback`);
    [browser, served] = await Promise.all([launchChromium(), startServedApp({ ssoAllowPrivateIssuers: true, ...MASTER }, { port, demo: false })]);
    for (const [name, tier] of [['st-mary', 'enterprise'], ['small-clinic', 'growth']] as const) {
      await served.t.key({ account: name, tier });
      await saveSsoSettings(served.t.db, { keys: MASTER.byolMasterKeys, activeKeyId: 'k1' }, await accountIdOf(served.t, name), {
        issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, emailDomain: 'hospital.example', subjects: [],
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await idp?.close();
  });

  /** A fresh browser profile (no provider session) on the console's sign-in view, SSO started for `account`. */
  async function startSso(account: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${served.base}/console/`);
    await page.getByLabel('Account name').fill(account);
    await page.getByRole('button', { name: 'Sign in with your company (SSO)' }).click();
    return page;
  }

  /** Logs in at the provider's own pages as `login` and consents. */
  async function loginAtProvider(page: Page, login: string): Promise<void> {
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: /sign-in/i }).click();
    await page.getByRole('button', { name: /continue/i }).click();
  }

  it('signs an enterprise account in through its identity provider', async () => {
    const page = await startSso('st-mary');
    const seen = watchPage(page);
    await loginAtProvider(page, 'nurse@hospital.example');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(page.url()).toBe(`${served.base}/console/#keys`);
    expect(await page.locator('#account-name').textContent()).toBe('st-mary');
    expect(await page.locator('#account-tier').textContent()).toBe('enterprise');
    // The session was opened by SSO, for the proven identity.
    const { rows } = await served.t.db.query<{ via: string; subject: string }>('SELECT via, subject FROM console_sessions');
    expect(rows).toEqual([{ via: 'sso', subject: 'nurse@hospital.example' }]);
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
    expect(seen).toEqual({ csp: [], errors: [] });
    await page.context().close();
  });

  it('an identity outside the account’s domain is refused with a clear message', async () => {
    const page = await startSso('st-mary');
    await loginAtProvider(page, 'visitor@elsewhere.example');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Single sign-on failed.');
    expect(await alert.textContent()).toContain('your identity is not allowed to use this account');
    expect(await alert.textContent()).toContain('(code: sso_not_allowed)');
    expect(page.url()).toBe(`${served.base}/console/`);
    expect(await page.locator('#nav').isHidden()).toBe(true);
    await screenshot(page, 'sign-in-sso-refused');
    await page.context().close();
  });

  it('an account without the sso scope never reaches the provider', async () => {
    const before = idp.requests();
    const page = await startSso('small-clinic');
    await page.getByText('Single sign-on is part of the enterprise plan').waitFor();
    expect(page.url()).toBe(`${served.base}/console/`);
    expect(idp.requests()).toBe(before);
    await page.context().close();
  });

  it('asks for the account name before leaving the page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${served.base}/console/`);
    await page.getByRole('button', { name: 'Sign in with your company (SSO)' }).click();
    expect(await page.getByText('Enter your account name.').isVisible()).toBe(true);
    expect(await page.getByLabel('Account name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate('document.activeElement?.id')).toBe('sso-account');
    expect(page.url()).toBe(`${served.base}/console/`);
    await context.close();
  });
});
