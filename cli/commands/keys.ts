/** `drugref keys create|list|revoke` and `drugref accounts list`. */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../platform/config.ts';
import { createKey, listAccounts, listKeys, revokeKey } from '../../resolvers/accounts/keys.ts';
import { isScope, isTier, TIERS } from '../../resolvers/accounts/tiers.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import { openConfiguredDatabase } from '../database.ts';
import type { Command } from './types.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openConfiguredDatabase>>) => Promise<T>): Promise<T> {
  const db = await openConfiguredDatabase(loadConfig());
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function parseScopes(raw: string | undefined): Scope[] | undefined {
  if (raw === undefined) return undefined;
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new Error(`Unknown scope(s): ${unknown.join(', ')}`);
  return scopes as Scope[];
}

async function create(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { tier: { type: 'string' }, account: { type: 'string' }, scopes: { type: 'string' }, test: { type: 'boolean' } },
  });
  if (!values.tier || !isTier(values.tier)) throw new Error(`--tier is required: one of ${TIERS.join(', ')}`);
  const scopes = parseScopes(values.scopes);
  const created = await withDatabase((db) =>
    createKey(db, { account: values.account ?? 'default', tier: values.tier as never, ...(scopes ? { scopes } : {}), test: values.test ?? false }),
  );
  out(`Created key ${created.id} for account "${created.accountName}" (tier ${created.tier}), scopes: ${created.scopes.join(', ')}`);
  out('The key is shown once; store it now:');
  out(created.key);
  return 0;
}

async function list(): Promise<number> {
  const keys = await withDatabase(listKeys);
  if (!keys.length) out('No keys. Create one with: npx drugref keys create --tier developer');
  for (const k of keys) {
    const state = k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active';
    out(`${k.id}  ${k.prefix}…${k.last_four}  ${k.account} (${k.tier})  ${state}  scopes: ${k.scopes.join(',')}`);
  }
  return 0;
}

async function revoke(args: string[]): Promise<number> {
  const target = args[0];
  if (!target) throw new Error('usage: drugref keys revoke <last4|id>');
  const id = await withDatabase((db) => revokeKey(db, target));
  if (!id) {
    out(`No active key matches "${target}".`);
    return 1;
  }
  out(`Revoked key ${id}. Running instances stop accepting it within the key cache TTL (30 s).`);
  return 0;
}

export const keysCommand: Command = {
  usage: 'keys create --tier <tier> [--account <name>] [--scopes a,b] [--test] | keys list | keys revoke <last4|id>',
  async run([sub, ...args]) {
    if (sub === 'create') return create(args);
    if (sub === 'list') return list();
    if (sub === 'revoke') return revoke(args);
    throw new Error(`usage: drugref ${this.usage}`);
  },
};

export const accountsCommand: Command = {
  usage: 'accounts list',
  async run([sub]) {
    if (sub !== 'list') throw new Error('usage: drugref accounts list');
    const accounts = await withDatabase(listAccounts);
    if (!accounts.length) out('No accounts.');
    for (const a of accounts) out(`${a.id}  ${a.name}  tier ${a.tier}  ${a.active_keys} active key(s)${a.is_demo ? '  (demo)' : ''}`);
    return 0;
  },
};
