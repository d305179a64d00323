/** Shared pieces of the BYOL tests: master keys, credentials, a fake provider server. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export const KEY_A = randomBytes(32);
export const KEY_B = randomBytes(32);

/** Vault config with one master key `k1` (or the given ring). */
export function vaultConfig(keys: Record<string, Buffer> = { k1: KEY_A }, active = 'k1') {
  return { byolMasterKeys: keys, byolActiveKeyId: active };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface FakeProvider {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A local stand-in for a licensed provider: answers JSON like the real APIs, 401 without
 * an authorization header, and lets a test choose a status per path.
 */
export async function startFakeProvider(answer: (req: SeenRequest) => { status: number; body?: unknown; contentType?: string } = () => ({ status: 200, body: {} })): Promise<FakeProvider> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    seen.push(entry);
    const reply = req.headers.authorization ? answer(entry) : { status: 401, body: { error: 'missing credentials' } };
    res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
    res.end(reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
