import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ROUTES } from '../../facades/routes/index.ts';
import { documentedStatuses } from '../../facades/rest/openapi.ts';
import { bareSchemas, successBodies } from '../helpers/openapi-coverage.ts';

describe('the OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ config: { publicRateLimitPerMinute: 5 } });
  });
  afterAll(() => t.close());

  it('is served without a key at both paths, and is a valid OpenAPI 3.1 document', async () => {
    const a = await t.app.inject({ url: '/v1/openapi.json' });
    const b = await t.app.inject({ url: '/api/v1/openapi.json' });
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toMatch(/^application\/json/);
    expect(b.body).toBe(a.body);
    // x-ratelimit-remaining means account quota here; the per-IP limit does not send it.
    expect(a.headers['x-ratelimit-remaining']).toBeUndefined();
    const doc = a.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('holds every route of the route table with its scope and statuses', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    for (const route of ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(route.operationId);
      expect(op['x-required-scope']).toBe(route.scope);
      expect(Object.keys(op.responses).map(Number)).toEqual(documentedStatuses(route));
    }
    expect(doc.paths['/v1/openapi.json'].get.security).toEqual([]);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes every success answer field by field; the only open objects say they are open by design', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const bodies = successBodies(doc);
    // 67 operations answer a body on success; GET /v1/drugs/{id} (format=fhir) and POST /v1/graphql (Accept) in two media types.
    expect(bodies).toHaveLength(69);
    expect(bodies.filter((b) => bareSchemas(doc, b.schema, '').length).map((b) => `${b.name}: ${bareSchemas(doc, b.schema, '').join(', ')}`)).toEqual([]);
    const drug = doc.paths['/v1/drugs/{id}'].get.responses['200'].content;
    expect(Object.keys(drug)).toEqual(['application/json', 'application/fhir+json']);
    expect(drug['application/json'].schema.properties.packs.items.properties.identifiers.items.required).toEqual(['system', 'code', 'valid_from', 'valid_to', 'previous']);
    expect(drug['application/fhir+json'].schema.properties.resourceType).toEqual({ type: 'string', const: 'Medication' });
    // The check itself: a bare object is reported, an open one that says so is not.
    expect(bareSchemas(doc, { type: 'object', properties: { a: { type: 'object' } } }, '')).toEqual(['/properties/a']);
    expect(bareSchemas(doc, { type: 'object', additionalProperties: true, description: 'Open by design: keys are data.' }, '')).toEqual([]);
  });

  it('describes FHIR errors as OperationOutcome, MCP refusals as JSON-RPC errors and the chat bodies as schemas', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const lookup = doc.paths['/fhir/CodeSystem/$lookup'].get.responses;
    expect(Object.keys(lookup['404'].content)).toEqual(['application/fhir+json']);
    expect(lookup['404'].content['application/fhir+json'].schema.properties.resourceType.const).toBe('OperationOutcome');
    expect(lookup['200'].content['application/fhir+json'].schema.properties.resourceType.const).toBe('Parameters');
    expect(doc.paths['/fhir/ValueSet/$expand'].get.responses['200'].content['application/fhir+json'].schema.properties.resourceType.const).toBe('ValueSet');
    const mcp400 = doc.paths['/v1/mcp'].post.responses['400'].content['application/json'].schema;
    expect(mcp400.required).toEqual(['jsonrpc', 'id', 'error']);
    expect(mcp400.properties.error.required).toEqual(['code', 'message']);
    const chat = doc.paths['/v1/chat'].post.requestBody.content['application/json'].schema;
    expect(chat.required).toEqual(['message']);
    expect(chat.properties.history.items.properties.role.enum).toEqual(['user', 'assistant']);
    expect(doc.paths['/v1/chat/packs'].post.requestBody.content['application/json'].schema.properties.pack.enum).toEqual(['answers_100', 'answers_500']);
  });

  it('limits keyless requests per IP with 429 rate_limited and retry-after', async () => {
    const fetchDoc = () => t.app.inject({ url: '/v1/openapi.json', remoteAddress: '203.0.113.9' });
    for (let i = 0; i < 5; i++) expect((await fetchDoc()).statusCode).toBe(200);
    const limited = await fetchDoc();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own budget.
    expect((await t.app.inject({ url: '/v1/openapi.json', remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
  });
});
