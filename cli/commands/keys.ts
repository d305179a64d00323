/** `drugref keys create|list|revoke` and `drugref accounts list` (arguments parsed in cli/program.ts). */
import { loadConfig } from '../../platform/config.ts';
import { createKey, listAccounts, listKeys, revokeKey } from '../../resolvers/accounts/keys.ts';
import { tierScopes } from '../../resolvers/accounts/tiers.ts';
import type { Scope, Tier } from '../../resolvers/accounts/tiers.ts';
import { openConfiguredDatabase } from '../database.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openConfiguredDatabase>>) => Promise<T>): Promise<T> {
  const db = await openConfiguredDatabase(loadConfig());
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** `keys create`: the scopes must lie inside the tier's, so the key never shows scopes the API refuses. */
export async function createKeyCommand(o: { tier: Tier; account: string; scopes?: Scope[]; test: boolean }): Promise<number> {
  const granted = tierScopes(o.tier);
  const outside = (o.scopes ?? []).filter((s) => !granted.has(s));
  if (outside.length) {
    process.stderr.write(`drugref: scope(s) ${outside.join(', ')} are not in the ${o.tier} tier; it grants: ${[...granted].join(', ')}\n`);
    return 2;
  }
  const created = await withDatabase((db) =>
    createKey(db, { account: o.account, tier: o.tier, ...(o.scopes ? { scopes: o.scopes } : {}), test: o.test }),
  );
  out(`Created key ${created.id} for account "${created.accountName}" (tier ${created.tier}), scopes: ${created.scopes.join(', ')}`);
  out('The key is shown once; store it now:');
  out(created.key);
  return 0;
}

/** `keys list`. */
export async function listKeysCommand(): Promise<number> {
  const keys = await withDatabase(listKeys);
  if (!keys.length) out('No keys. Create one with: npx drugref keys create --tier developer');
  for (const k of keys) {
    const state = k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active';
    out(`${k.id}  ${k.prefix}…${k.last_four}  ${k.account} (${k.tier})  ${state}  scopes: ${k.scopes.join(',')}`);
  }
  return 0;
}

/** `keys revoke <last4|id>`. */
export async function revokeKeyCommand(target: string): Promise<number> {
  const id = await withDatabase((db) => revokeKey(db, target));
  if (!id) {
    out(`No active key matches "${target}".`);
    return 1;
  }
  out(`Revoked key ${id}. Running instances stop accepting it within the key cache TTL (30 s).`);
  return 0;
}

/** `accounts list`. */
export async function listAccountsCommand(): Promise<number> {
  const accounts = await withDatabase(listAccounts);
  if (!accounts.length) out('No accounts.');
  for (const a of accounts) out(`${a.id}  ${a.name}  tier ${a.tier}  ${a.active_keys} active key(s)${a.is_demo ? '  (demo)' : ''}`);
  return 0;
}
