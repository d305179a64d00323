/**
 * GraphQL over HTTP on the public endpoint, through a listening server: the media type
 * negotiated from Accept, its statuses, and every audit of the graphql-http package
 * (`serverAudits`), of which exactly those docs/graphql.md lists as failing by design fail.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const JSON_UTF8 = 'application/json; charset=utf-8';

/** Audit ids of the "Conformance audit" table in docs/graphql.md. */
function documentedFailures(): string[] {
  const doc = readFileSync(new URL('../../docs/graphql.md', import.meta.url), 'utf8');
  const section = doc.split('### Conformance audit')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([0-9A-Z]{4})` \|/gm)].map((m) => m[1]!);
}

describe('GraphQL over HTTP (POST /v1/graphql)', () => {
  let t: TestApp;
  let key: string;
  let url: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    url = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/v1/graphql`;
  });
  afterAll(() => t.close());

  const post = (body: string, headers: Record<string, string> = {}, auth = true) => fetch(url, {
    method: 'POST', body, headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });

  it('passes every graphql-http server audit except the ones docs/graphql.md lists with their reason', async () => {
    // Every request carries a key: the endpoint authenticates and counts each one.
    const fetchFn = (input: string | URL | Request, init: RequestInit = {}) =>
      fetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${key}` } });
    const results = [];
    for (const audit of serverAudits({ url, fetchFn })) results.push(await audit.fn());
    expect(results.length).toBeGreaterThan(50);
    const failed = results.filter((r) => r.status !== 'ok').map((r) => r.id).sort();
    const documented = documentedFailures();
    expect(documented.length).toBeGreaterThan(0);
    expect(failed).toEqual([...documented].sort());
  });

  it('answers application/graphql-response+json when Accept prefers it, with data and 200', async () => {
    const res = await post('{"query":"{ __typename }"}', { accept: 'application/graphql-response+json, application/json;q=0.9' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(GRAPHQL_RESPONSE);
    expect(res.headers.get('vary')).toBe('accept');
    expect(res.headers.get('x-service-tier')).toBe('enterprise');
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    const preferred = await post('{"query":"{ __typename }"}', { accept: 'application/json;q=0.5, application/graphql-response+json' });
    expect(preferred.headers.get('content-type')).toBe(GRAPHQL_RESPONSE);
  });

  it('keeps application/json when Accept prefers it, is missing, is */* or names neither type', async () => {
    for (const accept of ['application/json, application/graphql-response+json;q=0.5', '*/*', 'text/html', undefined]) {
      const res = await post('{"query":"{ __typename }"}', accept ? { accept } : {});
      expect([accept, res.status, res.headers.get('content-type')]).toEqual([accept, 200, JSON_UTF8]);
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('answers request errors 400 without data in the negotiated type, the API error fields first', async () => {
    const accept = { accept: 'application/graphql-response+json' };
    const syntax = await post('{"query":"{"}', accept);
    expect(syntax.status).toBe(400);
    expect(syntax.headers.get('content-type')).toBe(GRAPHQL_RESPONSE);
    const body = await syntax.json() as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['error', 'message', 'errors']);
    expect(body).toMatchObject({ error: 'graphql_rejected', errors: [{ extensions: { code: 'graphql_rejected', reason: 'syntax' } }] });
    const mutation = await post(JSON.stringify({ query: 'mutation { __typename }' }), accept);
    expect([mutation.status, mutation.headers.get('content-type')]).toEqual([400, GRAPHQL_RESPONSE]);
    expect(await mutation.json()).toMatchObject({ error: 'graphql_rejected', errors: [{ extensions: { reason: 'mutation' } }] });
    const notJson = await post('{ "not a JSON', accept);
    expect([notJson.status, notJson.headers.get('content-type')]).toEqual([400, GRAPHQL_RESPONSE]);
    expect(await notJson.json()).toMatchObject({ error: 'bad_request', message: 'The body is not valid JSON.' });
    const extensions = await post(JSON.stringify({ query: '{ __typename }', extensions: 'x' }), accept);
    expect([extensions.status, await extensions.json()]).toEqual([400, {
      error: 'bad_request', message: 'The body field "extensions" must be an object.',
      errors: [{ message: 'The body field "extensions" must be an object.', extensions: { code: 'bad_request' } }],
    }]);
  });

  it('answers pipeline errors as the API JSON error body whatever Accept asks', async () => {
    const res = await post('{"query":"{ __typename }"}', { accept: 'application/graphql-response+json' }, false);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('accepts UTF-8 requests: the characters audit BF61 sends, as a variable', async () => {
    const res = await post(JSON.stringify({ query: 'query ($code: String!) { atc(code: $code) { code } }', variables: { code: 'Run🏃Swim🏊' } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { atc: null } });
  });

  it('runs no query by GET: the SDL read refuses query parameters with 422', async () => {
    const res = await fetch(`${url}?${new URLSearchParams({ query: 'mutation { __typename }' })}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: 'validation', message: 'Invalid request: query query is not a known parameter.' });
    const sdl = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect([sdl.status, sdl.headers.get('content-type')]).toEqual([200, 'application/graphql; charset=utf-8']);
  });
});
