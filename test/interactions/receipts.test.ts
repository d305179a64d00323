/**
 * Signed no-retention receipts of POST /v1/prescriptions/validate and the JWKS that verifies
 * them, checked the way a third party would: with `jose` against the published key set.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { loadConfig } from '../../platform/config.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { startInteractionApp } from './helpers.ts';

const ed25519 = () => generateKeyPairSync('ed25519');
const first = ed25519();
const second = ed25519();
const publicJwk = (key: KeyObject) => key.export({ format: 'jwk' });
const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs8' }).toString();

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startInteractionApp({ config: { receiptSigningKey: first.privateKey } });
  key = await t.key({ tier: 'growth' });
});
afterAll(async () => { await t?.close(); });

interface Answer { decision: string; receipt: string; _meta: { sources: Array<{ id: string; last_synced_at: string | null }> } }

/** Sends the body as these exact bytes (whitespace and key order as written). */
const validate = (raw: string) => t.app.inject({ method: 'POST', url: '/v1/prescriptions/validate', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: raw });
const jwksOf = async (app: TestApp) => (await app.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<JSONWebKeySet>();
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

// Odd spacing and key order on purpose: the hash must cover these bytes, not a re-serialisation.
const RAW = '{ "current": ["simvastatin"],\n  "proposed" : ["clarithromycin"], "context": {"pregnancy": "pregnant", "age_band": "18-64"} }';

describe('receipt of POST /v1/prescriptions/validate', () => {
  it('verifies with jose against the JWKS and attests hash, decision, data sets, time and no retention', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await validate(RAW);
    expect(res.statusCode).toBe(200);
    const body = res.json<Answer>();
    expect(body.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const { payload, protectedHeader } = await jwtVerify(body.receipt, createLocalJWKSet(await jwksOf(t)), { issuer: 'drugref', typ: 'drugref-receipt+jwt', algorithms: ['EdDSA'] });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'drugref-receipt+jwt' });
    expect(payload).toMatchObject({
      iss: 'drugref',
      operation: 'POST /v1/prescriptions/validate',
      request_sha256: sha256(RAW),
      decision: body.decision,
      retention: 'none',
    });
    expect(body.decision).toBe('contraindicated');
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const listed = body._meta.sources.map((s) => ({ source: s.id, last_synced_at: s.last_synced_at })).sort((a, b) => a.source.localeCompare(b.source));
    expect(listed.length).toBeGreaterThan(0);
    expect(payload.datasets).toEqual(listed);
  });

  it('no longer matches a tampered body, and a tampered receipt fails verification', async () => {
    const { receipt } = (await validate(RAW)).json<Answer>();
    const { payload } = await compactVerify(receipt, createLocalJWKSet(await jwksOf(t)));
    const claims = JSON.parse(new TextDecoder().decode(payload)) as { request_sha256: string };
    expect(claims.request_sha256).toBe(sha256(RAW));
    // One drug swapped, or even one space added: the hash the receipt signed does not match.
    expect(sha256(RAW.replace('clarithromycin', 'azithromycin'))).not.toBe(claims.request_sha256);
    expect(sha256(`${RAW} `)).not.toBe(claims.request_sha256);
    // Re-pointing the receipt at the tampered body breaks the signature.
    const [header, , signature] = receipt.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, request_sha256: sha256(RAW.replace('clarithromycin', 'azithromycin')) })).toString('base64url');
    await expect(compactVerify(`${header}.${forged}.${signature}`, createLocalJWKSet(await jwksOf(t)))).rejects.toThrow(/signature verification failed/);
  });

  it('carries nothing of the request content (no PHI, no drug, no context)', async () => {
    const { receipt } = (await validate(RAW)).json<Answer>();
    const [header, payload] = receipt.split('.').slice(0, 2).map((part) => Buffer.from(part!, 'base64url').toString('utf8'));
    const text = `${header}${payload}`;
    for (const content of ['clarithromycin', 'simvastatin', 'pregnan', '18-64', 'current', 'proposed', 'context', 'age_band']) expect(text).not.toContain(content);
    expect(Object.keys(JSON.parse(payload!) as object).sort()).toEqual(['datasets', 'decision', 'iat', 'iss', 'operation', 'request_sha256', 'retention']);
    // The signing key never reaches a log line.
    const privateD = (first.privateKey.export({ format: 'jwk' }) as { d: string }).d;
    expect(t.logs.join('\n')).not.toContain(privateD);
    expect(t.logs.join('\n')).not.toContain('PRIVATE KEY');
  });

  it('is not issued on a refusal', async () => {
    const res = await validate('{"proposed":["aspirin"],"context":{"name":"Jane Doe"}}');
    expect(res.statusCode).toBe(422);
    expect(res.json()).not.toHaveProperty('receipt');
  });
});

