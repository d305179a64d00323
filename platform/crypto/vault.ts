/**
 * AES-256-GCM sealing of tenant secrets (BYOL credentials). Each record gets a fresh
 * 96-bit nonce; the key id travels with the record so the master key can be rotated;
 * additional authenticated data binds a record to its owner, so a ciphertext copied to
 * another tenant's row fails to open instead of leaking across tenants.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One sealed secret as stored: never the plaintext. */
export interface Sealed {
  keyId: string;
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/** The master keys by id and the id new records are sealed with. */
export interface Keyring {
  keys: Readonly<Record<string, Buffer>>;
  activeKeyId: string | null;
}

/** Raised when a record cannot be opened: unknown key id, wrong key, wrong owner or tampering. */
export class VaultError extends Error {
  override readonly name = 'VaultError';
}

const NONCE_BYTES = 12; // the GCM standard nonce size; random per record, never reused deliberately

/** Seals `plaintext` under the keyring's active key, bound to `aad`. */
export function seal(plaintext: string, ring: Keyring, aad: string): Sealed {
  const keyId = ring.activeKeyId;
  const key = keyId ? ring.keys[keyId] : undefined;
  if (!keyId || !key) throw new VaultError('No active master key.');
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId, nonce, ciphertext, tag: cipher.getAuthTag() };
}

/** Opens a sealed record with the key its id names; throws VaultError on any mismatch. */
export function open(sealed: Sealed, ring: Keyring, aad: string): string {
  const key = ring.keys[sealed.keyId];
  if (!key) throw new VaultError(`Master key "${sealed.keyId}" is not configured.`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    // The GCM tag check failed: wrong key, wrong owner (aad) or altered bytes.
    throw new VaultError('The sealed record does not open with this key and owner.');
  }
}

/** True when a keyring can seal new records. */
export function canSeal(ring: Keyring): boolean {
  return Boolean(ring.activeKeyId && ring.keys[ring.activeKeyId]);
}
