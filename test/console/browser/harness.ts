/**
 * Real-browser test harness: Debian's Chromium driven by playwright-core, against an app
 * listening on a loopback port. One browser per test file; tests skip with a message when
 * /usr/bin/chromium is missing (CI installs it, see .ci/run).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import type { Config } from '../../../platform/config.ts';
import { signInLink } from '../../../resolvers/accounts/console-sessions.ts';
import { DEMO_FX_FILE, loadFxFile } from '../../../resolvers/markets/fx-file.ts';
import { loadDemoInteractions } from '../../../workers/ingest/interactions.ts';
import { loginToken } from '../helpers.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser tests cannot run here, or null when they can. */
export function chromiumMissing(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  return `browser tests skipped: ${CHROMIUM_PATH} is missing (apt-get install -y chromium; CI installs it)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A free loopback port (the public base URL must be known before the app starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServedApp {
  t: TestApp;
  base: string;
  /** Moves the app's clock forward (key cache, sessions), on top of real time. */
  advance(ms: number): void;
  /** The link `drugref console login --account <name>` prints, for this app. */
  signInLink(account: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * An app listening on 127.0.0.1 at a real port. With `demo` (the default) its database
 * holds what `npm start` loads on first start: the demo catalogue, the demo interaction
 * set and the bundled ECB rates; without, just the migrated schema.
 */
export async function startServedApp(config: Partial<Config> = {}, options: { port?: number; demo?: boolean } = {}): Promise<ServedApp> {
  const port = options.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const demo = options.demo ?? true;
  const db = await openTestDatabase({ demo });
  if (demo) {
    await loadDemoInteractions(db);
    await loadFxFile(db, DEMO_FX_FILE);
  }
  let offset = 0;
  const t = await startTestApp({ db, now: () => new Date(Date.now() + offset), config: { publicBaseUrl: base, port, ...config } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    base,
    advance: (ms) => { offset += ms; },
    signInLink: async (account) => signInLink(t.config, await loginToken(t, account, new Date(Date.now() + offset))),
    close: async () => {
      await t.close();
      await db.close();
    },
  };
}

/** What went wrong in a page: CSP violations and uncaught errors (asserted empty by tests). */
export function watchPage(page: Page): { csp: string[]; errors: string[] } {
  const seen = { csp: [] as string[], errors: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.csp.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  return seen;
}

const SHOTS = join(import.meta.dirname, '../../../test-results/console');

/**
 * Saves a screenshot of a page (full length unless told) or of one element under
 * test-results/console/ (git-ignored), for looking at the design.
 */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage: options.fullPage ?? true });
  else await target.screenshot({ path });
}
