/**
 * The landing page and the console's newcomer paths in Debian's Chromium, on an app with
 * the demo catalogue: what drugref is, the plans, a first curl, each register's freshness,
 * the demo-data banner, one header across /, /docs and /console, the sign-in view with the
 * one-time link first, search that says more drugs match, and the profile's section
 * navigation; at 1280 and 375 px, with nothing fetched from another origin.
 * Screenshots go to test-results/console/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, screenshot, startServedApp, watchPage } from './harness.ts';
import type { ServedApp } from './harness.ts';
import { cachedSourceStatuses } from '../../../resolvers/sources/status.ts';

const ACCOUNT = 'newcomer';
const missing = chromiumMissing();
if (missing) console.warn(missing);

describe.skipIf(missing !== null)('the landing page and the console for a newcomer', () => {
  let browser: Browser;
  let served: ServedApp;
  const contexts: BrowserContext[] = [];
  /** Every URL any page asked for: all must be this server's. */
  const requested: string[] = [];
  const problems: Array<ReturnType<typeof watchPage>> = [];

  beforeAll(async () => {
    [browser, served] = await Promise.all([launchChromium(), startServedApp()]);
    await served.t.key({ account: ACCOUNT, tier: 'pro' });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  async function open(width: number): Promise<Page> {
    const phone = width < 600;
    const context = await browser.newContext({ viewport: { width, height: phone ? 800 : 900 }, isMobile: phone, hasTouch: phone });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('request', (r) => requested.push(r.url()));
    problems.push(watchPage(page));
    return page;
  }

  const horizontalOverflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  it('at 1280 px says what drugref is, how to get a key, a first request, the plans and each register’s freshness', async () => {
    const page = await open(1280);
    await page.goto(`${served.base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('behind one key');
    // The demo catalogue is loaded: the banner says so before anything else on the page.
    const banner = page.getByRole('region', { name: 'Demo data' });
    expect(await banner.textContent()).toContain('not for clinical use');

    await page.getByRole('link', { name: 'Get an API key' }).click();
    expect(await page.locator('#get-a-key pre').first().textContent()).toBe('npx drugref keys create --tier developer --account <your-account>');
    const free = page.locator('.tiers-table tbody tr', { hasText: 'Free' });
    expect(await free.locator('td').allTextContents()).toEqual(['Free developer', '10', '10', '2']);
    expect(await page.locator('.tiers-table tbody tr').count()).toBe(5);
    expect(await page.locator('pre').nth(1).textContent()).toBe(`curl -H "Authorization: Bearer $KEY" "${served.base}/v1/drugs?q=ibuprofen&country=ALL&limit=5"`);

    // One row per source the server knows, each with a state.
    const known = await cachedSourceStatuses(served.t.db, new Date());
    const rows = page.locator('.sources-table tbody tr');
    expect(await rows.locator('td[data-label="Register"]').allTextContents()).toEqual(known.map((s) => `${s.name}${s.demo ? ' Demo' : ''}`));
    const states = new Set(await rows.locator('td[data-label="State"]').allTextContents());
    expect([...states].every((s) => ['Current', 'Stale', 'Not fetched yet'].includes(s))).toBe(true);
    expect(await rows.first().locator('.pill', { hasText: 'Demo' }).count()).toBe(1);

    // The logo sits on the content's edge, not outside it.
    const brand = await page.locator('.site-brand').boundingBox();
    const title = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(Math.abs(brand!.x - title!.x)).toBeLessThanOrEqual(1);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'landing-1280');
  });

  it('at 375 px reads without sideways scrolling', async () => {
    const page = await open(375);
    await page.goto(`${served.base}/`);
    await page.locator('.sources-table').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await page.getByRole('region', { name: 'Demo data' }).isVisible()).toBe(true);
    await screenshot(page, 'landing-375');
    await screenshot(page, 'landing-375-top', { fullPage: false });
    await page.locator('#get-a-key').scrollIntoViewIfNeeded();
    await screenshot(page, 'landing-375-key', { fullPage: false });
    await page.evaluate('document.getElementById("sources").scrollIntoView()');
    await page.waitForFunction('window.scrollY > 1000');
    await screenshot(page, 'landing-375-sources', { fullPage: false });
  });

  it('keeps one header across /, /docs and /console, marking where you are', async () => {
    const page = await open(1280);
    await page.goto(`${served.base}/`);
    const header = page.locator('header.site-header');
    const names = () => header.getByRole('link').allTextContents();
    const before = await names();
    expect(before.map((n) => n.trim())).toEqual(['drugref', 'Overview', 'API reference', 'Console']);
    expect(await header.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');

    await header.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${served.base}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await names()).toEqual(before);
    expect(await header.getByRole('link', { name: 'API reference' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'docs-header-1280', { fullPage: false });

    await header.getByRole('link', { name: 'Console' }).click();
    await page.waitForURL(`${served.base}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the drugref console' }).waitFor();
    expect(await names()).toEqual(before);
    expect(await header.getByRole('link', { name: 'Console' }).getAttribute('aria-current')).toBe('page');
    // The console shows the same demo banner, and the one-time link before single sign-on.
    expect(await page.getByRole('region', { name: 'Demo data' }).isVisible()).toBe(true);
    expect(await page.locator('.signin-grid h2').allTextContents()).toEqual(['One-time sign-in link', 'Single sign-on']);
    await screenshot(page, 'console-sign-in-1280');
  });

  it('says when more drugs match than the page holds, and shows more on request', async () => {
    const page = await open(1280);
    await page.goto(await served.signInLink(ACCOUNT));
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.evaluate('location.hash = "#lookups/drugs"');
    await page.getByLabel('Name or code').fill('a');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('.result').first().waitFor();
    expect(await page.locator('.result').count()).toBe(20);
    expect(await page.locator('.summary').textContent()).toBe('Showing the first 20 results for “a”; more drugs match.');
    await screenshot(page, 'console-search-more-1280');
    await page.getByRole('button', { name: 'Show more results' }).click();
    await page.locator('.result').nth(20).waitFor();
    const shown = await page.locator('.result').count();
    expect(shown).toBeGreaterThan(20);
    expect(shown).toBeLessThanOrEqual(99);
  });

  for (const width of [1280, 375]) {
    it(`gives the long drug profile in-page navigation at ${width} px`, async () => {
      const page = await open(width);
      await page.goto(await served.signInLink(ACCOUNT));
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await page.evaluate('location.hash = "#lookups/drugs"');
      await page.getByLabel('Name or code').fill('Algifor');
      await page.getByLabel('Country').selectOption('CH');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('.result').first().click();
      const nav = page.getByRole('navigation', { name: 'Sections of this profile' });
      await nav.waitFor();
      const links = await nav.getByRole('link').allTextContents();
      expect(links.slice(0, 2)).toEqual(['Ingredients', 'Packs and prices']);
      expect(links).toContain('Other markets');
      const hash = await page.evaluate('location.hash');

      await nav.getByRole('link', { name: 'Other markets' }).click();
      const heading = page.getByRole('heading', { level: 3, name: 'Same substances on other markets' });
      // The heading has focus and sits in view below the navigation, which stays at the
      // top while the page scrolls; the console's route (the fragment) is unchanged.
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Same substances on other markets');
      expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
      const navBox = await nav.boundingBox();
      expect(Math.round(navBox!.y)).toBe(0);
      const box = await heading.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(navBox!.y + navBox!.height);
      expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      expect(await page.evaluate('location.hash')).toBe(hash);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `console-profile-nav-${width}`, { fullPage: false });
    });
  }

  it('fetched nothing from another origin and broke no CSP rule', async () => {
    for (const context of contexts) await context.close();
    expect(requested.length).toBeGreaterThan(20);
    expect(requested.filter((url) => !url.startsWith(`${served.base}/`))).toEqual([]);
    for (const seen of problems) expect(seen).toEqual({ csp: [], errors: [] });
  });
});
