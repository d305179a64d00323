/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. It keeps every request's raw
 * bytes and headers, answers according to a script (status, hang past the timeout,
 * connection reset, slow 2xx), and tracks how many requests per path overlap.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Database } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import { createWebhookDispatcher } from '../../workers/webhooks/worker.ts';
import type { WebhookDispatcher, WebhookWorkerOptions } from '../../workers/webhooks/worker.ts';

export type Reply = { status: number; delayMs?: number } | 'hang' | 'reset';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: { delivery_id: string; since: string; until: string; events: string[]; changes: Array<{ id: string; occurred_at: string; change_type: string }> };
  /** What the receiver answered: a status, or 'hang' / 'reset'. */
  answered: number | 'hang' | 'reset';
}

export interface TestReceiver {
  url: string;
  received: Received[];
  /** Highest number of requests in flight at once on one path. */
  maxConcurrentPerPath: number;
  /** Replies used in order for the next requests; afterwards `fallback`. */
  script: Reply[];
  fallback: Reply;
  close(): Promise<void>;
}

function answer(res: ServerResponse, reply: Reply, done: () => void): void {
  if (reply === 'hang') {
    // Never answer; the worker's timeout ends the request and closes the socket.
    res.on('close', done);
    return;
  }
  if (reply === 'reset') {
    res.socket?.destroy();
    done();
    return;
  }
  setTimeout(() => {
    res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.status < 300 ? 'ok' : `failed with ${reply.status}`);
    done();
  }, reply.delayMs ?? 0);
}

export async function startReceiver(fallback: Reply = { status: 200 }): Promise<TestReceiver> {
  const inFlight = new Map<string, number>();
  const state: TestReceiver = { url: '', received: [], maxConcurrentPerPath: 0, script: [], fallback, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const now = (inFlight.get(path) ?? 0) + 1;
      inFlight.set(path, now);
      state.maxConcurrentPerPath = Math.max(state.maxConcurrentPerPath, now);
      const reply = state.script.shift() ?? state.fallback;
      const raw = Buffer.concat(chunks);
      state.received.push({ path, headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')), answered: typeof reply === 'string' ? reply : reply.status });
      answer(res, reply, () => inFlight.set(path, (inFlight.get(path) ?? 1) - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}

/** True when `x-service-signature` is HMAC-SHA256 of the raw bytes under `secret`. */
export function signatureValid(secret: string, received: Received): boolean {
  const header = String(received.headers['x-service-signature'] ?? '');
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(received.raw).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Short intervals for tests; `minGapMs: 0` so consecutive runOnce calls are all due; receivers live on 127.0.0.1. */
export const TEST_OPTIONS: WebhookWorkerOptions = { intervalMs: 100, timeoutMs: 1_500, batchCap: 500, leaseMs: 5_000, orphanScanMs: 200, minGapMs: 0, concurrency: 4, allowPrivateTargets: true };

export function testDispatcher(db: Database, config: Config, options: Partial<WebhookWorkerOptions> = {}): WebhookDispatcher {
  return createWebhookDispatcher({ db, config, log: pino({ level: 'silent' }) }, { ...TEST_OPTIONS, ...options });
}
