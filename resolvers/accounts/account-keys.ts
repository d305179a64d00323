/**
 * An account's own keys, as the console manages them: list, create with a narrowed scope
 * set under the tier's key limit, revoke. Every statement is bounded to the account, so
 * one tenant never sees or touches another's keys. Plaintext leaves only `createAccountKey`.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import { generateKey, hashKey, KeyLimitError } from './keys.ts';
import { isScope, tierScopes, TIER_LIMITS } from './tiers.ts';
import type { Scope, Tier } from './tiers.ts';

/** A key as the console lists it: never the key, only its prefix and last four. */
export interface AccountKey {
  id: string;
  name: string | null;
  prefix: string;
  last4: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Scopes a request asked for that the tier does not grant (or that do not exist). */
export class ScopeError extends Error {}

const KEY_COLUMNS = `k.id, k.name, k.prefix, k.last_four AS last4, k.scopes, k.created_at, k.revoked_at,
  (SELECT max(u.last_at) FROM request_usage u WHERE u.key_id = k.id) AS last_used_at`;

/** Every key of the account, newest first, revoked ones included. */
export async function listAccountKeys(db: Queryable, accountId: string): Promise<AccountKey[]> {
  const { rows } = await db.query<AccountKey>(
    `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at DESC, k.id`,
    [accountId],
  );
  return rows;
}

/** Checks asked scopes against the tier: unknown or ungranted ones are refused, none means all. */
export function grantedScopes(tier: Tier, asked: readonly string[] | undefined): Scope[] {
  const granted = tierScopes(tier);
  if (asked === undefined) return [...granted];
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length) throw new ScopeError(`Unknown scope(s): ${unknown.join(', ')}.`);
  const outside = asked.filter((s) => !granted.has(s as Scope));
  if (outside.length) {
    throw new ScopeError(`Scope(s) ${outside.join(', ')} are not in the ${tier} tier; it grants: ${[...granted].join(', ')}.`);
  }
  // Kept in the tier table's order, whatever order they were asked in.
  return [...granted].filter((s) => asked.includes(s));
}

/**
 * Creates a live key for an existing account. The account row is locked while active keys
 * are counted, so two concurrent creations cannot both pass the tier's key limit.
 */
export async function createAccountKey(
  db: Database,
  input: { accountId: string; tier: Tier; name: string | null; scopes: Scope[] },
): Promise<{ key: AccountKey; plaintext: string }> {
  const plaintext = generateKey('svc_live_');
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [input.accountId]);
    const active = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
      [input.accountId],
    );
    const limit = TIER_LIMITS[input.tier].maxKeys;
    if (active.rows[0]!.n >= limit) {
      throw new KeyLimitError(`This account already has ${limit} active keys, the ${input.tier} tier's limit. Revoke a key you no longer use, or upgrade for more.`);
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO api_keys (account_id, prefix, key_hash, last_four, scopes, name)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [input.accountId, plaintext.slice(0, 9), hashKey(plaintext), plaintext.slice(-4), input.scopes, input.name],
    );
    const key = await tx.query<AccountKey>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [rows[0]!.id]);
    return { key: key.rows[0]!, plaintext };
  });
}

/**
 * Revokes one of the account's keys (revoking a revoked key keeps its first revocation
 * time). Null when the account has no key with that id, another account's included.
 */
export async function revokeAccountKey(db: Queryable, accountId: string, keyId: string): Promise<AccountKey | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND account_id = $2 RETURNING id`,
    [keyId, accountId],
  );
  if (!rows[0]) return null;
  const key = await db.query<AccountKey>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [keyId]);
  return key.rows[0] ?? null;
}
