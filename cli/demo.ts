/**
 * First-start bootstrap of a demo installation: a demo account with a key printed once.
 * Later starts only say how to create another key (the plaintext is never stored).
 */
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import { createKey } from '../resolvers/accounts/keys.ts';
import { findAccount, issueLoginToken, LOGIN_TOKEN_TTL_MS, signInLink } from '../resolvers/accounts/console-sessions.ts';

import { ensureDemoCatalogue as ensureCatalogue } from './demo-catalogue.ts';
import type { DemoLoad } from './demo-catalogue.ts';
import type { IngestOptions } from '../workers/ingest/engine.ts';
import { loadDemoInteractions } from '../workers/ingest/interactions.ts';
import { DEMO_FX_FILE, loadFxFile } from '../resolvers/markets/fx-file.ts';

/**
 * The demo catalogue (first start only), then the reference tables next to it: the
 * demonstration interaction set when the catalogue is the demo one and no interaction rules
 * exist, and the bundled ECB reference rates whenever the rate table is empty (real data,
 * so a register installation gets USD prices too).
 */
export async function ensureDemoCatalogue(db: Database, options: IngestOptions = {}, onLoading?: () => void): Promise<DemoLoad> {
  const load = await ensureCatalogue(db, options, onLoading);
  const lines: string[] = [];
  if (load.state !== 'skipped' && (await db.query('SELECT 1 FROM interaction_rules LIMIT 1')).rowCount === 0) {
    const r = await loadDemoInteractions(db);
    lines.push(`Demo interaction set loaded: ${r.open.insert} rules with ${r.licensed.insert} licensed texts (demonstration data, not for clinical use).`);
  }
  if ((await db.query('SELECT 1 FROM fx_rates LIMIT 1')).rowCount === 0) {
    const r = await loadFxFile(db, DEMO_FX_FILE);
    lines.push(`ECB reference rates loaded (${r.dates.at(-1)}); replace with: npx drugref reference fx eurofxref.csv`);
  }
  return lines.length ? { ...load, line: [load.line, ...lines].join('\n') } : load;
}

export const DEMO_ACCOUNT = 'demo';
export const DEMO_TIER = 'enterprise';

/** The lines to print (the new demo key, or how to make another) and whether the account is new. */
export async function ensureDemoAccount(db: Database): Promise<{ lines: string[]; created: boolean }> {
  const existing = await db.query('SELECT 1 FROM accounts WHERE is_demo');
  if (existing.rowCount > 0) {
    return {
      lines: [`Demo account exists. Create another key with: npx drugref keys create --tier ${DEMO_TIER} --account ${DEMO_ACCOUNT}`],
      created: false,
    };
  }
  const created = await createKey(db, { account: DEMO_ACCOUNT, tier: DEMO_TIER, demo: true });
  return { lines: [`Demo API key: ${created.key}`], created: true };
}

/**
 * The first start's console sign-in line for the demo account, with a link to `origin` (the
 * address just listened on) unless PUBLIC_BASE_URL names the public one.
 */
export async function demoSignInLine(db: Database, config: Config, origin: string): Promise<string> {
  const account = await findAccount(db, DEMO_ACCOUNT);
  if (!account) throw new Error('The demo account is missing; it was created moments ago.');
  const { token } = await issueLoginToken(db, { accountId: account.id, via: 'cli' }, new Date());
  const link = signInLink({ ...config, publicBaseUrl: config.publicBaseUrl ?? origin }, token);
  return `Console sign-in link: ${link} (works once, for ${LOGIN_TOKEN_TTL_MS / 60_000} minutes; another with: npx drugref console login --account ${DEMO_ACCOUNT})`;
}
