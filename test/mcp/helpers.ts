/** Small helpers of the MCP endpoint tests: POST one body to /v1/mcp through inject. */
import type { LightMyRequestResponse } from 'fastify';
import { bearer } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

let ids = 0;

/** A JSON-RPC request with a fresh id. */
export function rpc(method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id: ++ids, method, ...(params ? { params } : {}) };
}

export function mcpPost(t: TestApp, key: string | null, body: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/v1/mcp',
    headers: { ...(key ? bearer(key) : {}), 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The parsed text of a tools/call answer's single content block. */
export function toolText(res: LightMyRequestResponse): { isError: boolean; json: unknown; text: string } {
  const result = res.json().result as { content: Array<{ type: string; text: string }>; isError?: boolean };
  const text = result.content[0]!.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, json, text };
}
