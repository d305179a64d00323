import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ROUTES } from '../../facades/routes/index.ts';
import type { JsonSchema, RouteDef } from '../../facades/routes/types.ts';
import { pathOf, queryString, sampleOf } from '../helpers/schema-sample.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';

/** An OperationOutcome (the /fhir paths' error shape) read as the JSON error body it carries. */
function fromOutcome(outcome: { issue: Array<{ details: { coding: Array<{ code: string }> }; diagnostics: string; expression?: string[] }> }): Record<string, unknown> {
  const issue = outcome.issue[0]!;
  return { error: issue.details.coding[0]!.code, message: issue.diagnostics, details: (issue.expression ?? []).map((field) => ({ field })) };
}

/** Every error answer: JSON, `error` its first key (under /fhir an OperationOutcome carrying the same code). */
function expectErrorBody(res: LightMyRequestResponse, code: string): Record<string, unknown> {
  const fhir = /^\/fhir(\/|\?|$)/.test(res.raw.req.url ?? '');
  expect(res.headers['content-type']).toMatch(fhir ? /^application\/fhir\+json/ : /^application\/json/);
  const body = fhir ? fromOutcome(res.json()) : (res.json() as Record<string, unknown>);
  expect(Object.keys(body)[0]).toBe('error');
  expect(body.error).toBe(code);
  return body;
}

function fieldsOf(body: Record<string, unknown>): unknown[] {
  return ((body.details ?? []) as Array<{ field: unknown }>).map((d) => d.field);
}

const PAGING = ['limit', 'offset', 'per_country', 'min_drugs'];

