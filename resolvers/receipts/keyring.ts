/**
 * Where the receipt keyring comes from: RECEIPT_SIGNING_KEY (plus previous public keys)
 * from config, or, without it, one Ed25519 key generated on first use and kept in the
 * database. The database rather than the data folder: instances sharing one PostgreSQL
 * then sign with the key each of them publishes, and with the embedded database it lives in
 * DATA_DIR anyway (and dies with `memory://`, like the receipts' data).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Config } from '../../platform/config.ts';
import type { Queryable } from '../../platform/db.ts';
import { buildKeyring, parsePrivateKey } from '../../platform/crypto/receipts.ts';
import type { ReceiptKeyring } from '../../platform/crypto/receipts.ts';

async function fallbackKeyPem(db: Queryable): Promise<string> {
  const existing = await db.query<{ private_pkcs8: string }>('SELECT private_pkcs8 FROM receipt_fallback_key');
  if (existing.rows[0]) return existing.rows[0].private_pkcs8;
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // Two instances racing here both insert; ON CONFLICT keeps the first and both read it back.
  await db.query('INSERT INTO receipt_fallback_key (private_pkcs8) VALUES ($1) ON CONFLICT (id) DO NOTHING', [pem]);
  const created = await db.query<{ private_pkcs8: string }>('SELECT private_pkcs8 FROM receipt_fallback_key');
  return created.rows[0]!.private_pkcs8;
}

/** Loads the keyring once per call; callers keep the promise (see facades/http/receipts.ts). */
export async function loadReceiptKeyring(config: Config, db: Queryable): Promise<ReceiptKeyring> {
  const signing = config.receiptSigningKey ?? parsePrivateKey(await fallbackKeyPem(db), 'The stored receipt key');
  return buildKeyring(signing, config.receiptPreviousKeys);
}
