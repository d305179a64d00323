import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ROUTES } from '../../facades/routes/index.ts';
import { MAX_TOOL_RESULT_CHARS, TRUNCATION_MARKER } from '../../facades/mcp/truncate.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { mcpPost, rpc, toolText } from './helpers.ts';

/** Tool names the route table offers to a key with these scopes. */
function expectedTools(scopes: Scope[]): string[] {
  return ROUTES.filter((r) => r.mcp && (r.scope === null || scopes.includes(r.scope))).map((r) => (r.mcp as { name: string }).name).sort();
}

describe('MCP tools from the route table', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    // A label long enough that the node's JSON passes the 60,000-character cap.
    await t.db.query(`INSERT INTO atc_nodes (code, name, level, parent_code, source) VALUES ('N02BE99', $1, 5, 'N02BE', 'who-atc')`, ['x'.repeat(70_000)]);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  const call = (k: string, name: string, args: Record<string, unknown>) => mcpPost(t, k, rpc('tools/call', { name, arguments: args }));

  it('lists get_atc_class with an input schema merged from the route schemas', async () => {
    const res = await mcpPost(t, key, rpc('tools/list'));
    expect(res.statusCode).toBe(200);
    const tools = res.json().result.tools as Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
    expect(tools.map((tool) => tool.name).sort()).toEqual(expectedTools([...new Set(ROUTES.map((r) => r.scope).filter((s): s is Scope => s !== null))]));
    const atc = tools.find((tool) => tool.name === 'get_atc_class')!;
    expect(atc.description).toContain('WHO ATC classification code');
    expect(atc.inputSchema).toEqual({
      type: 'object',
      properties: {
        code: expect.objectContaining({ type: 'string', description: expect.any(String) }),
        include: expect.objectContaining({ type: 'string', enum: ['supply'] }),
      },
      required: ['code'],
      additionalProperties: false,
    });
    expect(atc).toMatchObject({ title: expect.any(String), annotations: { readOnlyHint: true } });
  });

  it('lists only the tools the key’s effective scopes can run', async () => {
    const drugsOnly = await t.key({ tier: 'enterprise', scopes: ['drugs:read'] });
    const names = (await mcpPost(t, drugsOnly, rpc('tools/list'))).json().result.tools.map((tool: { name: string }) => tool.name).sort();
    expect(names).toEqual(expectedTools(['drugs:read']));
    expect(names).not.toContain('get_atc_class');
    const atcOnly = await t.key({ tier: 'developer', scopes: ['atc:read'] });
    const atcNames = (await mcpPost(t, atcOnly, rpc('tools/list'))).json().result.tools.map((tool: { name: string }) => tool.name).sort();
    expect(atcNames).toEqual(expectedTools(['atc:read']));
    expect(atcNames).toContain('get_atc_class');
  });

  it('answers tools/call exactly like the REST route, as JSON text', async () => {
    const res = await call(key, 'get_atc_class', { code: 'n02be01' });
    expect(res.statusCode).toBe(200);
    const rest = await t.app.inject({ url: '/v1/atc/N02BE01', headers: bearer(key) });
    const out = toolText(res);
    expect(out.isError).toBe(false);
    expect(out.json).toEqual(rest.json());
    expect(out.json).toMatchObject({ code: 'N02BE01', name: 'paracetamol', _meta: { sources: [{ id: 'who-atc' }] } });
  });

  it('turns a not-found answer into an isError result carrying the REST error body', async () => {
    const out = toolText(await call(key, 'get_atc_class', { code: 'Z99' }));
    expect(out).toMatchObject({ isError: true, json: { error: 'not_found', message: 'ATC code was not found.' } });
  });

  it('validates arguments against the input schema: a 422 validation body naming the field', async () => {
    const out = toolText(await call(key, 'get_atc_class', { code: '12345', colour: 'red' }));
    expect(out.isError).toBe(true);
    expect(out.json).toMatchObject({
      error: 'validation',
      details: [
        { location: 'arguments', field: 'colour', message: 'is not a known parameter' },
        { location: 'path', field: 'code', message: expect.stringContaining('must match pattern') },
      ],
    });
    const missing = toolText(await call(key, 'get_atc_class', {}));
    expect(missing.json).toMatchObject({ error: 'validation', message: 'Invalid request: path code must have required property \'code\'.' });
  });

  it('refuses a tool outside the key’s scopes with a forbidden result', async () => {
    const drugsOnly = await t.key({ tier: 'enterprise', scopes: ['drugs:read'] });
    const out = toolText(await call(drugsOnly, 'get_atc_class', { code: 'N02' }));
    expect(out).toMatchObject({ isError: true, json: { error: 'forbidden', tier: 'enterprise', missing_scope: 'atc:read' } });
  });

  it('truncates a result over 60,000 characters with a clear marker', async () => {
    const out = toolText(await call(key, 'get_atc_class', { code: 'N02BE99' }));
    expect(out.isError).toBe(false);
    expect(out.text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS);
    expect(out.text.length).toBeGreaterThan(MAX_TOOL_RESULT_CHARS - 300);
    expect(out.text.startsWith('{"code":"N02BE99","name":"xxxx')).toBe(true);
    expect(out.text).toContain(TRUNCATION_MARKER);
    expect(out.text).toMatch(/showing the first \d+ of 7\d{4} characters; the JSON above is incomplete\. Ask for less/);
    expect(out.json).toBeUndefined();
  });
});

