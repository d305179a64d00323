import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

const ATC_QUERY = 'query Node($code: String!) { atc(code: $code) { __typename code name level ancestors { code } ddd { value unit route } meta { sources { id lastSyncedAt schemaState } } } }';

describe('POST /v1/graphql', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    key = await t.key({ tier: 'pro' });
  });
  afterAll(() => t.close());

  const post = (payload: unknown, headers: Record<string, string> = bearer(key)) =>
    t.app.inject({ method: 'POST', url: '/v1/graphql', headers, payload: payload as Record<string, unknown> });

  it('answers a query with camelCase fields from the real ATC resolver, one request of quota per POST', async () => {
    const res = await post({ query: ATC_QUERY, variables: { code: 'n02be01' }, operationName: 'Node' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-service-tier']).toBe('pro');
    // Pro: daily cap 500 is the tighter ceiling.
    expect(res.headers['x-ratelimit-remaining']).toBe('499');
    expect(res.json()).toEqual({
      data: {
        atc: {
          __typename: 'AtcNode',
          code: 'N02BE01',
          name: 'paracetamol',
          level: 5,
          ancestors: [{ code: 'N' }, { code: 'N02' }, { code: 'N02B' }, { code: 'N02BE' }],
          ddd: [{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'R' }],
          meta: { sources: [{ id: 'who-atc', lastSyncedAt: expect.any(String), schemaState: 'ok' }] },
        },
      },
    });
    // Several root fields in one POST still count once.
    const twice = await post({ query: '{ a: atc(code: "N02") { code } b: atc(code: "N") { code } }' });
    expect(twice.json()).toEqual({ data: { a: { code: 'N02' }, b: { code: 'N' } } });
    expect(twice.headers['x-ratelimit-remaining']).toBe('498');
  });

  it('answers null data for an unknown code, as the schema says, with 200', async () => {
    const res = await post({ query: '{ atc(code: "Z99") { code } }' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { atc: null } });
  });

  it('answers 401 unauthorized without a key, before reading the body', async () => {
    const res = await post({ query: '{ atc(code: "N02") { code } }' }, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('answers 403 forbidden naming graphql:query to a tier without it', async () => {
    const developer = await t.key({ tier: 'developer' });
    const res = await post({ query: '{ atc(code: "N02") { code } }' }, bearer(developer));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', message: expect.any(String), tier: 'developer', missing_scope: 'graphql:query' });
  });

  it('answers 400 bad_request when the body has no query', async () => {
    const res = await post({ variables: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: 'The body field "query" must be a non-empty string.',
      errors: [{ message: 'The body field "query" must be a non-empty string.', extensions: { code: 'bad_request' } }],
    });
  });

  it('answers 400 bad_request when variables is not an object', async () => {
    const res = await post({ query: '{ atc(code: "N02") { code } }', variables: [1] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', message: 'The body field "variables" must be an object.' });
  });

  it('answers 400 bad_request (not 422) when the body is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/graphql', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"query": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request', message: 'The body is not valid JSON.', errors: [{ extensions: { code: 'bad_request' } }] });
  });

  it('answers 400 graphql_rejected when operationName names no operation', async () => {
    const res = await post({ query: 'query A { atc(code: "N02") { code } }', operationName: 'B' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'graphql_rejected', message: 'The query was rejected: Unknown operation named "B".' });
  });

  it('refuses the changes field to a key without changes:read, field by field', async () => {
    const narrow = await t.key({ tier: 'pro', scopes: ['graphql:query'] });
    const res = await post({ query: '{ changes(limit: 1) { changes { id } } atc(code: "N02") { code } }' }, bearer(narrow));
    expect(res.statusCode).toBe(200);
    // The refused field answers null; the rest of the query still answers.
    expect(res.json()).toEqual({
      data: { changes: null, atc: { code: 'N02' } },
      errors: [{
        message: 'The field changes needs the scope changes:read.',
        locations: [{ line: 1, column: 3 }],
        path: ['changes'],
        extensions: { code: 'forbidden', tier: 'pro', missing_scope: 'changes:read' },
      }],
    });
    const allowed = await post({ query: '{ changes(limit: 1) { changes { id } } }' });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().errors).toBeUndefined();
    expect(Array.isArray(allowed.json().data.changes.changes)).toBe(true);
  });

  it('refuses a malformed rxcui as REST does, instead of answering null', async () => {
    const res = await post({ query: '{ rxnorm(rxcui: "1 OR 1=1") { rxcui } }' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ rxnorm: null });
    expect(res.json().errors[0]).toMatchObject({
      message: 'Invalid request: rxcui must be an RxNorm concept id of 1 to 10 digits.', path: ['rxnorm'], extensions: { code: 'validation' },
    });
  });

  it('answers 405 with allow for other verbs', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/graphql', headers: bearer(key) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST, GET, HEAD');
    expect(res.json().error).toBe('method_not_allowed');
  });

  it('is documented in the OpenAPI document with its scope and statuses', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const post = doc.paths['/v1/graphql'].post;
    expect(post['x-required-scope']).toBe('graphql:query');
    expect(Object.keys(post.responses)).toEqual(['200', '400', '401', '403', '414', '429']);
    expect(post.requestBody.content['application/json'].schema.required).toEqual(['query']);
    expect(Object.keys(doc.paths['/v1/graphql'].get.responses['200'].content)).toEqual(['application/graphql']);
  });
});

describe('POST /v1/graphql when a resolver fails unexpectedly', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    // Breaking the table makes the real ATC resolver throw a database error.
    await t.db.query('ALTER TABLE atc_nodes RENAME TO atc_nodes_gone');
  });
  afterAll(() => t.close());

  it('masks the error as internal_error in extensions.code and logs the original', async () => {
    const key = await t.key({ tier: 'pro' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: '{ atc(code: "N02") { code } }' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { atc: null },
      errors: [{ message: 'An unexpected error occurred.', locations: [{ line: 1, column: 3 }], path: ['atc'], extensions: { code: 'internal_error' } }],
    });
    expect(res.body).not.toContain('atc_nodes');
    expect(t.logs.some((line) => line.includes('public graphql field failed') && line.includes('atc_nodes'))).toBe(true);
  });
});
