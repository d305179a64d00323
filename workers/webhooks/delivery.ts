/**
 * One webhook delivery: the batch body, its HMAC-SHA256 signature over the exact bytes
 * sent, the POST with a hard timeout, and the classification of what came back.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { toWire } from '../../resolvers/changes/records.ts';
import type { ChangeEvent, ChangeRecord } from '../../resolvers/changes/records.ts';
import type { DeliveryOutcome } from '../../resolvers/changes/deliveries.ts';
import { checkLiteralHost } from '../../platform/net/targets.ts';

/** Spec, Versioning 5: deliveries identify themselves with version 1.0. */
export const USER_AGENT = 'Service-Webhook/1.0';
/** Stored error text is for the tenant's status view; a receiver's long answer is cut. */
const MAX_ERROR_CHARS = 200;

export interface Batch {
  deliveryId: string;
  since: string;
  until: string;
  /** The exact bytes that are signed and sent. */
  body: Buffer;
  signature: string;
}

/** `sha256=<hex>` of HMAC-SHA256 over `body`, keyed with the subscription secret. */
export function signBody(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Serialises the batch once; the signature covers these bytes and no re-serialisation. */
export function buildBatch(secret: string, events: readonly ChangeEvent[], since: string, changes: readonly ChangeRecord[]): Batch {
  const deliveryId = randomUUID();
  const until = changes.at(-1)!.occurredAt;
  const body = Buffer.from(JSON.stringify({ delivery_id: deliveryId, since, until, events, changes: changes.map(toWire) }), 'utf8');
  return { deliveryId, since, until, body, signature: signBody(secret, body) };
}

export interface PostResult {
  outcome: DeliveryOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function classify(err: unknown): { outcome: DeliveryOutcome; error: string } {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || TIMEOUT_CODES.has(e?.code ?? '')) return { outcome: 'timeout', error: 'The receiver did not answer in time.' };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? 'error';
  return { outcome: 'connection_error', error: `${code}: ${e?.message ?? 'connection failed'}`.slice(0, MAX_ERROR_CHARS) };
}

/**
 * POSTs a batch. Redirects are not followed (a 3xx is a failed delivery): the URL the
 * tenant registered is the only one that receives signed batches. Unless allowed, only
 * public addresses are reached (platform/net/targets.ts).
 */
export async function postBatch(
  url: string,
  batch: Batch,
  options: { timeoutMs: number; allowPrivateTargets: boolean },
  dispatcher: Dispatcher,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // Names are checked in the socket's lookup; IP literals never reach it.
    const literal = options.allowPrivateTargets ? null : checkLiteralHost(url);
    if (literal) throw literal;
    const res = await request(url, {
      method: 'POST',
      body: batch.body,
      dispatcher,
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-service-signature': batch.signature,
        'x-service-delivery': batch.deliveryId,
        'x-service-event': 'changes.batch',
      },
    });
    // Drain so the connection can be reused; the answer body itself is not needed.
    const text = await res.body.text().catch(() => '');
    if (res.statusCode >= 200 && res.statusCode < 300) return { outcome: 'delivered', statusCode: res.statusCode, error: null, durationMs: elapsed() };
    return { outcome: 'http_error', statusCode: res.statusCode, error: text ? text.slice(0, MAX_ERROR_CHARS) : null, durationMs: elapsed() };
  } catch (err) {
    return { ...classify(err), statusCode: null, durationMs: elapsed() };
  }
}
