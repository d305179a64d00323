/**
 * Key material of the changes domain: one 32-byte root key (WEBHOOK_SECRET_KEY, or a
 * database-held fallback in development) from which HKDF derives a key per purpose, so
 * the key that seals webhook secrets never also signs feed cursors.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../platform/config.ts';
import type { Queryable } from '../../platform/db.ts';

export interface RootKey {
  material: Buffer;
  /** Stored next to every sealed secret: which key sealed it. */
  ref: string;
}

export type KeyPurpose = 'webhook-secret' | 'changes-cursor';

const IV_BYTES = 12; // the GCM standard nonce size
const TAG_BYTES = 16; // full-length GCM tag

function decodeConfiguredKey(raw: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
}

/**
 * The root key. With WEBHOOK_SECRET_KEY set it comes from config and never touches the
 * database, so a dump alone cannot unseal secrets. Without it, one random key is created
 * in the database on first use (development convenience, documented as weaker).
 */
export async function rootKey(config: Config, db: Queryable): Promise<RootKey> {
  if (config.webhookSecretKey) {
    const material = decodeConfiguredKey(config.webhookSecretKey);
    return { material, ref: `config:${createHash('sha256').update(material).digest('hex').slice(0, 12)}` };
  }
  return fallbackKey(db);
}

/**
 * The database's fallback key, read once per database handle: every change-feed page needs
 * it, and it never changes once created (one row, inserted with ON CONFLICT DO NOTHING,
 * never updated or deleted by the service). A failed read is not remembered; a caller that
 * finds the key wrong (an operator restored another one) forgets it (`forgetFallbackKey`).
 */
const FALLBACK = new WeakMap<Queryable, Promise<RootKey>>();

function fallbackKey(db: Queryable): Promise<RootKey> {
  let key = FALLBACK.get(db);
  if (!key) {
    key = readOrCreateFallbackKey(db);
    FALLBACK.set(db, key);
    key.catch(() => { if (FALLBACK.get(db) === key) FALLBACK.delete(db); });
  }
  return key;
}

/** Reads the fallback key again on the next use. */
export function forgetFallbackKey(db: Queryable): void {
  FALLBACK.delete(db);
}

async function readOrCreateFallbackKey(db: Queryable): Promise<RootKey> {
  const existing = await db.query<{ material: Buffer }>('SELECT material FROM webhook_fallback_key');
  if (existing.rows[0]) return { material: existing.rows[0].material, ref: 'db' };
  // Two instances racing here both insert; ON CONFLICT keeps the first and both read it back.
  await db.query('INSERT INTO webhook_fallback_key (material) VALUES ($1) ON CONFLICT (id) DO NOTHING', [randomBytes(32)]);
  const created = await db.query<{ material: Buffer }>('SELECT material FROM webhook_fallback_key');
  return { material: created.rows[0]!.material, ref: 'db' };
}

/**
 * Derived keys by purpose and root key: every change-feed page asks for its cursor key, and
 * HKDF on each request was a visible part of the page's CPU. The root key rarely changes;
 * the bound keeps a few in case it does.
 */
const DERIVED = new LRUCache<string, Buffer>({ max: 16 });

/** A 32-byte key for one purpose, derived from the root key. */
export function purposeKey(root: RootKey, purpose: KeyPurpose): Buffer {
  const id = `${purpose}:${root.material.toString('base64')}`;
  let key = DERIVED.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', root.material, Buffer.alloc(0), `drugref:${purpose}`, 32));
    DERIVED.set(id, key);
  }
  // A copy: a caller may not alter the remembered key.
  return Buffer.from(key);
}

/** AES-256-GCM: IV ‖ tag ‖ ciphertext. The subscription id is bound as associated data. */
export function sealSecret(root: RootKey, secret: string, subscriptionId: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', purposeKey(root, 'webhook-secret'), iv);
  cipher.setAAD(Buffer.from(subscriptionId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Opens a sealed secret; throws when the key differs or the bytes were altered. */
export function openSecret(root: RootKey, sealed: Buffer, subscriptionId: string): string {
  const decipher = createDecipheriv('aes-256-gcm', purposeKey(root, 'webhook-secret'), sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(subscriptionId));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
