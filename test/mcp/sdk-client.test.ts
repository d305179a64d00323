import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

describe('POST /v1/mcp with the official MCP SDK client over a real socket', () => {
  let t: TestApp;
  let url: URL;
  let key: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    url = new URL('/v1/mcp', await t.app.listen({ port: 0, host: '127.0.0.1' }));
    key = await t.key({ tier: 'starter' });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t.close();
  });

  async function connect(apiKey: string): Promise<{ client: Client; errors: Error[] }> {
    const client = new Client({ name: 'drugref-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(apiKey) } }));
    return { client, errors };
  }

  it('initializes, lists the tools and calls one, getting the REST answer', async () => {
    const { client, errors } = await connect(key);
    expect(client.getServerVersion()).toMatchObject({ name: 'drugref', version: '1.0.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });

    const { tools } = await client.listTools();
    const atc = tools.find((tool) => tool.name === 'get_atc_class');
    expect(atc?.inputSchema).toMatchObject({ type: 'object', required: ['code'] });

    const result = await client.callTool({ name: 'get_atc_class', arguments: { code: 'N02BE01' } });
    expect(result.isError).toBeUndefined();
    const content = result.content as Array<{ type: string; text: string }>;
    expect(content).toHaveLength(1);
    expect(content[0]!.type).toBe('text');
    const rest = await t.app.inject({ url: '/v1/atc/N02BE01', headers: bearer(key) });
    expect(JSON.parse(content[0]!.text)).toEqual(rest.json());

    await client.ping();
    // The transport's GET probe for a server stream is answered 405, which the SDK accepts silently.
    expect(errors).toEqual([]);
  });

  it('receives tool failures as isError results with the spec error code', async () => {
    const { client } = await connect(key);
    const result = await client.callTool({ name: 'get_atc_class', arguments: { code: 'Z99' } });
    expect(result.isError).toBe(true);
    const content = result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content[0]!.text)).toEqual({ error: 'not_found', message: 'ATC code was not found.' });
  });

  it('fails to connect with a 401 when the key is wrong', async () => {
    const client = new Client({ name: 'drugref-test', version: '1.0.0' });
    const error = await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer('svc_live_' + 'A'.repeat(32)) } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(401);
  });
});
