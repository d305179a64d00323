import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PUBLIC_LIMITS } from '../../facades/graphql/rules.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

/** `atc(code) { parent { parent { ... code } } }` with `levels` nested parent fields. */
function nestedParents(levels: number): string {
  return `{ atc(code: "N02BE01") { ${'parent { '.repeat(levels)}code${' }'.repeat(levels)} } }`;
}

describe('POST /v1/graphql refusals (one query per rule)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  async function refused(query: string, reason: string, variables?: Record<string, unknown>) {
    const res = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query, variables } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body)[0]).toBe('error');
    expect(body.error).toBe('graphql_rejected');
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) expect(error.extensions.code).toBe('graphql_rejected');
    expect(body.errors.map((e: { extensions: { reason?: string } }) => e.extensions.reason)).toContain(reason);
    return body as { error: string; message: string; errors: Array<{ message: string }> };
  }

  it('refuses named fragments', async () => {
    const body = await refused('query { atc(code: "N02") { ...Node } } fragment Node on AtcNode { code name }', 'fragment');
    expect(body.message).toMatch(/^The query was rejected: /);
    expect(body.message).toContain('Fragments are not supported (fragment Node)');
    expect(body.message).toContain('Fragment spreads are not supported (...Node)');
  });

  it('refuses inline fragments', async () => {
    const body = await refused('{ atc(code: "N02") { ... on AtcNode { code } } }', 'inline_fragment');
    expect(body.message).toContain('Inline fragments are not supported');
  });

  it('refuses any directive, even the built-in @include', async () => {
    const body = await refused('query ($all: Boolean!) { atc(code: "N02") { code name @include(if: $all) } }', 'directive', { all: true });
    expect(body.message).toContain('Directives are not supported (@include)');
  });

  it('refuses a document with more than one operation', async () => {
    const body = await refused('query A { atc(code: "N02") { code } } query B { atc(code: "N") { code } }', 'multiple_operations');
    expect(body.message).toContain('The document holds 2 operations; send exactly one per request.');
  });

  it('refuses mutations', async () => {
    const body = await refused('mutation { atc(code: "N02") { code } }', 'mutation');
    expect(body.message).toContain('Mutations are not available on the public endpoint.');
  });

  it('refuses subscriptions', async () => {
    const body = await refused('subscription { atc(code: "N02") { code } }', 'subscription');
    expect(body.message).toContain('Subscriptions are not available on the public endpoint.');
  });

  it('refuses introspection beyond __typename (__schema)', async () => {
    const body = await refused('{ __schema { types { name } } }', 'introspection');
    expect(body.message).toContain('Introspection is not available beyond __typename (__schema)');
  });

  it('refuses introspection beyond __typename (__type)', async () => {
    const body = await refused('{ __type(name: "AtcNode") { name } }', 'introspection');
    expect(body.message).toContain('(__type)');
  });

  it('refuses a query deeper than the documented limit', async () => {
    // atc + parents + code: levels + 2 deep.
    const body = await refused(nestedParents(PUBLIC_LIMITS.maxDepth - 1), 'depth');
    expect(body.message).toContain(`The query is ${PUBLIC_LIMITS.maxDepth + 1} levels deep; the public endpoint allows at most ${PUBLIC_LIMITS.maxDepth}.`);
  });

  it('accepts a query exactly at the depth limit', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: nestedParents(PUBLIC_LIMITS.maxDepth - 2) } });
    expect(res.statusCode).toBe(200);
    // N02BE01 has four ancestors, so the fifth parent is null.
    expect(res.json()).toEqual({ data: { atc: { parent: { parent: { parent: { parent: { parent: null } } } } } } });
  });

  it('refuses a query selecting more fields than the documented limit', async () => {
    // atc plus maxFields selections of code: one over the limit.
    const body = await refused(`{ atc(code: "N02") { ${'code '.repeat(PUBLIC_LIMITS.maxFields)}} }`, 'size');
    expect(body.message).toContain(`The query selects ${PUBLIC_LIMITS.maxFields + 1} fields; the public endpoint allows at most ${PUBLIC_LIMITS.maxFields}.`);
  });

  it('refuses a document longer than the token limit before validating it', async () => {
    const names = Array.from({ length: PUBLIC_LIMITS.maxTokens }, () => 'code').join(' ');
    const body = await refused(`{ atc(code: "N02") { ${names} } }`, 'size');
    expect(body.message).toBe(`The query was rejected: The query is longer than ${PUBLIC_LIMITS.maxTokens} tokens.`);
  });

  it('refuses a document that does not parse', async () => {
    const body = await refused('{ atc(code: "N02") { code }', 'syntax');
    expect(body.message).toMatch(/^The query was rejected: The query does not parse: Syntax Error/);
  });

  it('answers a repeated document the same way each time (parse and validation are cached)', async () => {
    const query = '{ atc(code: "N02") { code name } }';
    const answers = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query } })));
    for (const res of answers) expect(res.json()).toEqual({ data: { atc: { code: 'N02', name: 'ANALGESICS' } } });
    const first = await refused('{ atc(code: "N02") { code @skip(if: true) } }', 'directive');
    const second = await refused('{ atc(code: "N02") { code @skip(if: true) } }', 'directive');
    expect(second).toEqual(first);
  });

  it('refuses fields the public view does not have, such as internal ones', async () => {
    const body = await refused('{ sources { id } }', 'invalid');
    expect(body.message).toContain('Cannot query field "sources" on type "Query".');
  });

  it('reports each validation error once', async () => {
    const body = await refused('{ atc(code: 1) { nope } }', 'invalid');
    expect(body.errors.map((e) => e.message)).toEqual([
      'String cannot represent a non string value: 1',
      'Cannot query field "nope" on type "AtcNode". Did you mean "code" or "name"?',
    ]);
    expect(body.message.match(/Cannot query field/g)).toHaveLength(1);
  });

  it('refuses a variable of the wrong type before executing', async () => {
    const body = await refused('query ($code: String!) { atc(code: $code) { code } }', 'invalid', { code: 7 });
    expect(body.message).toContain('Variable "$code" got invalid value 7');
  });
});