describe('MCP quota: only tools/call is metered', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  async function used(accountKey: string): Promise<number> {
    const res = await mcpPost(t, accountKey, rpc('ping'));
    return 10 - Number(res.headers['x-ratelimit-remaining']);
  }

  it('counts each tools/call as one request and initialize, ping, tools/list as none', async () => {
    // developer: 10 requests a day.
    const key = await t.key({ tier: 'developer' });
    const init = await mcpPost(t, key, rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    expect(init.headers['x-ratelimit-remaining']).toBe('10');
    await mcpPost(t, key, [rpc('ping'), rpc('tools/list'), rpc('ping')]);
    expect(await used(key)).toBe(0);

    const one = await mcpPost(t, key, rpc('tools/call', { name: 'get_atc_class', arguments: { code: 'N02' } }));
    expect(toolText(one).isError).toBe(false);
    expect(one.headers['x-ratelimit-remaining']).toBe('9');

    // A batch counts each call, failed ones included (as REST counts 4xx).
    const batch = await mcpPost(t, key, [
      rpc('tools/call', { name: 'get_atc_class', arguments: { code: 'N' } }),
      rpc('tools/list'),
      rpc('tools/call', { name: 'get_atc_class', arguments: { code: 'Z99' } }),
    ]);
    expect(batch.json()).toHaveLength(3);
    expect(batch.headers['x-ratelimit-remaining']).toBe('7');
    expect(await used(key)).toBe(3);
    const { rows } = await t.db.query<{ month_used: number }>(
      'SELECT q.month_used FROM quota_usage q JOIN api_keys k ON k.account_id = q.account_id WHERE k.last_four = $1',
      [key.slice(-4)],
    );
    expect(rows[0]?.month_used).toBe(3);
  });

  it('answers an exhausted quota with a quota_exceeded result while unmetered methods keep working', async () => {
    const key = await t.key({ tier: 'developer' });
    const calls = Array.from({ length: 10 }, () => rpc('tools/call', { name: 'get_atc_class', arguments: { code: 'N02' } }));
    const spent = await mcpPost(t, key, calls);
    expect(spent.json().every((a: { result: { isError?: boolean } }) => a.result.isError === undefined)).toBe(true);
    expect(spent.headers['x-ratelimit-remaining']).toBe('0');

    const refused = toolText(await mcpPost(t, key, rpc('tools/call', { name: 'get_atc_class', arguments: { code: 'N02' } })));
    expect(refused).toMatchObject({
      isError: true,
      json: { error: 'quota_exceeded', tier: 'developer', limit: 10, window: 'monthly', resets: expect.any(String), upgrade_url: expect.any(String) },
    });
    const list = await mcpPost(t, key, rpc('tools/list'));
    expect(list.statusCode).toBe(200);
    expect(list.json().result.tools.map((tool: { name: string }) => tool.name)).toContain('get_atc_class');
    expect((await mcpPost(t, key, rpc('ping'))).json().result).toEqual({});
  });
});
