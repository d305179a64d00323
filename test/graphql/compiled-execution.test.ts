/**
 * Compiled execution (graphql-jit, platform/graphql/engine.ts): route documents run compiled
 * from their first call; any other document runs on graphql-js once and compiled from its
 * second use. The compiled answer must be exactly graphql-js's, errors and nulls included.
 */
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../platform/graphql/engine.ts';
import { buildInternalSchema } from '../../resolvers/index.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

/** graphql-jit's envelop plugin gives a compiled result its own serialiser; graphql-js's has none. */
const compiled = (result: object) => typeof (result as { stringify?: unknown }).stringify === 'function';

describe('compiled execution', () => {
  it('compiles a route document from its first run, any other document from its second', async () => {
    const engine = createEngine(buildInternalSchema());
    const ctx = {};
    const route = engine.compile('query ($code: String!) { atcLevel: __typename, t: __type(name: $code) { name } }');
    expect(engine.runsCompiled(route)).toBe(true);
    const answer = await engine.run(route, { code: 'AtcNode' }, ctx);
    expect(compiled(answer)).toBe(true);
    expect(answer.data).toEqual({ atcLevel: 'Query', t: { name: 'AtcNode' } });
    const other = parse('{ __typename }');
    expect(engine.runsCompiled(other)).toBe(false);
    expect(compiled(await engine.run(other, {}, ctx))).toBe(false);
    const second = await engine.run(other, {}, ctx);
    expect(compiled(second)).toBe(true);
    expect(second.data).toEqual({ __typename: 'Query' });
  });
});

const DOCUMENTS: Array<{ name: string; query: string; variables?: Record<string, unknown> }> = [
  {
    name: 'nested drugs with ingredients, ATC chain, packs and prices',
    query: `query ($q: String!) { drugs(q: $q, country: "ALL", limit: 5) { results {
      id productName country atcCode ingredients { unii name strengthValue strengthUnit }
      atcChain { code name level } packs { id description units prices { kind amount currency validFrom } } } } }`,
    variables: { q: 'ibuprofen' },
  },
  {
    name: 'fragments, aliases, __typename and directives',
    query: `query ($with: Boolean!) { a: atc(code: "N02BE01") { ...node ddd @include(if: $with) { value unit route } }
      b: atc(code: "Z99") { code } } fragment node on AtcNode { __typename code name level ancestors { code } }`,
    variables: { with: true },
  },
  {
    name: 'a field error next to data',
    query: '{ ok: atc(code: "N02") { code } drug(id: "no-such-drug") { id } }',
  },
  {
    name: 'a variable of the wrong type (a request error, no data)',
    query: 'query ($code: String!) { atc(code: $code) { code } }',
    variables: { code: 42 },
  },
];

describe('the public endpoint answers the same compiled as on graphql-js', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ db: await openTestDatabase({ demo: true }) });
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  for (const doc of DOCUMENTS) {
    it(doc.name, async () => {
      const post = () => t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: doc.query, variables: doc.variables ?? null } });
      const first = await post();
      const second = await post();
      const third = await post();
      expect(second.statusCode).toBe(first.statusCode);
      expect(second.json()).toEqual(first.json());
      expect(third.json()).toEqual(first.json());
      expect(first.json()).not.toEqual({});
    });
  }
});