describe('hardening against malformed input', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key();
  });
  afterAll(() => t.close());

  it('refuses a body nested 2,000 levels deep on prescription validation with 422 validation', async () => {
    const deep = '['.repeat(2000) + ']'.repeat(2000);
    const res = await t.app.inject({
      method: 'POST', url: '/v1/prescriptions/validate', headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: `{"proposed":["aspirin"],"current":${deep}}`,
    });
    expect(res.statusCode).toBe(422);
    expect(expectErrorBody(res, 'validation').message).toMatch(/nested deeper than/);
  });

  it('still refuses identifying fields in a shallow body, in document order', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/prescriptions/validate', headers: bearer(key),
      payload: { proposed: ['aspirin'], patient: { name: { first: 'x' }, dob: '1970' }, context: { email: 'a' } },
    });
    expect(res.statusCode).toBe(422);
    expect(expectErrorBody(res, 'phi_field_rejected').fields).toEqual(['patient.name', 'patient.dob', 'context.email']);
  });

  it.each([
    ['/v1/drugs?q=%00', 'q'],
    ['/v1/drugs?q=ibu%00profen', 'q'],
    ['/v1/substances/xref?name=%00', 'name'],
    ['/v1/classes?q=%00', 'q'],
    ['/v1/markets/overview?q=%00', 'q'],
  ])('refuses a NUL byte in %s with 422 naming the field', async (url, field) => {
    const res = await t.app.inject({ url, headers: bearer(key) });
    expect(res.statusCode).toBe(422);
    const body = expectErrorBody(res, 'validation');
    expect(fieldsOf(body)).toContain(field);
    expect(body.message).toMatch(/NUL/);
  });

  it('refuses a NUL byte in a drug name of an interaction check, naming the item', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/interactions/check', headers: bearer(key), payload: { drugs: ['warfarin', 'ibu\u0000profen'] } });
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(expectErrorBody(res, 'validation'))).toContain('drugs.1');
  });

  it('answers a NUL byte in a public GraphQL argument as a validation field error, never a database error', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/graphql', headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: { query: 'query ($q: String!) { drugs(q: $q) { count } }', variables: { q: 'ibu\u0000profen' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([expect.objectContaining({
      message: 'Invalid request: a text value contains a NUL (U+0000) character.', path: ['drugs'], extensions: expect.objectContaining({ code: 'validation' }),
    })]);
  });

  it('refuses NUL and 32-bit overflow in MCP tool arguments exactly like REST', async () => {
    for (const args of [{ q: 'ibu\u0000profen', country: 'ALL' }, { q: 'ibuprofen', country: 'ALL', limit: 'Infinity' }]) {
      const res = await mcpPost(t, key, rpc('tools/call', { name: 'search_drugs', arguments: args }));
      expect(res.statusCode).toBe(200);
      const out = toolText(res);
      expect(out.isError).toBe(true);
      expect(out.json).toMatchObject({ error: 'validation' });
    }
  });

  // Derived from the route table, so a new route with a paging parameter is covered too.
  const pagingCases = ROUTES.flatMap((route) => {
    const query = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
    const body = (route.body?.properties ?? {}) as Record<string, JsonSchema>;
    return [
      ...Object.keys(query).filter((k) => PAGING.includes(k)).map((k) => [route, 'query', k] as const),
      ...Object.keys(body).filter((k) => PAGING.includes(k)).map((k) => [route, 'body', k] as const),
    ];
  });

  it('finds the paging parameters in the route table', () => {
    expect(pagingCases.map(([r, , k]) => `${r.path} ${k}`)).toEqual(expect.arrayContaining(['/v1/drugs limit', '/v1/classes min_drugs', '/v1/classes offset']));
  });

  it.each(pagingCases.map(([route, where, name]) => [`${route.method} ${route.path} ${where} ${name}`, route, where, name] as const))(
    'refuses Infinity, -Infinity and integers beyond 32 bits in %s',
    async (_label, route: RouteDef, where, name) => {
      const params = sampleOf(route.params ?? { type: 'object' }) as Record<string, unknown>;
      const query = sampleOf(route.query ?? { type: 'object' }) as Record<string, unknown>;
      const body = sampleOf(route.body ?? { type: 'object' }) as Record<string, unknown>;
      for (const raw of ['Infinity', '-Infinity', '4294967296', '-4294967296', '99999999999999999999', '1e400']) {
        const res = where === 'query'
          ? await t.app.inject({ method: route.method, url: `${pathOf(route, params)}${queryString({ ...query, [name]: raw })}`, headers: bearer(key), ...(route.body ? { payload: body } : {}) })
          : await t.app.inject({
            method: route.method, url: `${pathOf(route, params)}${queryString(query)}`, headers: { ...bearer(key), 'content-type': 'application/json' },
            // Raw JSON: 1e400 parses to Infinity, the JSON spelling of it.
            payload: JSON.stringify({ ...body, [name]: 0 }).replace(`"${name}":0`, `"${name}":${/^-?\d+$|e/.test(raw) ? raw : '1e400'}`),
          });
        expect(res.statusCode, `${name}=${raw}`).toBe(422);
        expect(fieldsOf(expectErrorBody(res, 'validation')), `${name}=${raw}`).toContain(name);
      }
    },
  );

  it.each(['/v1/openapi.json', '/api/v1/openapi.json'])('answers POST, PUT and DELETE on %s with 405 and allow', async (url) => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(expectErrorBody(res, 'method_not_allowed').message).toBe(`${method} is not allowed here; use GET, HEAD.`);
    }
  });

  it('answers any verb but POST on /v1/chat/subscribe with 405 and allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: '/v1/chat/subscribe', headers: bearer(key) });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(expectErrorBody(res, 'method_not_allowed').message).toBe(`${method} is not allowed here; use POST.`);
    }
  });

  it('still does not advertise a verb that is routed only to answer 404 (POST on BYOL)', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/v1/byol/example', headers: bearer(key) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).not.toMatch(/POST/);
  });

  it('answers an OPTIONS request that is not a preflight with a JSON 400', async () => {
    for (const headers of [{}, { origin: 'https://app.example' }, { 'access-control-request-method': 'GET' }]) {
      const res = await t.app.inject({ method: 'OPTIONS', url: '/v1/drugs', headers });
      expect(res.statusCode).toBe(400);
      expectErrorBody(res, 'bad_request');
    }
  });

  it('still answers a valid preflight with 204 and the CORS headers', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/v1/drugs', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
