import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, parse, printSchema } from 'graphql';
import type { ExecutionResult, GraphQLError } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildInternalSchema } from '../../resolvers/index.ts';
import { buildPublicSchema, PUBLIC_QUERY_FIELDS } from '../../facades/graphql/public-schema.ts';
import { executionErrors } from '../../facades/graphql/errors.ts';
import { ApiError } from '../../platform/errors.ts';
import { tierScopes } from '../../resolvers/accounts/tiers.ts';
import type { Principal } from '../../resolvers/accounts/keys.ts';
import type { Logger } from '../../platform/logger.ts';

describe('GET /v1/graphql (the public view as SDL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers the SDL as application/graphql to any valid key, even without graphql:query', async () => {
    const key = await t.key({ tier: 'developer' });
    const res = await t.app.inject({ url: '/v1/graphql', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/graphql; charset=utf-8');
    expect(res.headers['x-service-tier']).toBe('developer');
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
    await expect(res.body).toMatchFileSnapshot('__snapshots__/public-schema.graphql');
  });

  it('answers 401 without a key: the schema is not public', async () => {
    const res = await t.app.inject({ url: '/v1/graphql' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('has a Query root of exactly the spec fields the internal schema holds, without mutations', async () => {
    const key = await t.key({ tier: 'developer' });
    const sdl = (await t.app.inject({ url: '/v1/graphql', headers: bearer(key) })).body;
    const internalFields = Object.keys(buildInternalSchema().getQueryType()!.getFields());
    const publicSchema = makeExecutableSchema({ typeDefs: sdl });
    expect(Object.keys(publicSchema.getQueryType()!.getFields()).sort())
      .toEqual(PUBLIC_QUERY_FIELDS.filter((f) => internalFields.includes(f)).sort());
    expect(publicSchema.getQueryType()!.getFields().atc).toBeDefined();
    expect(publicSchema.getMutationType()).toBeUndefined();
    expect(publicSchema.getSubscriptionType()).toBeUndefined();
    expect(publicSchema.getQueryType()!.getFields().sources).toBeUndefined();
  });
});

/** A small internal schema with every kind of field the filter must handle. */
const INTERNAL = makeExecutableSchema({
  typeDefs: `
    type Query { atc(code: String!): Node  changes: [Change!]!  secret: Hidden  other: Int }
    type Mutation { wipe: Boolean }
    "A node." type Node { code: String! }
    type Change { id: ID! }
    type Hidden { value: String }
  `,
  resolvers: {
    Query: { atc: (_: unknown, { code }: { code: string }) => ({ code }), changes: () => [{ id: 'c1' }], secret: () => ({ value: 'x' }) },
    Mutation: { wipe: () => true },
  },
});

function principal(scopes: string[]): Principal {
  return { accountId: 'a', accountName: 'a', tier: 'pro', keyId: 'k', keyPrefix: 'svc_live_', lastFour: 'abcd', scopes: new Set(scopes) as Principal['scopes'] };
}

describe('buildPublicSchema', () => {
  const view = buildPublicSchema(INTERNAL);

  it('keeps only the listed Query fields and the types they reach', () => {
    const sdl = printSchema(view);
    expect(Object.keys(view.getQueryType()!.getFields())).toEqual(['atc', 'changes']);
    expect(view.getMutationType()).toBeUndefined();
    expect(view.getType('Hidden')).toBeUndefined();
    expect(sdl).toContain('"""A node."""\ntype Node');
    expect(sdl).toContain('Needs the scope `changes:read` besides `graphql:query`.');
  });

  it('runs the real resolvers of the internal schema', async () => {
    const result = (await execute({ schema: view, document: parse('{ atc(code: "N02") { code } }'), contextValue: { principal: principal(['graphql:query']) } })) as ExecutionResult;
    expect(result).toEqual({ data: { atc: { code: 'N02' } } });
  });

  it('refuses changes to a key without changes:read with a forbidden error naming the scope', async () => {
    const result = (await execute({ schema: view, document: parse('{ changes { id } }'), contextValue: { principal: principal(['graphql:query']) } })) as ExecutionResult;
    expect(result.data).toEqual({ changes: null });
    const original = result.errors?.[0]?.originalError;
    expect(original).toBeInstanceOf(ApiError);
    expect((original as ApiError).toBody()).toEqual({
      error: 'forbidden', message: 'The field changes needs the scope changes:read.', tier: 'pro', missing_scope: 'changes:read',
    });
  });

  it('answers changes to a key with changes:read', async () => {
    const scopes = [...tierScopes('pro')];
    const result = (await execute({ schema: view, document: parse('{ changes { id } }'), contextValue: { principal: principal(scopes) } })) as ExecutionResult;
    expect(result).toEqual({ data: { changes: [{ id: 'c1' }] } });
  });

  it('fails the start when the internal schema has none of the public fields', () => {
    const bare = makeExecutableSchema({ typeDefs: 'type Query { other: Int }' });
    expect(() => buildPublicSchema(bare)).toThrow('none of the public Query fields');
  });
});

describe('executionErrors', () => {
  it('keeps an ApiError code and fields in extensions and masks anything else', () => {
    const logged: unknown[] = [];
    const log = { error: (obj: unknown) => logged.push(obj) } as unknown as Logger;
    const view = buildPublicSchema(INTERNAL);
    const forbidden = execute({ schema: view, document: parse('{ changes { id } }'), contextValue: { principal: principal([]) } }) as ExecutionResult;
    const internal = { message: 'relation "x" does not exist', path: ['atc'], locations: [{ line: 1, column: 3 }], originalError: new Error('relation "x" does not exist') } as unknown as GraphQLError;
    const errors = executionErrors([...forbidden.errors!, internal], log);
    expect(errors).toEqual([
      { message: 'The field changes needs the scope changes:read.', locations: [{ line: 1, column: 3 }], path: ['changes'], extensions: { code: 'forbidden', tier: 'pro', missing_scope: 'changes:read' } },
      { message: 'An unexpected error occurred.', locations: [{ line: 1, column: 3 }], path: ['atc'], extensions: { code: 'internal_error' } },
    ]);
    expect(logged).toHaveLength(1);
  });
});
