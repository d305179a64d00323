import { describe, expect, it } from 'vitest';
import { MAX_TOOL_RESULT_CHARS, TRUNCATION_MARKER, truncateResult } from '../../facades/mcp/truncate.ts';
import { buildTools, mergeInputSchema } from '../../facades/mcp/tools.ts';
import { compileRoutes } from '../../facades/http/operation.ts';
import { ROUTES } from '../../facades/routes/index.ts';
import { ApiError } from '../../platform/errors.ts';
import { createEngine } from '../../platform/graphql/engine.ts';
import { buildInternalSchema } from '../../resolvers/index.ts';
import { checkBody, classify } from '../../facades/mcp/jsonrpc.ts';
import type { RouteDef } from '../../facades/routes/types.ts';

describe('truncateResult', () => {
  it('leaves a result of at most 60,000 characters untouched', () => {
    const text = 'a'.repeat(MAX_TOOL_RESULT_CHARS);
    expect(truncateResult(text)).toEqual({ text, truncated: false });
  });

  it('cuts a longer result to at most 60,000 characters ending in the marker', () => {
    const text = 'b'.repeat(MAX_TOOL_RESULT_CHARS + 1);
    const out = truncateResult(text);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    const cut = out.text.indexOf(TRUNCATION_MARKER);
    expect(out.text.slice(0, cut)).toBe('b'.repeat(cut));
    expect(out.text.slice(cut)).toBe(`${TRUNCATION_MARKER}: showing the first ${cut} of ${MAX_TOOL_RESULT_CHARS + 1} characters; the JSON above is incomplete. Ask for less (a smaller limit, a narrower filter or a more specific code) to get a complete answer.]`);
  });

  it('honours a smaller cap', () => {
    const out = truncateResult('c'.repeat(1_000), 400);
    expect(out.text.length).toBeLessThanOrEqual(400);
    expect(out.text).toContain('of 1000 characters');
  });
});

const ROUTE: RouteDef = {
  operationId: 'listThings', method: 'POST', path: '/v1/things/{id}', scope: 'drugs:read', summary: 's', tags: [], statuses: [200],
  document: '{ x }',
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  query: { type: 'object', properties: { limit: { type: 'integer', default: 20 }, country: { type: 'string' } }, required: ['country'] },
  body: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } } },
};

describe('mergeInputSchema', () => {
  it('merges path, query and body properties into one object schema, path fields required', () => {
    const { schema, locations } = mergeInputSchema(ROUTE);
    expect(schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, limit: { type: 'integer', default: 20 }, country: { type: 'string' }, names: { type: 'array', items: { type: 'string' } } },
      required: ['id', 'country'],
      additionalProperties: false,
    });
    expect([...locations]).toEqual([['id', 'path'], ['limit', 'query'], ['country', 'query'], ['names', 'body']]);
  });

  it('refuses a route whose parts share a field name', () => {
    const clash = { ...ROUTE, query: { type: 'object', properties: { id: { type: 'string' } } } };
    expect(() => mergeInputSchema(clash)).toThrow('"id" is both a path and a query field');
  });
});

describe('buildTools', () => {
  // Each tool compiles its validator on its first call (it kept the start slow); a schema
  // ajv cannot compile must still fail here, not in front of a client.
  it('compiles every tool\'s input schema: empty arguments are answered or refused with a validation error', () => {
    const tools = buildTools(compileRoutes(createEngine(buildInternalSchema()), ROUTES));
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      try {
        tool.prepare({});
      } catch (err) {
        expect(err, tool.definition.name).toBeInstanceOf(ApiError);
      }
    }
  });
});

describe('JSON-RPC framing', () => {
  it('treats a client response as nothing to answer and a null id as invalid', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, result: {} })).toEqual({ kind: 'ignore' });
    expect(classify({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({ kind: 'invalid', answer: { error: { code: -32600 } } });
  });

  it('accepts batches of 1 to 20 and refuses 0 and 21', () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect(checkBody([ping])).toBeNull();
    expect(checkBody(Array(20).fill(ping))).toBeNull();
    expect(checkBody([])).toMatchObject({ error: { code: -32600 } });
    expect(checkBody(Array(21).fill(ping))).toMatchObject({ error: { code: -32600 } });
    expect(checkBody('ping')).toMatchObject({ error: { code: -32600 } });
  });
});
