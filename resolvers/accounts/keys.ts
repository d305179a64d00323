/**
 * API keys: generation, parsing and storage. A key is a prefix plus 24 random bytes in
 * base64url; only its SHA-256 and last four characters are ever stored.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import { effectiveScopes, isTier, tierScopes, TIER_LIMITS } from './tiers.ts';
import type { Scope, Tier } from './tiers.ts';

export const KEY_PREFIXES = ['svc_live_', 'svc_test_'] as const;
export type KeyPrefix = (typeof KEY_PREFIXES)[number];
const LEGACY_PREFIXES = ['legacy_live_', 'legacy_test_'];
const KEY_PATTERN = /^(svc_live_|svc_test_)([A-Za-z0-9_-]{32})$/;

export type ParsedKey =
  | { kind: 'key'; prefix: KeyPrefix; key: string }
  | { kind: 'legacy' }
  | { kind: 'malformed' };

export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function generateKey(prefix: KeyPrefix): string {
  return prefix + randomBytes(24).toString('base64url');
}

/** Classifies a presented key: current format, legacy prefix, or malformed. */
export function parseKey(raw: string): ParsedKey {
  if (LEGACY_PREFIXES.some((p) => raw.startsWith(p))) return { kind: 'legacy' };
  const match = KEY_PATTERN.exec(raw);
  if (!match) return { kind: 'malformed' };
  return { kind: 'key', prefix: match[1] as KeyPrefix, key: raw };
}

/**
 * Who is calling, resolved from a key. The console's own lookups act for the account
 * without a key: keyId, keyPrefix and lastFour are then null (resolvers/accounts/console-sessions.ts).
 */
export interface Principal {
  accountId: string;
  accountName: string;
  tier: Tier;
  keyId: string | null;
  keyPrefix: KeyPrefix | null;
  lastFour: string | null;
  scopes: ReadonlySet<Scope>;
}

interface KeyRow {
  key_id: string;
  prefix: KeyPrefix;
  last_four: string;
  scopes: string[];
  revoked_at: Date | null;
  account_id: string;
  account_name: string;
  tier: string;
}

/** Looks a key up by hash; null when unknown or revoked. */
export async function findPrincipal(db: Queryable, key: string): Promise<Principal | null> {
  const { rows } = await db.query<KeyRow>(
    `SELECT k.id AS key_id, k.prefix, k.last_four, k.scopes, k.revoked_at,
            a.id AS account_id, a.name AS account_name, a.tier
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = $1`,
    [hashKey(key)],
  );
  const row = rows[0];
  if (!row || row.revoked_at || !isTier(row.tier)) return null;
  return {
    accountId: row.account_id,
    accountName: row.account_name,
    tier: row.tier,
    keyId: row.key_id,
    keyPrefix: row.prefix,
    lastFour: row.last_four,
    scopes: effectiveScopes(row.tier, row.scopes),
  };
}

export interface CreatedKey {
  id: string;
  key: string;
  accountId: string;
  accountName: string;
  tier: Tier;
  scopes: string[];
}

/** A key the account may not have: over its tier's key limit, or a tier mismatch. */
export class KeyLimitError extends Error {}

/**
 * Creates a key for an account (creating the account with `tier` when it does not exist).
 * Scopes default to everything the tier grants; the tier's key limit is enforced.
 */
export async function createKey(
  db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  input: { account: string; tier: Tier; scopes?: Scope[]; test?: boolean; demo?: boolean },
): Promise<CreatedKey> {
  const key = generateKey(input.test ? 'svc_test_' : 'svc_live_');
  const scopes = input.scopes ?? [...tierScopes(input.tier)];
  return db.transaction(async (tx) => {
    const account = await tx.query<{ id: string; tier: Tier }>(
      `INSERT INTO accounts (name, tier, is_demo) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
       RETURNING id, tier`,
      [input.account, input.tier, input.demo ?? false],
    );
    const { id: accountId, tier } = account.rows[0]!;
    if (tier !== input.tier) {
      throw new KeyLimitError(`Account "${input.account}" is on the ${tier} tier, not ${input.tier}.`);
    }
    // Lock the account row so two concurrent creations cannot both pass the limit.
    await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const active = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
      [accountId],
    );
    const limit = TIER_LIMITS[tier].maxKeys;
    if (active.rows[0]!.n >= limit) {
      throw new KeyLimitError(`Account "${input.account}" already has ${limit} active keys, the ${tier} tier's limit.`);
    }
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO api_keys (account_id, prefix, key_hash, last_four, scopes)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [accountId, key.slice(0, 9), hashKey(key), key.slice(-4), scopes],
    );
    return { id: inserted.rows[0]!.id, key, accountId, accountName: input.account, tier, scopes };
  });
}

export interface KeyListing {
  id: string;
  account: string;
  tier: string;
  prefix: string;
  last_four: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

export async function listKeys(db: Queryable): Promise<KeyListing[]> {
  const { rows } = await db.query<KeyListing>(
    `SELECT k.id, a.name AS account, a.tier, k.prefix, k.last_four, k.scopes, k.created_at, k.revoked_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      ORDER BY a.name, k.created_at`,
  );
  return rows;
}

export class AmbiguousKeyError extends Error {}

/**
 * Revokes one key by id or by its last four characters. Several active keys ending in
 * the same four characters are refused rather than all revoked. Returns the id revoked,
 * or null when nothing matched.
 */
export async function revokeKey(db: Queryable, idOrLastFour: string): Promise<string | null> {
  const byId = /^[0-9a-f-]{36}$/i.test(idOrLastFour);
  const matches = await db.query<{ id: string }>(
    `SELECT id FROM api_keys WHERE revoked_at IS NULL AND ${byId ? 'id = $1::uuid' : 'last_four = $1'}`,
    [idOrLastFour],
  );
  if (matches.rowCount > 1) {
    throw new AmbiguousKeyError(`${matches.rowCount} active keys end in "${idOrLastFour}"; revoke by id instead.`);
  }
  const id = matches.rows[0]?.id;
  if (!id) return null;
  await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [id]);
  return id;
}

export interface AccountListing {
  id: string;
  name: string;
  tier: string;
  is_demo: boolean;
  active_keys: number;
  created_at: Date;
}

export async function listAccounts(db: Queryable): Promise<AccountListing[]> {
  const { rows } = await db.query<AccountListing>(
    `SELECT a.id, a.name, a.tier, a.is_demo, a.created_at,
            (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_keys
       FROM accounts a ORDER BY a.name`,
  );
  return rows;
}
