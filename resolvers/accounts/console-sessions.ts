/**
 * Console sign-in (docs/console.md): one-time sign-in tokens, printed by `drugref console
 * login` or minted at the end of an SSO sign-in, are exchanged once for a console token,
 * a bearer the console page keeps in memory for its calls to /console/api. Only SHA-256
 * hashes of either token are stored; the plaintexts exist only in the answer that
 * creates them. The console acts for the whole account: its principal holds the tier's
 * scopes and no key.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import { hashKey } from './keys.ts';
import type { Principal } from './keys.ts';
import { isTier, tierScopes } from './tiers.ts';
import type { Tier } from './tiers.ts';

/** A one-time sign-in token lives ten minutes. */
export const LOGIN_TOKEN_TTL_MS = 10 * 60_000;
/** Prefixes make a leaked token recognisable (and maskable in logs); neither is an API key. */
export const LOGIN_TOKEN_PREFIX = 'dcl_';
export const CONSOLE_TOKEN_PREFIX = 'dct_';

export type SignInVia = 'cli' | 'sso';

export interface ConsoleAccount {
  id: string;
  name: string;
  tier: Tier;
}

/** A live console session, as every /console/api request resolves it. */
export interface ConsoleSession {
  accountId: string;
  accountName: string;
  tier: Tier;
  via: SignInVia;
  expiresAt: Date;
}

function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** The origin browsers use for this service: PUBLIC_BASE_URL, else http://localhost:PORT. */
export function publicBaseUrl(config: Config): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

/** The sign-in link of a one-time token: the token sits in the fragment, which browsers never send. */
export function signInLink(config: Config, token: string): string {
  return `${publicBaseUrl(config)}/console/#login=${token}`;
}

/** An account by name; null when there is none (or its tier is unknown). */
export async function findAccount(db: Queryable, name: string): Promise<ConsoleAccount | null> {
  const { rows } = await db.query<{ id: string; name: string; tier: string }>('SELECT id, name, tier FROM accounts WHERE name = $1', [name]);
  const row = rows[0];
  return row && isTier(row.tier) ? { id: row.id, name: row.name, tier: row.tier } : null;
}

/** Removes what has expired, so the sign-in tables stay small without a sweeper. */
async function purgeExpired(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM console_login_tokens WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM console_sessions WHERE expires_at <= $1', [now]);
}

/** Mints a one-time sign-in token for an account; the plaintext is returned once. */
export async function issueLoginToken(
  db: Queryable,
  input: { accountId: string; via: SignInVia; subject?: string | null },
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  await purgeExpired(db, now);
  const token = newToken(LOGIN_TOKEN_PREFIX);
  const expiresAt = new Date(now.getTime() + LOGIN_TOKEN_TTL_MS);
  await db.query(
    'INSERT INTO console_login_tokens (token_hash, account_id, via, subject, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [hashKey(token), input.accountId, input.via, input.subject ?? null, expiresAt],
  );
  return { token, expiresAt };
}

export interface OpenedSession {
  consoleToken: string;
  expiresAt: Date;
  account: { name: string; tier: Tier };
  via: SignInVia;
  subject: string | null;
}

/**
 * Exchanges a one-time token for a console session. The token row is deleted in the same
 * transaction that opens the session, so of two concurrent exchanges only one wins; null
 * when the token is unknown, used or expired.
 */
export async function redeemLoginToken(db: Database, token: string, ttlSeconds: number, now: Date): Promise<OpenedSession | null> {
  if (!token.startsWith(LOGIN_TOKEN_PREFIX)) return null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ account_id: string; via: SignInVia; subject: string | null; expires_at: Date; name: string; tier: string }>(
      `WITH used AS (DELETE FROM console_login_tokens WHERE token_hash = $1 RETURNING account_id, via, subject, expires_at)
       SELECT u.account_id, u.via, u.subject, u.expires_at, a.name, a.tier FROM used u JOIN accounts a ON a.id = u.account_id`,
      [hashKey(token)],
    );
    const row = rows[0];
    if (!row || row.expires_at.getTime() <= now.getTime() || !isTier(row.tier)) return null;
    const consoleToken = newToken(CONSOLE_TOKEN_PREFIX);
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    await tx.query(
      'INSERT INTO console_sessions (token_hash, account_id, via, subject, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [hashKey(consoleToken), row.account_id, row.via, row.subject, expiresAt],
    );
    return { consoleToken, expiresAt, account: { name: row.name, tier: row.tier }, via: row.via, subject: row.subject };
  });
}

/** The live session a console token stands for; null when unknown, signed out or expired. */
export async function findSession(db: Queryable, consoleToken: string, now: Date): Promise<ConsoleSession | null> {
  if (!consoleToken.startsWith(CONSOLE_TOKEN_PREFIX)) return null;
  const { rows } = await db.query<{ account_id: string; name: string; tier: string; via: SignInVia; expires_at: Date }>(
    `SELECT s.account_id, a.name, a.tier, s.via, s.expires_at
       FROM console_sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [hashKey(consoleToken), now],
  );
  const row = rows[0];
  if (!row || !isTier(row.tier)) return null;
  return { accountId: row.account_id, accountName: row.name, tier: row.tier, via: row.via, expiresAt: row.expires_at };
}

/** Signs a console token out; true when it was live. */
export async function endSession(db: Queryable, consoleToken: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM console_sessions WHERE token_hash = $1', [hashKey(consoleToken)]);
  return rowCount > 0;
}

/** The principal the console's lookups run as: the account, every scope of its tier, no key. */
export function consolePrincipal(session: ConsoleSession): Principal {
  return {
    accountId: session.accountId,
    accountName: session.accountName,
    tier: session.tier,
    keyId: null,
    keyPrefix: null,
    lastFour: null,
    scopes: tierScopes(session.tier),
  };
}