describe('key rotation', () => {
  let old: string;
  beforeAll(async () => { old = (await validate(RAW)).json<Answer>().receipt; });

  it('keeps a rotated-out key verifiable while it is published, and not once it is removed', async () => {
    const rotated = await startTestApp({ config: { receiptSigningKey: second.privateKey, receiptPreviousKeys: [first.publicKey] } });
    const removed = await startTestApp({ config: { receiptSigningKey: second.privateKey } });
    try {
      const published = await jwksOf(rotated);
      expect(published.keys.map((k) => k.kid)).toEqual([expect.any(String), decodeProtectedHeader(old).kid]);
      await expect(jwtVerify(old, createLocalJWKSet(published))).resolves.toBeDefined();
      const remaining = await jwksOf(removed);
      expect(remaining.keys).toHaveLength(1);
      expect(remaining.keys[0]!.kid).toBe(published.keys[0]!.kid);
      await expect(jwtVerify(old, createLocalJWKSet(remaining))).rejects.toThrow(/no applicable key/i);
    } finally {
      await rotated.close();
      await removed.close();
    }
  });

  it('reads the signing key as PKCS8 PEM or JWK and previous keys as a JWKS, refusing private parts without quoting them', () => {
    const fromPem = loadConfig({ RECEIPT_SIGNING_KEY: pem(second.privateKey), RECEIPT_PREVIOUS_PUBLIC_KEYS: JSON.stringify({ keys: [publicJwk(first.publicKey)] }), RECEIPT_ISSUER: 'https://drugref.example' });
    expect(fromPem.receiptSigningKey?.asymmetricKeyType).toBe('ed25519');
    expect(fromPem.receiptPreviousKeys).toHaveLength(1);
    expect(fromPem.receiptIssuer).toBe('https://drugref.example');
    const fromJwk = loadConfig({ RECEIPT_SIGNING_KEY: JSON.stringify(second.privateKey.export({ format: 'jwk' })) });
    expect(fromJwk.receiptSigningKey?.equals(fromPem.receiptSigningKey!)).toBe(true);
    const leaked = JSON.stringify([first.privateKey.export({ format: 'jwk' })]);
    expect(() => loadConfig({ RECEIPT_PREVIOUS_PUBLIC_KEYS: leaked })).toThrow(/RECEIPT_PREVIOUS_PUBLIC_KEYS: .*public JWK/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => loadConfig({ RECEIPT_SIGNING_KEY: rsa })).toThrow(/RECEIPT_SIGNING_KEY: .*Ed25519/);
    try { loadConfig({ RECEIPT_SIGNING_KEY: 'not-a-key-secret-material' }); expect.unreachable(); } catch (error) {
      expect(String(error)).toMatch(/RECEIPT_SIGNING_KEY/);
      expect(String(error)).not.toContain('secret-material');
    }
  });

  it('without configuration generates one key at first use and keeps it in the database', async () => {
    const db = await openTestDatabase();
    try {
      const a = await startTestApp({ db });
      const kid = (await jwksOf(a)).keys[0]!.kid;
      await a.close();
      const b = await startTestApp({ db });
      expect((await jwksOf(b)).keys.map((k) => k.kid)).toEqual([kid]);
      await b.close();
      expect((await db.query('SELECT count(*)::int AS n FROM receipt_fallback_key')).rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('is public, public-only and cacheable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/jwk-set+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const { keys } = res.json<JSONWebKeySet>();
    expect(keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: (publicJwk(first.publicKey) as { x: string }).x, kid: expect.stringMatching(/^[\w-]{43}$/), alg: 'EdDSA', use: 'sig' }]);
    expect(res.body).not.toContain('"d"');
  });

  it('answers other verbs with 405 and is limited per address like the OpenAPI document', async () => {
    const post = await t.app.inject({ method: 'POST', url: '/.well-known/jwks.json' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const limited = await startTestApp({ config: { publicRateLimitPerMinute: 2, receiptSigningKey: first.privateKey } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('is in the OpenAPI document as a public operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{ paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> }>();
    const op = doc.paths['/.well-known/jwks.json']?.get;
    expect(op).toBeDefined();
    expect(op!.security).toEqual([]);
    expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['200', '429']));
  });
});
