/**
 * The receipt side of the HTTP facade: one issuer per app (the keyring is loaded once, on
 * first use, so a start never waits on it) and the public JWKS at /.well-known/jwks.json.
 * A future CDS Hooks route signs with the same issuer.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db.ts';
import { jwksOf, sha256Base64url, signReceipt } from '../../platform/crypto/receipts.ts';
import type { DatasetVersion, ReceiptKeyring } from '../../platform/crypto/receipts.ts';
import { loadReceiptKeyring } from '../../resolvers/receipts/keyring.ts';
import type { OperationDoc } from '../routes/types.ts';
import { registerMethodNotAllowed } from '../rest/register.ts';

/** What an answer contributes to its receipt (the route table's `receipt` hook returns it). */
export interface ReceiptFacts {
  decision: string;
  datasets: DatasetVersion[];
}

/** Signs receipts and serves the keys that verify them. */
export interface ReceiptIssuer {
  keyring(): Promise<ReceiptKeyring>;
  /** A compact JWS over the raw body's hash and the answer's facts. */
  issue(rawBody: Uint8Array | string, operation: string, facts: ReceiptFacts): Promise<string>;
}

/** One issuer per app; a failed key load is retried on the next request rather than cached. */
export function createReceiptIssuer(config: Config, db: Queryable, now: Clock): ReceiptIssuer {
  let loading: Promise<ReceiptKeyring> | null = null;
  const keyring = () => {
    loading ??= loadReceiptKeyring(config, db).catch((error: unknown) => { loading = null; throw error; });
    return loading;
  };
  return {
    keyring,
    issue: async (rawBody, operation, facts) => signReceipt(await keyring(), {
      requestSha256: sha256Base64url(rawBody), operation, decision: facts.decision, datasets: facts.datasets,
    }, config.receiptIssuer, now()),
  };
}

/** The data set versions an answer's `_meta.sources` lists, in a stable order. */
export function datasetsOfMeta(body: unknown): DatasetVersion[] {
  const sources = (body as { _meta?: { sources?: Array<{ id: string; last_synced_at?: string | null }> } })?._meta?.sources ?? [];
  return sources.map((s) => ({ source: s.id, last_synced_at: s.last_synced_at ?? null })).sort((a, b) => a.source.localeCompare(b.source));
}

export const JWKS_PATH = '/.well-known/jwks.json';

/** The OpenAPI entry of the JWKS (public, limited like the OpenAPI document). */
export const JWKS_OPERATION: OperationDoc = {
  operationId: 'getReceiptKeys',
  method: 'GET',
  path: JWKS_PATH,
  scope: null,
  public: true,
  summary: 'Public keys (JWKS) that verify the signed no-retention receipts.',
  description: 'Ed25519 keys (kty OKP, alg EdDSA), `kid` the RFC 7638 thumbprint: the current signing key first, then rotated-out keys still accepted. A key removed from this set no longer verifies.',
  tags: ['meta'],
  responseType: 'application/jwk-set+json',
  response: {
    type: 'object', required: ['keys'], additionalProperties: false,
    properties: {
      keys: {
        type: 'array',
        items: {
          type: 'object', required: ['kty', 'crv', 'x', 'kid', 'alg', 'use'], additionalProperties: false,
          properties: {
            kty: { type: 'string', const: 'OKP' }, crv: { type: 'string', const: 'Ed25519' }, x: { type: 'string', description: 'The public key, base64url.' },
            kid: { type: 'string', description: 'RFC 7638 thumbprint.' }, alg: { type: 'string', const: 'EdDSA' }, use: { type: 'string', const: 'sig' },
          },
        },
      },
    },
  },
  statuses: [200, 429],
};

/** GET /.well-known/jwks.json: keyless, per-IP limited, cacheable for a few minutes. */
export function registerJwks(app: FastifyInstance, issuer: ReceiptIssuer, config: Config): void {
  const rateLimit = { max: config.publicRateLimitPerMinute, timeWindow: 60_000 };
  app.get(JWKS_PATH, { config: { rateLimit } }, async (_request, reply) => {
    const body = JSON.stringify(jwksOf(await issuer.keyring()));
    // Short cache: verifiers pick up a rotation within five minutes.
    return reply.type('application/jwk-set+json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
  });
  registerMethodNotAllowed(app, [{ method: 'GET', path: JWKS_PATH }]);
}
