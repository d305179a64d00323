/**
 * First-start bootstrap of a demo installation: a demo account with a key printed once.
 * Later starts only say how to create another key (the plaintext is never stored).
 */
import type { Database } from '../platform/db.ts';
import { createKey } from '../resolvers/accounts/keys.ts';

export { ensureDemoCatalogue } from './demo-catalogue.ts';

export const DEMO_ACCOUNT = 'demo';
export const DEMO_TIER = 'enterprise';

/** Returns the lines to print: the new demo key, or how to make another. */
export async function ensureDemoAccount(db: Database): Promise<string[]> {
  const existing = await db.query('SELECT 1 FROM accounts WHERE is_demo');
  if (existing.rowCount > 0) {
    return [`Demo account exists. Create another key with: npx drugref keys create --tier ${DEMO_TIER} --account ${DEMO_ACCOUNT}`];
  }
  const created = await createKey(db, { account: DEMO_ACCOUNT, tier: DEMO_TIER, demo: true });
  return [`Demo API key: ${created.key}`];
}
