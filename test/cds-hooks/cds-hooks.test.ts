/**
 * The CDS Hooks 2.0 service through real HTTP handling: discovery, a protocol-speaking
 * client's order-sign and order-select calls built from FHIR R4 bundles with real demo
 * codes, the cards checked against JSON Schemas written from the specification, the
 * signed receipt verified with jose, and every documented status with its body and headers.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { createLocalJWKSet, jwtVerify, compactVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { ATC, bundle, CdsClient, demoPackCode, demoRxcui, GTIN, medicationRequest, NDC, RXNORM, startCdsApp } from './helpers.ts';
import type { CdsTestApp } from './helpers.ts';
import { CARD_SCHEMA, DISCOVERY_SCHEMA, RESPONSE_SCHEMA } from './cds-schemas.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
const validResponse = ajv.compile(RESPONSE_SCHEMA);
const validDiscovery = ajv.compile(DISCOVERY_SCHEMA);
const validCard = ajv.compile(CARD_SCHEMA);

interface Card { summary: string; detail: string; indicator: string; source: { label: string; url?: string }; suggestions?: Array<{ label: string; isRecommended: boolean; actions: Array<{ type: string; resourceId?: string; resource?: { medicationCodeableConcept: { coding: Array<{ system: string; code: string }> } } }> }> }
interface Answer { cards: Card[]; extension: Record<string, unknown> }

let t: CdsTestApp;
let key: string;
let client: CdsClient;
const zocor = demoPackCode('CH', 'C10AA01', 'gtin');
const clarithromycin = { system: RXNORM, code: demoRxcui('clarithromycin') };
const signBody = () => client.request('order-sign', {
  draftOrders: bundle([medicationRequest('draft-1', 'draft', { codings: [{ system: GTIN, code: zocor.code, display: zocor.name }] })]),
}, { medications: bundle([medicationRequest('active-1', 'active', { codings: [clarithromycin] })], 'searchset') });

function expectCds(res: { statusCode: number; json: <T>() => T }): Answer {
  expect(res.statusCode).toBe(200);
  const body = res.json<Answer>();
  expect(validResponse(body), JSON.stringify(validResponse.errors)).toBe(true);
  return body;
}

function expectError(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, error: string) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body)[0]).toBe('error');
  expect(body).toMatchObject({ error, message: expect.any(String) });
  return body;
}

beforeAll(async () => {
  t = await startCdsApp({ publicRateLimitPerMinute: 4 });
  key = await t.key({ tier: 'growth' });
  client = new CdsClient(t, key);
  await client.discover();
}, 180_000);
afterAll(async () => { await t?.close(); });

describe('GET /cds-services (discovery)', () => {
  it('lists order-select and order-sign services with a medication-only prefetch, keyless', async () => {
    // A CDS client sends its own JWT as bearer: discovery ignores it.
    const res = await t.app.inject({ method: 'GET', url: '/cds-services', headers: { authorization: 'Bearer eyJhbGciOiJFUzM4NCJ9.e30.sig' }, remoteAddress: '198.51.100.1' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ services: Array<{ id: string; hook: string; prefetch: Record<string, string> }> }>();
    expect(validDiscovery(body), JSON.stringify(validDiscovery.errors)).toBe(true);
    expect(body.services.map((s) => [s.id, s.hook])).toEqual([['drugref-order-select', 'order-select'], ['drugref-order-sign', 'order-sign']]);
    for (const s of body.services) expect(s.prefetch).toEqual({ medications: 'MedicationRequest?patient={{context.patientId}}&status=active' });
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('limits keyless requests per address with 429 rate_limited and retry-after', async () => {
    const get = () => t.app.inject({ method: 'GET', url: '/cds-services', remoteAddress: '198.51.100.7' });
    for (let i = 0; i < 4; i++) expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers POST with 405 and allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/cds-services', payload: {} });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('is in the OpenAPI document with its service call', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<{ paths: Record<string, Record<string, { security: unknown[]; 'x-required-scope': string | null }>> }>();
    expect(doc.paths['/cds-services']!.get!.security).toEqual([]);
    expect(doc.paths['/cds-services/{id}']!.post!['x-required-scope']).toBe('interactions:write');
  });
});

describe('POST /cds-services/{id} (a CDS client)', () => {
  it('answers an order-sign call with a critical interaction card, licence in the source, alternatives and one request counted', async () => {
    const { serviceId, body } = signBody();
    const before = Number((await client.call(serviceId, body)).headers['x-ratelimit-remaining']);
    const res = await client.call(serviceId, body);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(res.headers['x-service-tier']).toBe('growth');
    const answer = expectCds(res);
    expect(answer.cards).toHaveLength(1);
    const card = answer.cards[0]!;
    expect(card).toMatchObject({ indicator: 'critical', summary: 'Contraindicated: simvastatin with clarithromycin', selectionBehavior: 'at-most-one' });
    expect(card.source.label).toContain('CC-BY-NC-4.0');
    expect(card.source.url).toBe('https://creativecommons.org/licenses/by-nc/4.0/');
    // interactions:write delivers the commercially licensed texts, with their licence.
    expect(card.detail).toContain('**Mechanism.**');
    expect(card.detail).toContain('drugref demonstration commercial licence');
    const labels = card.suggestions!.map((s) => s.label);
    expect(labels).toContain('Remove the draft order of simvastatin');
    // Alternatives: same ATC group, no rule with clarithromycin; atorvastatin (a major rule) is not offered.
    const offered = card.suggestions!.flatMap((s) => s.actions.filter((a) => a.type === 'create').map((a) => a.resource!.medicationCodeableConcept.coding.find((c) => c.system === ATC)!.code));
    expect(offered.length).toBeGreaterThan(0);
    for (const code of offered) expect(code.startsWith('C10AA') && code !== 'C10AA01' && code !== 'C10AA05').toBe(true);
    expect(card.suggestions!.every((s) => s.isRecommended === false)).toBe(true);
    expect(card.suggestions![0]!.actions[0]).toEqual({ type: 'delete', description: expect.any(String), resourceId: 'MedicationRequest/draft-1' });
    expect(answer.extension['drugref.decision']).toBe('contraindicated');
  });

  it('carries a no-retention receipt that verifies with jose against /.well-known/jwks.json, and a tampered body does not match', async () => {
    const { serviceId, body } = signBody();
    const raw = JSON.stringify(body, null, 2);
    const answer = expectCds(await client.call(serviceId, raw));
    const receipt = answer.extension['drugref.receipt'] as string;
    const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json<JSONWebKeySet>();
    const { payload } = await jwtVerify(receipt, createLocalJWKSet(jwks), { issuer: 'drugref', algorithms: ['EdDSA'] });
    const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
    expect(payload).toMatchObject({ operation: 'POST /cds-services/{id}', request_sha256: sha(raw), decision: 'contraindicated', retention: 'none' });
    expect(sha(raw.replace('draft-1', 'draft-2'))).not.toBe(payload.request_sha256);
    const [header, , signature] = receipt.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, decision: 'ok' })).toString('base64url');
    await expect(compactVerify(`${header}.${forged}.${signature}`, createLocalJWKSet(jwks))).rejects.toThrow();
  });

  it('screens only the selected orders on order-select; the other drafts count as current', async () => {
    const brufen = demoPackCode('US', 'M01AE01', 'ndc11');
    const warfarin = demoPackCode('US', 'B01AA03', 'ndc11');
    // Printed 4-4-2 (the 11-digit form pads the labeler): 0056-5592-53 for 00056559253.
    expect(warfarin.code.startsWith('0')).toBe(true);
    const dashed = `${warfarin.code.slice(1, 5)}-${warfarin.code.slice(5, 9)}-${warfarin.code.slice(9)}`;
    const { serviceId, body } = client.request('order-select', {
      selections: ['MedicationRequest/nsaid'],
      draftOrders: bundle([
        medicationRequest('nsaid', 'draft', { codings: [{ system: NDC, code: brufen.code }] }),
        // Pointed at through medicationReference: a contained Medication coded by dashed NDC.
        medicationRequest('anticoag', 'draft', { reference: '#med' }, { contained: [{ resourceType: 'Medication', id: 'med', code: { coding: [{ system: NDC, code: dashed }] } }] }),
      ]),
    }, {});
    expect(serviceId).toBe('drugref-order-select');
    const answer = expectCds(await client.call(serviceId, body));
    expect(answer.cards.map((c) => [c.indicator, c.summary])).toEqual([['warning', 'Major interaction: ibuprofen with warfarin']]);
    // Only the selected order is offered for removal.
    expect(answer.cards[0]!.suggestions!.flatMap((s) => s.actions.map((a) => a.resourceId))).not.toContain('MedicationRequest/anticoag');
  });

  it('maps an RxNorm clinical drug (SCD) to its ingredients through RxNav', async () => {
    const { serviceId, body } = client.request('order-sign', {
      draftOrders: bundle([medicationRequest('statin', 'draft', { codings: [{ system: RXNORM, code: '617312', display: 'atorvastatin 10 MG Oral Tablet' }] })]),
    }, { medications: bundle([medicationRequest('abx', 'active', { codings: [clarithromycin] })]) });
    const answer = expectCds(await client.call(serviceId, body));
    expect(answer.cards.map((c) => [c.indicator, c.summary])).toEqual([['warning', 'Major interaction: atorvastatin with clarithromycin']]);
    expect(t.fake.hits.some((h) => h.path === '/rxnav/REST/rxcui/617312/related.json')).toBe(true);
  });

  it('reports duplicate therapy and resolves a bundled Medication by reference', async () => {
    const { serviceId, body } = client.request('order-sign', {
      draftOrders: bundle([
        medicationRequest('s1', 'draft', { reference: 'Medication/zocor' }),
        { resourceType: 'Medication', id: 'zocor', code: { coding: [{ system: GTIN, code: zocor.code }] } },
      ]),
    }, { medications: bundle([medicationRequest('a1', 'active', { codings: [{ system: ATC, code: 'C10AA03' }] })]) });
    const answer = expectCds(await client.call(serviceId, body));
    expect(answer.cards.map((c) => [c.indicator, c.summary])).toEqual([['warning', 'Duplicate therapy: simvastatin and pravastatin are both in ATC group C10AA']]);
  });

  it('answers codes it does not recognise with one info card naming them, not an error', async () => {
    const { serviceId, body } = client.request('order-sign', {
      draftOrders: bundle([
        medicationRequest('u1', 'draft', { codings: [{ system: 'http://example.org/local-formulary', code: 'X-42' }] }),
        medicationRequest('u2', 'draft', { codings: [{ system: GTIN, code: '7680000000000' }] }),
      ]),
    }, { medications: null });
    const answer = expectCds(await client.call(serviceId, body));
    expect(answer.cards).toHaveLength(1);
    expect(answer.cards[0]).toMatchObject({ indicator: 'info', summary: '2 medication orders not recognised by drugref and not screened' });
    expect(answer.cards[0]!.detail).toContain('`http://example.org/local-formulary|X-42`');
    expect(answer.cards[0]!.detail).toContain(`\`${GTIN}|7680000000000\``);
    expect(answer.extension['drugref.decision']).toBe('caution');
  });

  it('answers no cards when nothing interacts or no medication is ordered', async () => {
    const { serviceId, body } = client.request('order-sign', {
      draftOrders: bundle([{ resourceType: 'ServiceRequest', id: 'lab', status: 'draft', intent: 'order' }]),
    }, {});
    expect(expectCds(await client.call(serviceId, body)).cards).toEqual([]);
  });
});

describe('POST /cds-services/{id} statuses', () => {
  it('401 without a key or with a key that is not a drugref key', async () => {
    const { serviceId, body } = signBody();
    for (const headers of [{}, { authorization: 'Bearer eyJhbGciOiJFUzM4NCJ9.e30.sig' }]) {
      const res = await t.app.inject({ method: 'POST', url: `/cds-services/${serviceId}`, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
      expectError(res, 401, 'unauthorized');
    }
  });

  it('403 forbidden with missing_scope interactions:write for a plan without it', async () => {
    const { serviceId, body } = signBody();
    const res = await new CdsClient(t, await t.key({ tier: 'starter' })).call(serviceId, body);
    expect(expectError(res, 403, 'forbidden')).toMatchObject({ tier: 'starter', missing_scope: 'interactions:write' });
  });

  it('429 quota_exceeded once the plan is used up (every call counts)', async () => {
    const free = new CdsClient(t, await t.key({ tier: 'developer' }));
    const { serviceId, body } = signBody();
    for (let i = 0; i < 10; i++) expect((await free.call(serviceId, body)).statusCode).toBe(403);
    const res = await free.call(serviceId, body);
    expectError(res, 429, 'quota_exceeded');
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('404 not_found for an unknown service id, before the body is looked at', async () => {
    const res = await client.call('drugref-patient-view', { anything: 'else', name: 'Jane Doe' });
    expectError(res, 404, 'not_found');
  });

  it('405 with allow on other verbs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/cds-services/drugref-order-sign', headers: { authorization: `Bearer ${key}` } });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  it('422 validation for a body that is not a CDS Hooks request', async () => {
    const { serviceId, body } = signBody();
    const cases: Array<unknown> = [
      { foo: 1 },
      { ...body, hook: 'order-select' },
      { ...body, context: { ...(body.context as object), surprise: true } },
      { ...body, prefetch: { patient: { resourceType: 'Observation' } } },
      '{"hook": "order-sign",',
    ];
    for (const payload of cases) {
      const res = await client.call(serviceId, typeof payload === 'string' ? payload : payload as Record<string, unknown>);
      expectError(res, 422, 'validation');
    }
    const selectWithout = client.request('order-select', { draftOrders: bundle([]) }, {});
    expectError(await client.call(selectWithout.serviceId, selectWithout.body), 422, 'validation');
  });

  it('422 phi_field_rejected for identifying content in prefetch or context, naming paths but never values', async () => {
    const { serviceId, body } = signBody();
    const draft = medicationRequest('d', 'draft', { codings: [clarithromycin] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, prefetch: { medications: bundle([{ resourceType: 'Patient', id: 'p', gender: 'female' }]) } }, 'prefetch.medications.entry[0].resource'],
      [{ ...body, prefetch: { medications: bundle([{ ...draft, subject: { reference: 'Patient/p', display: 'Jane Doe' } }]) } }, 'prefetch.medications.entry[0].resource.subject'],
      [{ ...body, context: { ...(body.context as object), draftOrders: bundle([{ ...draft, contained: [{ resourceType: 'Medication', id: 'm', code: {} }, { resourceType: 'RelatedPerson', id: 'r' }] }]) } }, 'context.draftOrders.entry[0].resource.contained[1]'],
      [{ ...body, context: { ...(body.context as object), patient: { birthDate: '1961-04-02' } } }, 'context.patient.birthDate'],
      [{ ...body, prefetch: { medications: bundle([{ ...draft, note: [{ telecom: '+41 79 000 00 00' }] }]) } }, 'prefetch.medications.entry[0].resource.note[0].telecom'],
    ];
    for (const [payload, path] of cases) {
      const res = await client.call(serviceId, payload);
      const error = expectError(res, 422, 'phi_field_rejected');
      expect(error.fields).toContain(path);
      for (const secret of ['Jane Doe', '1961-04-02', '+41 79']) expect(res.body).not.toContain(secret);
    }
    const logs = t.logs.join('\n');
    for (const secret of ['Jane Doe', '1961-04-02', '+41 79', zocor.code]) expect(logs).not.toContain(secret);
  });

  it('stores nothing of a call: no table but quota usage changes', async () => {
    const counts = async () => {
      const { rows } = await t.db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1");
      const out: Record<string, number> = {};
      for (const { table_name } of rows) out[table_name] = Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM "${table_name}"`)).rows[0]!.n);
      return out;
    };
    const { serviceId, body } = signBody();
    await client.call(serviceId, body);
    const before = await counts();
    expectCds(await client.call(serviceId, body));
    const after = await counts();
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    for (const table of changed) expect(table).toMatch(/usage|quota/);
  });

  it('validates every card of this file against the card schema', () => {
    expect(validCard({ summary: 'x'.repeat(140), indicator: 'info', source: { label: 'a' } })).toBe(false);
    expect(validCard({ summary: 'ok', indicator: 'info', source: { label: 'a' }, suggestions: [{ label: 's' }] })).toBe(false);
    expect(validCard({ summary: 'ok', indicator: 'urgent', source: { label: 'a' } })).toBe(false);
  });
});
