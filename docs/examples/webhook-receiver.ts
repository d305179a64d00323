/**
 * A minimal drugref webhook receiver (Node 20, no dependencies).
 *
 * - Verifies `x-service-signature` (HMAC-SHA256, hex, `sha256=` prefix) over the RAW body
 *   bytes, before parsing, with a constant-time comparison; a mismatch gets 401.
 * - Delivery is at-least-once, so it deduplicates on the change `id` and hands each change
 *   to `onChange` once, in the order the batches carry them.
 * - It answers 2xx only after every change of the batch is handled: a non-2xx makes the
 *   service re-send the same window on its next run, so nothing is lost.
 *
 * Run: WEBHOOK_SECRET=<secret from the 201 answer> PORT=8080 npx tsx docs/examples/webhook-receiver.ts
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { pathToFileURL } from 'node:url';

export interface Change {
  id: string;
  change_type: string;
  table_name: string;
  natural_key: Record<string, unknown>;
  occurred_at: string;
  [field: string]: unknown;
}

export interface ReceiverOptions {
  /** The subscription's signing secret, exactly as the 201 answer returned it. */
  secret: string;
  /** Called once per change id. Make it durable before returning (write to your database). */
  onChange(change: Change): void | Promise<void>;
  /** Change ids already handled. In production use a unique index in your database instead. */
  seen?: Set<string>;
  /** Largest body accepted; a batch of 500 changes is far below this. */
  maxBodyBytes?: number;
}

/** True when `header` is `sha256=` + hex HMAC-SHA256 of `raw` under `secret`; constant time. */
export function verifySignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header ?? '');
  // timingSafeEqual needs equal lengths; the length of a valid signature is public anyway.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An http.Server that accepts signed batches on any path with POST. */
export function createWebhookReceiver(options: ReceiverOptions): Server {
  const seen = options.seen ?? new Set<string>();
  return createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const raw = await readRaw(req, options.maxBodyBytes ?? 10 * 1024 * 1024);
    if (!raw) return void res.writeHead(413).end();
    // Verify the bytes as received, before JSON.parse: re-serialised JSON would not match.
    if (!verifySignature(options.secret, raw, req.headers['x-service-signature'] as string | undefined)) {
      return void res.writeHead(401).end('bad signature');
    }
    try {
      const batch = JSON.parse(raw.toString('utf8')) as { delivery_id: string; changes: Change[] };
      for (const change of batch.changes) {
        if (seen.has(change.id)) continue; // a re-sent window: already handled
        await options.onChange(change);
        seen.add(change.id);
      }
      res.writeHead(204).end();
    } catch {
      // Not acknowledged: the service re-sends the window on its next run.
      res.writeHead(500).end();
    }
  });
}

// Started directly: listen on PORT and print each new change.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret returned by POST /v1/webhooks');
  const server = createWebhookReceiver({ secret, onChange: (c) => console.log(c.occurred_at, c.change_type, c.table_name, JSON.stringify(c.natural_key)) });
  server.listen(Number(process.env.PORT ?? 8080), () => console.log(`webhook receiver on :${process.env.PORT ?? 8080}`));
}
