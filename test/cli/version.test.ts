import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { PACKAGE_VERSION } from '../../platform/package-root.ts';
import { runCli } from './helpers.ts';

// One version everywhere: package.json's, shown by the command, the OpenAPI document and the MCP handshake.
describe('the drugref version', () => {
  let t: TestApp;
  let version: string;

  beforeAll(async () => {
    version = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is the package version in the OpenAPI document and the MCP server info', async () => {
    expect(PACKAGE_VERSION).toBe(version);
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { info: { version: string } };
    expect(doc.info.version).toBe(version);
    const key = await t.key({ tier: 'starter' });
    const init = await t.app.inject({
      method: 'POST', url: '/v1/mcp', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'version-test', version: '1' } } },
    });
    expect(init.statusCode).toBe(200);
    expect((init.json() as { result: { serverInfo: { version: string } } }).result.serverInfo.version).toBe(version);
  });

  it('is what `drugref --version` prints', async () => {
    const res = await runCli(['--version'], process.env);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(version);
  });
});
