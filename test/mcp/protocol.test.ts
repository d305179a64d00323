import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { mcpPost, rpc } from './helpers.ts';

describe('POST /v1/mcp (JSON-RPC 2.0 framing)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'starter' });
  });
  afterAll(() => t.close());

  it('answers initialize with the client protocol version, tool capability and server info, as plain JSON', async () => {
    const res = await mcpPost(t, key, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.headers['x-service-tier']).toBe('starter');
    expect(res.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'drugref', title: 'drugref drug reference', version: '1.0.0' },
        instructions: expect.stringContaining('one API request'),
      },
    });
  });

  it('answers initialize in its own version when the client asks for one it does not speak', async () => {
    const res = await mcpPost(t, key, rpc('initialize', { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'x', version: '1' } }));
    expect(res.json().result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('answers ping with an empty result', async () => {
    const res = await mcpPost(t, key, { jsonrpc: '2.0', id: 'p-1', method: 'ping' });
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
  });

  it('echoes any JSON number as the id, fractional or tiny, as JSON-RPC 2.0 allows (the answer check holds it to the document)', async () => {
    const id = -8.878612793870746e-240;
    const res = await mcpPost(t, key, { jsonrpc: '2.0', id, method: 'ping' });
    expect(res.json()).toEqual({ jsonrpc: '2.0', id, result: {} });
  });

  it('answers a notification with 202 and no body', async () => {
    const res = await mcpPost(t, key, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
  });

  it('answers a batch of notifications only with 202 and no body', async () => {
    const res = await mcpPost(t, key, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }]);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
  });

  it('answers a batch of 20 with an array of 20 answers in order', async () => {
    const batch = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const res = await mcpPost(t, key, batch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(batch.map((m) => ({ jsonrpc: '2.0', id: m.id, result: {} })));
  });

  it('answers a batch of one with an array of one', async () => {
    const res = await mcpPost(t, key, [{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
    expect(res.json()).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
  });

  it('refuses a batch of 21 with 400 and one invalid-request error, running none of it', async () => {
    const batch = Array.from({ length: 21 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }));
    const res = await mcpPost(t, key, batch);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body)[0]).toBe('error');
    expect(body).toEqual({
      error: { code: -32600, message: 'Invalid Request: a batch holds at most 20 messages, this one 21.', data: { error: 'bad_request' } },
      jsonrpc: '2.0',
      id: null,
    });
  });

  it('refuses an empty batch with 400 and an invalid-request error', async () => {
    const res = await mcpPost(t, key, []);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: -32600, message: 'Invalid Request: the batch is empty.', data: { error: 'bad_request' } }, jsonrpc: '2.0', id: null });
  });

  it('refuses a body that is not JSON with 400 and a parse error', async () => {
    const res = await mcpPost(t, key, '{"jsonrpc": "2.0", ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: -32700, message: 'Parse error: The body is not valid JSON.', data: { error: 'bad_request' } }, jsonrpc: '2.0', id: null });
  });

  it('refuses a body that is not sent as JSON with 400 and an invalid-request error', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mcp', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/xml' }, payload: '<ping/>' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: -32600, message: 'Invalid Request: The body must be sent as application/json.', data: { error: 'bad_request' } },
      jsonrpc: '2.0',
      id: null,
    });
  });

  it('refuses a single message that is not JSON-RPC 2.0 with 400', async () => {
    const res = await mcpPost(t, key, { jsonrpc: '1.0', id: 3, method: 'ping' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0".' });
    expect(res.json().id).toBe(3);
  });

  it('answers each element of a mixed batch on its own: results, errors, nothing for notifications', async () => {
    const res = await mcpPost(t, key, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      42,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'resources/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_atc_class', arguments: ['N02'] } },
    ]);
    expect(res.statusCode).toBe(200);
    const [ping, invalid, notFound, missingName, unknownTool, listArguments, ...rest] = res.json();
    expect(rest).toEqual([]);
    expect(ping).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(invalid).toEqual({ error: { code: -32600, message: 'Invalid Request: a message must be a JSON object.' }, jsonrpc: '2.0', id: null });
    expect(notFound).toEqual({ error: { code: -32601, message: 'Method not found: resources/list.' }, jsonrpc: '2.0', id: 2 });
    expect(missingName.id).toBe(3);
    expect(missingName.error.code).toBe(-32602);
    expect(missingName.error.message).toMatch(/^Invalid params for tools\/call: params\.name/);
    expect(unknownTool).toEqual({ error: { code: -32602, message: 'Unknown tool: no_such_tool. tools/list names the tools this key can run.' }, jsonrpc: '2.0', id: 4 });
    // Only the ordinary shape skips the SDK schema: arguments that are not an object still meet it.
    expect(listArguments.id).toBe(5);
    expect(listArguments.error.code).toBe(-32602);
    expect(listArguments.error.message).toMatch(/^Invalid params for tools\/call: params\.arguments/);
  });

  it('answers 401 unauthorized without a key', async () => {
    const res = await mcpPost(t, null, rpc('ping'));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('answers GET with 405 and allow: POST (no event stream is offered)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/mcp', headers: { accept: 'text/event-stream' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths['/v1/mcp'].post.responses)).toEqual(['200', '202', '400', '401', '414']);
  });
});
