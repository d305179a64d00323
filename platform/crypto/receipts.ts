/**
 * Signed no-retention receipts: a compact JWS (EdDSA over Ed25519) saying which request
 * bytes (by SHA-256) got which decision from which data set versions, and that nothing of
 * the request was stored. Facade-neutral: the REST route and (later) the CDS Hooks service
 * hash the body they received and sign the same claims with the same keyring.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CompactSign } from 'jose';
import type { JWK } from 'jose';

/** The JWS algorithm of every receipt (RFC 8037: EdDSA with an Ed25519 key). */
export const RECEIPT_ALG = 'EdDSA';
/** The JWS `typ` header, so a receipt is not mistaken for an access token. */
export const RECEIPT_TYP = 'drugref-receipt+jwt';

/** The public half of an Ed25519 key as published in the JWKS. */
export interface PublicJwk extends JWK {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: typeof RECEIPT_ALG;
  use: 'sig';
}

/** The key receipts are signed with now, and every public key still published. */
export interface ReceiptKeyring {
  signing: { kid: string; privateKey: KeyObject };
  /** The signing key's public half first, then previous keys still accepted for verification. */
  published: PublicJwk[];
}

/** One data set a decision was drawn from, with the version (last sync) it had. */
export interface DatasetVersion {
  source: string;
  last_synced_at: string | null;
}

/** What a receipt attests, besides the time and issuer. */
export interface ReceiptSubject {
  /** SHA-256 (base64url, unpadded) of the request body bytes as received. */
  requestSha256: string;
  /** The operation answered, e.g. `POST /v1/prescriptions/validate`. */
  operation: string;
  decision: string;
  datasets: DatasetVersion[];
}

/** SHA-256 of the given bytes, base64url without padding (the receipt's `request_sha256`). */
export function sha256Base64url(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** Raised for key material that is not a usable Ed25519 key; the message never holds the key. */
export class ReceiptKeyError extends Error {
  override readonly name = 'ReceiptKeyError';
}

function ensureEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new ReceiptKeyError(`${what} must be an Ed25519 key, not ${key.asymmetricKeyType ?? 'a secret key'}`);
  return key;
}

/** An Ed25519 private key from PKCS8 PEM or a private JWK (JSON text with `d`). */
export function parsePrivateKey(text: string, what = 'The receipt signing key'): KeyObject {
  const trimmed = text.trim();
  try {
    const key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' })
      : createPrivateKey({ key: trimmed, format: 'pem' });
    return ensureEd25519(key, what);
  } catch (error) {
    if (error instanceof ReceiptKeyError) throw error;
    // node:crypto errors can quote the input; only say what was wrong with its form.
    throw new ReceiptKeyError(`${what} is neither a PKCS8 PEM nor a private JWK`);
  }
}

/**
 * Previous public keys: a JWKS (`{"keys":[…]}`) or an array of public JWKs. A JWK that
 * carries a private part (`d`) is refused, so a private key cannot be published by mistake.
 */
export function parsePublicKeys(text: string, what = 'The previous receipt public keys'): KeyObject[] {
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { throw new ReceiptKeyError(`${what} must be a JWKS or a JSON array of JWKs`); }
  const list = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(list)) throw new ReceiptKeyError(`${what} must be a JWKS or a JSON array of JWKs`);
  return list.map((jwk, i) => {
    if (!jwk || typeof jwk !== 'object' || 'd' in jwk) throw new ReceiptKeyError(`${what}: key ${i} must be a public JWK (no "d")`);
    try {
      return ensureEd25519(createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }), `${what}: key ${i}`);
    } catch (error) {
      if (error instanceof ReceiptKeyError) throw error;
      throw new ReceiptKeyError(`${what}: key ${i} is not a valid JWK`);
    }
  });
}

/**
 * The published form of a public key. The `kid` is its RFC 7638 thumbprint, so it follows
 * from the key itself: no separate id to configure, and two instances agree on it.
 */
export async function publicJwkOf(key: KeyObject): Promise<PublicJwk> {
  const exported = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' }) as { kty: string; crv: string; x: string };
  const base = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: exported.x };
  return { ...base, kid: await calculateJwkThumbprint(base, 'sha256'), alg: RECEIPT_ALG, use: 'sig' };
}

/** Builds a keyring from the signing key and previous public keys (duplicates dropped). */
export async function buildKeyring(signingKey: KeyObject, previous: readonly KeyObject[] = []): Promise<ReceiptKeyring> {
  const current = await publicJwkOf(signingKey);
  const published = [current];
  for (const key of previous) {
    const jwk = await publicJwkOf(key);
    if (!published.some((p) => p.kid === jwk.kid)) published.push(jwk);
  }
  return { signing: { kid: current.kid, privateKey: signingKey }, published };
}

/** The JWKS document (RFC 7517) of a keyring: public halves only. */
export function jwksOf(ring: ReceiptKeyring): { keys: PublicJwk[] } {
  return { keys: ring.published.map((k) => ({ ...k })) };
}

/**
 * Signs a receipt. Claims are snake_case like the API; `retention: "none"` is the
 * no-retention claim. Nothing of the request but its hash goes in.
 */
export async function signReceipt(ring: ReceiptKeyring, subject: ReceiptSubject, issuer: string, issuedAt: Date): Promise<string> {
  const claims = {
    iss: issuer,
    iat: Math.floor(issuedAt.getTime() / 1000),
    operation: subject.operation,
    request_sha256: subject.requestSha256,
    decision: subject.decision,
    datasets: subject.datasets,
    retention: 'none',
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: RECEIPT_ALG, kid: ring.signing.kid, typ: RECEIPT_TYP })
    .sign(ring.signing.privateKey);
}
