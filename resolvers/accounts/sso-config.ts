/**
 * Storage of console SSO: each account's identity provider (client secret sealed with the
 * vault's master keys, AES-256-GCM bound to the account, as BYOL credentials are) and the
 * sign-ins under way (state as SHA-256, PKCE verifier and nonce; single use, ten minutes).
 */
import type { Database, Queryable } from '../../platform/db.ts';
import { open, seal } from '../../platform/crypto/vault.ts';
import type { Keyring } from '../../platform/crypto/vault.ts';
import { hashKey } from './keys.ts';

/** How long a started sign-in may take at the identity provider. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;

/** An account's SSO settings; `clientSecret` only in memory, only while signing in. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A verified e-mail in this domain may sign in. */
  emailDomain: string | null;
  /** These `sub` claims may sign in. */
  subjects: string[];
}

/** What may be shown of the settings: never the secret. */
export type SsoSummary = Omit<SsoSettings, 'clientSecret'> & { updatedAt: Date };

/** Binds a sealed secret to its account (GCM additional data). */
function ownerOf(accountId: string): string {
  return `console-sso:${accountId}`;
}

/** Seals the client secret and stores (or replaces) an account's SSO settings. */
export async function saveSsoSettings(db: Database, ring: Keyring, accountId: string, settings: SsoSettings): Promise<void> {
  const sealed = seal(settings.clientSecret, ring, ownerOf(accountId));
  await db.transaction((tx) => tx.query(
    `INSERT INTO console_sso (account_id, issuer, client_id, key_id, nonce, ciphertext, auth_tag, email_domain, subjects)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (account_id) DO UPDATE SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
       key_id = EXCLUDED.key_id, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext, auth_tag = EXCLUDED.auth_tag,
       email_domain = EXCLUDED.email_domain, subjects = EXCLUDED.subjects, updated_at = now()`,
    [accountId, settings.issuer, settings.clientId, sealed.keyId, sealed.nonce, sealed.ciphertext, sealed.tag,
      settings.emailDomain?.toLowerCase() ?? null, settings.subjects],
  ));
}

interface SettingsRow {
  issuer: string;
  client_id: string;
  key_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  auth_tag: Uint8Array;
  email_domain: string | null;
  subjects: string[];
  updated_at: Date;
}

async function settingsRow(db: Queryable, accountId: string): Promise<SettingsRow | null> {
  const { rows } = await db.query<SettingsRow>(
    `SELECT issuer, client_id, key_id, nonce, ciphertext, auth_tag, email_domain, subjects, updated_at
       FROM console_sso WHERE account_id = $1`,
    [accountId],
  );
  return rows[0] ?? null;
}

/** The settings with the secret opened; null when the account has none. Throws VaultError when it does not open. */
export async function loadSsoSettings(db: Queryable, ring: Keyring, accountId: string): Promise<SsoSettings | null> {
  const row = await settingsRow(db, accountId);
  if (!row) return null;
  const sealed = { keyId: row.key_id, nonce: Buffer.from(row.nonce), ciphertext: Buffer.from(row.ciphertext), tag: Buffer.from(row.auth_tag) };
  return { issuer: row.issuer, clientId: row.client_id, clientSecret: open(sealed, ring, ownerOf(accountId)), emailDomain: row.email_domain, subjects: row.subjects };
}

/** The settings without the secret; null when the account has none. */
export async function ssoSummary(db: Queryable, accountId: string): Promise<SsoSummary | null> {
  const row = await settingsRow(db, accountId);
  return row ? { issuer: row.issuer, clientId: row.client_id, emailDomain: row.email_domain, subjects: row.subjects, updatedAt: row.updated_at } : null;
}

/** Removes an account's SSO settings; true when there were some. */
export async function removeSsoSettings(db: Queryable, accountId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM console_sso WHERE account_id = $1', [accountId]);
  return (rowCount ?? 0) > 0;
}

/** A sign-in under way, as the callback finds it again. */
export interface SsoFlow {
  accountId: string;
  codeVerifier: string;
  nonce: string;
}

/** Remembers a started sign-in under the SHA-256 of its state. */
export async function saveFlow(db: Queryable, state: string, flow: SsoFlow, now: Date): Promise<void> {
  await db.query('DELETE FROM console_sso_flows WHERE expires_at <= $1', [now]);
  await db.query(
    'INSERT INTO console_sso_flows (state_hash, account_id, code_verifier, nonce, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [hashKey(state), flow.accountId, flow.codeVerifier, flow.nonce, new Date(now.getTime() + SSO_FLOW_TTL_MS)],
  );
}

/** Takes a sign-in by its state: deleted on the first attempt, so a state works once; null when unknown or expired. */
export async function takeFlow(db: Queryable, state: string, now: Date): Promise<SsoFlow | null> {
  const { rows } = await db.query<{ account_id: string; code_verifier: string; nonce: string; expires_at: Date }>(
    'DELETE FROM console_sso_flows WHERE state_hash = $1 RETURNING account_id, code_verifier, nonce, expires_at',
    [hashKey(state)],
  );
  const row = rows[0];
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  return { accountId: row.account_id, codeVerifier: row.code_verifier, nonce: row.nonce };
}
