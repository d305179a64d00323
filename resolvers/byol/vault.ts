/**
 * The BYOL credential vault: sealed rows in `byol_credentials`, one per tenant and
 * provider. Plaintext exists only in memory, inside the request that stores or uses it;
 * nothing here caches a decrypted credential.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import { open, seal } from '../../platform/crypto/vault.ts';
import type { Keyring, Sealed } from '../../platform/crypto/vault.ts';
import { credentialHint } from './providers.ts';
import type { ByolProvider, Credential } from './providers.ts';

/** Configuration status as GET shows it: never a secret, at most a key's last four. */
export interface VaultStatus {
  provider: ByolProvider;
  configured: boolean;
  configuredAt: Date | null;
  updatedAt: Date | null;
  keyHint: string | null;
}

interface SealedRow {
  key_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
  auth_tag: Uint8Array;
}

/** Binds a sealed row to its tenant and provider (GCM additional data). */
export function ownerOf(accountId: string, provider: string): string {
  return `byol:${accountId}:${provider}`;
}

function sealedOf(row: SealedRow): Sealed {
  return { keyId: row.key_id, nonce: Buffer.from(row.nonce), ciphertext: Buffer.from(row.ciphertext), tag: Buffer.from(row.auth_tag) };
}

/** Seals and upserts a tenant's credential; returns the new status. */
export async function storeCredential(db: Database, ring: Keyring, accountId: string, provider: ByolProvider, credential: Credential): Promise<VaultStatus> {
  const sealed = seal(JSON.stringify(credential), ring, ownerOf(accountId, provider));
  const hint = credentialHint(provider, credential);
  const { rows } = await db.transaction((tx) => tx.query<{ created_at: Date; updated_at: Date }>(
    `INSERT INTO byol_credentials (account_id, provider, key_id, nonce, ciphertext, auth_tag, key_hint)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account_id, provider) DO UPDATE SET key_id = EXCLUDED.key_id, nonce = EXCLUDED.nonce,
       ciphertext = EXCLUDED.ciphertext, auth_tag = EXCLUDED.auth_tag, key_hint = EXCLUDED.key_hint, updated_at = now()
     RETURNING created_at, updated_at`,
    [accountId, provider, sealed.keyId, sealed.nonce, sealed.ciphertext, sealed.tag, hint],
  ));
  const row = rows[0]!;
  return { provider, configured: true, configuredAt: row.created_at, updatedAt: row.updated_at, keyHint: hint };
}

/** What GET answers: whether the tenant configured the provider, and when. */
export async function credentialStatus(db: Queryable, accountId: string, provider: ByolProvider): Promise<VaultStatus> {
  const { rows } = await db.query<{ created_at: Date; updated_at: Date; key_hint: string | null }>(
    'SELECT created_at, updated_at, key_hint FROM byol_credentials WHERE account_id = $1 AND provider = $2',
    [accountId, provider],
  );
  const row = rows[0];
  return { provider, configured: Boolean(row), configuredAt: row?.created_at ?? null, updatedAt: row?.updated_at ?? null, keyHint: row?.key_hint ?? null };
}

/** Removes a tenant's credential; true when there was one. */
export async function deleteCredential(db: Database, accountId: string, provider: ByolProvider): Promise<boolean> {
  const { rowCount } = await db.transaction((tx) =>
    tx.query('DELETE FROM byol_credentials WHERE account_id = $1 AND provider = $2', [accountId, provider]));
  return rowCount > 0;
}

/** Opens the caller's own credential for one outbound request; null when not configured. */
export async function openCredential(db: Queryable, ring: Keyring, accountId: string, provider: ByolProvider): Promise<Credential | null> {
  const { rows } = await db.query<SealedRow>(
    'SELECT key_id, nonce, ciphertext, auth_tag FROM byol_credentials WHERE account_id = $1 AND provider = $2',
    [accountId, provider],
  );
  const row = rows[0];
  return row ? (JSON.parse(open(sealedOf(row), ring, ownerOf(accountId, provider))) as Credential) : null;
}

/**
 * Re-seals every row not under the active key (master key rotation). Runs in one
 * transaction with the rows locked, so a concurrent PUT cannot be overwritten with an
 * older credential; returns how many rows moved.
 */
export async function rotateCredentials(db: Database, ring: Keyring): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<SealedRow & { account_id: string; provider: string }>(
      `SELECT account_id, provider, key_id, nonce, ciphertext, auth_tag FROM byol_credentials
        WHERE key_id <> $1 ORDER BY account_id, provider FOR UPDATE`,
      [ring.activeKeyId],
    );
    for (const row of rows) {
      const owner = ownerOf(row.account_id, row.provider);
      const resealed = seal(open(sealedOf(row), ring, owner), ring, owner);
      await tx.query(
        `UPDATE byol_credentials SET key_id = $3, nonce = $4, ciphertext = $5, auth_tag = $6
          WHERE account_id = $1 AND provider = $2`,
        [row.account_id, row.provider, resealed.keyId, resealed.nonce, resealed.ciphertext, resealed.tag],
      );
    }
    return rows.length;
  });
}
