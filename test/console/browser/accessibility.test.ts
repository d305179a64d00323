/**
 * axe-core in Debian's Chromium on every page a visitor or a signed-in account sees: the
 * landing page, the API reference (once Swagger UI has drawn it) and each console view.
 * The page's own Content-Security-Policy stays in force: axe is evaluated through the
 * browser's debugging protocol (as a person's browser extension would run), never through
 * a script tag the policy would have to allow, and no page is served differently in tests.
 * No critical or serious violation is allowed; the moderate `region` rule (content outside
 * every landmark) is held to zero as well.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, startServedApp, watchPage } from './harness.ts';
import type { ServedApp } from './harness.ts';

const ACCOUNT = 'a11y-clinic';
const missing = chromiumMissing();
if (missing) console.warn(missing);

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** axe's violations that block: critical and serious, and `region`. One line each, with up to three targets. */
async function blockingViolations(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious' || v.id === 'region')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.length} nodes, e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

describe.skipIf(missing !== null)('accessibility (axe-core) of every page and console view', () => {
  let browser: Browser;
  let served: ServedApp;
  let page: Page;
  let seen: ReturnType<typeof watchPage>;
  let axeSource = '';

  beforeAll(async () => {
    [browser, served, axeSource] = await Promise.all([
      launchChromium(), startServedApp(),
      readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
    ]);
    await served.t.key({ account: ACCOUNT, tier: 'pro' });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    seen = watchPage(page);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** Loads axe into the page as it stands (once per document) and returns what blocks. */
  async function audit(): Promise<string[]> {
    if ((await page.evaluate('typeof window.axe')) === 'undefined') await page.evaluate(axeSource);
    return blockingViolations(page);
  }

  it('the landing page', async () => {
    await page.goto(`${served.base}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await audit()).toEqual([]);
  });

  it('the API reference, drawn, with an operation open', async () => {
    await page.goto(`${served.base}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await audit()).toEqual([]);
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(await audit()).toEqual([]);
  });

  it('the console sign-in view and every signed-in view', async () => {
    await page.goto(`${served.base}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the drugref console' }).waitFor();
    const found: Record<string, string[]> = { 'sign-in': await audit() };
    await page.goto(await served.signInLink(ACCOUNT));
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    found.keys = await audit();
    for (const [view, heading] of [['usage', 'Usage'], ['lookups/drugs', 'Lookups'], ['lookups/markets', 'Lookups'], ['lookups/interactions', 'Lookups']] as const) {
      await page.evaluate((hash) => { (globalThis as unknown as { location: { hash: string } }).location.hash = hash; }, view);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      found[view] = await audit();
    }
    expect(found).toEqual({ 'sign-in': [], keys: [], usage: [], 'lookups/drugs': [], 'lookups/markets': [], 'lookups/interactions': [] });
    expect(seen).toEqual({ csp: [], errors: [] });
  });
});
