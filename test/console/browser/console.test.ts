/**
 * The console in Debian's Chromium against the app on a loopback port: sign in with a
 * one-time link, create a key and see it once, call the API with it, revoke it and see
 * the API refuse it once the key cache expires, run lookups and watch the usage meter move
 * by exactly one; the key limit, XSS, sign-out, keyboard and phone-width checks; and the
 * /docs reference with "try it out" on a typed key. Screenshots go to test-results/console/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, screenshot, startServedApp, watchPage } from './harness.ts';
import type { ServedApp } from './harness.ts';

const ACCOUNT = 'acme-health';
const KEY_CACHE_TTL_MS = 2_000;
const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('the console and the API reference in a real browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let served: ServedApp;
  let seen: ReturnType<typeof watchPage>;
  let createdKey = '';

  beforeAll(async () => {
    [browser, served] = await Promise.all([launchChromium(), startServedApp({ keyCacheTtlMs: KEY_CACHE_TTL_MS })]);
    // The account exists with one key made on the server (as `drugref keys create` would).
    await served.t.key({ account: ACCOUNT, tier: 'pro' });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.base });
    page = await context.newPage();
    // Fail with the step that hung, well inside the test's own timeout.
    page.setDefaultTimeout(10_000);
    seen = watchPage(page);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${served.base}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

  async function signIn(): Promise<void> {
    await page.goto(await served.signInLink(ACCOUNT));
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  }

  async function monthlyUsed(): Promise<number> {
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    const meter = page.getByRole('meter', { name: 'Requests this month' });
    await meter.waitFor();
    return Number(await meter.getAttribute('aria-valuenow'));
  }

  it('shows the sign-in view with SSO and the CLI command to a visitor', async () => {
    await page.goto(`${served.base}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the drugref console' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with your company (SSO)' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Account name').isVisible()).toBe(true);
    expect(await page.locator('pre.command').textContent()).toBe('npx drugref console login --account <name>');
    expect(await page.locator('#nav').isHidden()).toBe(true);
    await screenshot(page, 'sign-in');
  });

  it('signs in with a one-time link, drops the token from the address bar and stores nothing', async () => {
    const link = await served.signInLink(ACCOUNT);
    expect(link).toMatch(new RegExp(`^${served.base}/console/#login=dcl_`));
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(page.url()).toBe(`${served.base}/console/#keys`);
    expect(await page.locator('#account-name').textContent()).toBe(ACCOUNT);
    expect(await page.locator('#account-tier').textContent()).toBe('pro');
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
    const cookies = await context.cookies();
    expect(cookies).toEqual([]);

    // The link worked once: opening it again explains what to do instead.
    const second = await context.newPage();
    await second.goto(link);
    await second.getByText('This sign-in link does not work any more.').waitFor();
    expect(second.url()).toBe(`${served.base}/console/`);
    await second.close();
  });

  it('creates a key with narrowed scopes, shows it once with a copy button, and the key calls the API', async () => {
    await page.getByLabel('Name (optional)').fill('reporting job');
    await page.getByRole('checkbox', { name: /graphql:query/ }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('#new-key-value');
    await secret.waitFor();
    createdKey = await secret.inputValue();
    expect(createdKey).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(createdKey);
    await screenshot(page, 'keys-new-key');

    const row = page.locator('.keys-table tbody tr', { hasText: 'reporting job' });
    expect(await row.locator('.key-mask').textContent()).toBe(`svc_live_…${createdKey.slice(-4)}`);
    expect(await row.locator('.chip').allTextContents()).toEqual(['drugs:read', 'atc:read', 'changes:read', 'chat:write']);

    // Real HTTP with the new key: its scopes work, the one left out is refused.
    const atc = await api('/v1/atc/M01AE01', createdKey);
    expect(atc.status).toBe(200);
    expect(((await atc.json()) as { code: string }).code).toBe('M01AE01');
    const graphql = await api('/v1/graphql', createdKey, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(graphql.status).toBe(403);
    expect(await graphql.json()).toMatchObject({ error: 'forbidden', missing_scope: 'graphql:query' });

    // Dismissed, the plaintext is gone from the page for good.
    await page.getByRole('button', { name: /I have stored the key/ }).click();
    expect(await page.locator('#new-key-value').count()).toBe(0);
    expect(await page.content()).not.toContain(createdKey);
  });

  it('revokes the key after a confirmation; the API refuses it once the key cache expires', async () => {
    expect((await api('/v1/atc/M01AE01', createdKey)).status).toBe(200);
    const row = page.locator('.keys-table tbody tr', { hasText: 'reporting job' });
    await row.getByRole('button', { name: /^Revoke/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.locator('.pill').textContent()).toBe('Active');
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/^Revoked /).waitFor();
    expect(await row.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);

    served.advance(KEY_CACHE_TTL_MS + 1);
    const refused = await api('/v1/atc/M01AE01', createdKey);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('unauthorized');
  });

  it('a market lookup moves the monthly usage meter by exactly one', async () => {
    const before = await monthlyUsed();
    await page.getByRole('link', { name: 'Lookups', exact: true }).click();
    await page.getByRole('link', { name: 'Market prices' }).click();
    await page.getByLabel('Substance, brand, code or ATC').fill('ibuprofen');
    await page.getByRole('button', { name: 'Compare prices' }).click();
    await page.getByRole('heading', { name: 'Prices for ibuprofen' }).waitFor();
    const markets = page.locator('.market-table tbody tr');
    expect(await markets.count()).toBeGreaterThan(5);
    expect(await markets.first().locator('td').nth(1).textContent()).toBe('per DDD');
    await screenshot(page, 'lookups-markets');
    expect(await monthlyUsed()).toBe(before + 1);
    expect(await page.locator('.data-table tr', { hasText: 'Console lookups' }).locator('td').nth(1).textContent()).toBe('1');
    // The chart has a bar for every day of the month so far.
    const days = new Date().getUTCDate();
    expect(await page.locator('svg.chart rect').count()).toBe(days);
    await screenshot(page, 'usage');
  });

  it('searches drugs and renders a profile as a product page', async () => {
    await page.getByRole('link', { name: 'Lookups', exact: true }).click();
    await page.getByLabel('Name or code').fill('Algifor');
    await page.getByLabel('Country').selectOption('CH');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('.result').first();
    await first.waitFor();
    await screenshot(page, 'lookups-search');
    const name = await first.locator('.result-title').textContent();
    await first.click();
    const title = page.getByRole('heading', { level: 2, name: name! });
    await title.waitFor();
    const profile = page.locator('article.profile');
    expect(await profile.locator('.facts dt').allTextContents()).toContain('ATC');
    expect(await profile.locator('.breadcrumb').textContent()).toContain('M01AE01');
    expect(await profile.locator('h3').allTextContents()).toEqual(expect.arrayContaining(['Ingredients', 'Packs and prices']));
    expect(await profile.textContent()).toMatch(/CHF\s?\d/);
    // A product page, not a JSON dump.
    expect(await profile.textContent()).not.toContain('"product_name"');
    await screenshot(page, 'lookups-profile');
  });

  it('checks interactions and codes each finding by severity', async () => {
    await page.getByRole('link', { name: 'Interaction check' }).click();
    await page.getByRole('textbox', { name: 'Drug 1' }).fill('warfarin');
    await page.getByRole('textbox', { name: 'Drug 2' }).fill('ibuprofen');
    await page.getByRole('button', { name: '+ Add drug' }).click();
    await page.getByRole('textbox', { name: 'Drug 3' }).fill('aspirin');
    await page.getByRole('button', { name: 'Check interactions' }).click();
    await page.getByRole('heading', { name: /interactions? found/ }).waitFor();
    const badges = await page.locator('.interaction-list .sev-badge').allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    expect(badges[0]).toBe('Major');
    expect(await page.locator('.interaction.sev-major').count()).toBeGreaterThan(0);
    // The live region is emptied and set again 30 ms later, so screen readers announce it anew.
    await page.locator('#status').filter({ hasText: /interactions found/ }).waitFor();
    await screenshot(page, 'lookups-interactions');
  });

  it('shows the server’s key-limit refusal verbatim', async () => {
    // Fill the pro plan's five active keys from the server side, then ask for one more.
    const active = async () => Number((await served.t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.name = $1 AND k.revoked_at IS NULL", [ACCOUNT])).rows[0]!.n);
    while ((await active()) < 5) await served.t.key({ account: ACCOUNT, tier: 'pro' });
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    const answer = page.waitForResponse((r) => r.url().endsWith('/console/api/keys') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create key' }).click();
    const refusal = await answer;
    expect(refusal.status()).toBe(422);
    const { message } = (await refusal.json()) as { message: string };
    await page.locator('.form-error .notice-error').waitFor();
    expect(await page.locator('.form-error .notice-error').textContent()).toBe(message);
    expect(await page.getByText('You have reached your plan’s limit of 5 active keys.', { exact: false }).isVisible()).toBe(true);
    await screenshot(page, 'keys-limit');
  });

  it('renders server strings as text, never as markup', async () => {
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    const row = page.locator('.keys-table tbody tr').filter({ has: page.getByRole('button', { name: /^Revoke/ }) }).first();
    await row.waitFor();
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/4 of 5/).waitFor();
    const evil = '<img src=x onerror="window.__pwned=1">';
    await page.getByLabel('Name (optional)').fill(evil);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key-value').waitFor();
    await page.getByRole('button', { name: /I have stored the key/ }).click();
    const cell = page.locator('.keys-table .key-name', { hasText: evil });
    expect(await cell.textContent()).toBe(evil);
    expect(await page.locator('.keys-table img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
  });

  it('moves through the page by keyboard with a visible focus ring', async () => {
    await page.goto(`${served.base}/console/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    // Evaluated in the page (strings: the project's TypeScript has no DOM library).
    const focus = await page.evaluate(`(() => {
      const style = getComputedStyle(document.activeElement);
      return { tag: document.activeElement.tagName, outline: style.outlineStyle, width: style.outlineWidth };
    })()`);
    expect(focus).toEqual({ tag: 'A', outline: 'solid', width: '3px' });
  });

  it('is usable at 375 px: nothing scrolls sideways', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    const small = await phone.newPage();
    const phoneSeen = watchPage(small);
    await small.goto(await served.signInLink(ACCOUNT));
    for (const [hash, ready, name] of [['#keys', '.keys-table', 'keys'], ['#usage', 'svg.chart', 'usage'], ['#lookups/markets', '#market-q', 'lookups']] as const) {
      await small.evaluate(`location.hash = ${JSON.stringify(hash)}`);
      await small.locator(ready).first().waitFor();
      expect(await small.evaluate('document.documentElement.scrollWidth'), hash).toBeLessThanOrEqual(375);
      await screenshot(small, `phone-${name}`);
    }
    expect(phoneSeen).toEqual({ csp: [], errors: [] });
    await phone.close();
  });

  it('signs out: the console token stops working and a dead session returns to sign-in', async () => {
    await signIn();
    let token = '';
    page.on('request', (r) => {
      const auth = r.headers().authorization;
      if (r.url().includes('/console/api/') && auth) token = auth.slice('Bearer '.length);
    });
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('meter', { name: 'Requests this month' }).waitFor();
    expect(token).toMatch(/^dct_/);
    // Ended elsewhere (as another tab's sign-out would): the next call lands on sign-in.
    expect((await fetch(`${served.base}/console/api/session`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByText('Your console session is no longer valid.').waitFor();

    await signIn();
    const signOut = page.waitForResponse((r) => r.url().endsWith('/console/api/session') && r.request().method() === 'DELETE');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect((await signOut).status()).toBe(204);
    await page.getByText('You are signed out.').waitFor();
    const after = await fetch(`${served.base}/console/api/keys`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it('never violated its Content-Security-Policy and threw no error', () => {
    expect(seen).toEqual({ csp: [], errors: [] });
  });

  it('renders the operations of /v1/openapi.json and "try it out" works with a typed key kept in memory', async () => {
    const key = await served.t.key({ account: 'docs-reader', tier: 'pro' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    const seen = watchPage(page);
    await page.goto(`${served.base}/`);
    await page.locator('header.site-header').getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${served.base}/docs`);
    await page.locator('.opblock').first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    expect(paths.length).toBeGreaterThan(30);
    expect(paths).toEqual(expect.arrayContaining(['/v1/drugs', '/v1/atc/{code}', '/v1/openapi.json']));
    await screenshot(page, 'docs', { fullPage: false });

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.getByLabel('auth-bearer-value').fill(key);
    await page.getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('.modal-ux').getByRole('button', { name: 'Close', exact: true }).click();

    const op = page.locator('#operations-atc-getAtcNode');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.locator('input[placeholder="code"]').fill('M01AE01');
    const call = page.waitForResponse((r) => r.url() === `${served.base}/v1/atc/M01AE01`);
    await op.getByRole('button', { name: 'Execute' }).click();
    const response = await call;
    expect(response.request().headers().authorization).toBe(`Bearer ${key}`);
    expect(response.status()).toBe(200);
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await op.locator('.live-responses-table .highlight-code').first().textContent()).toContain('M01AE01');
    await screenshot(op, 'docs-try-it');

    // The key lives only in page memory.
    const stored = await page.evaluate('JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie])');
    expect(stored).not.toContain(key);
    expect(seen).toEqual({ csp: [], errors: [] });
    await page.close();
  });
});
