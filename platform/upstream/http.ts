/**
 * One HTTP exchange with an upstream, through undici: a timeout per attempt and bounded
 * retries with full jitter on the failures worth retrying (network errors, 429, 5xx).
 * Errors raised here carry upstream detail for the logs only; the client turns them
 * into a generic 502 before anything reaches a caller.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { Dispatcher } from 'undici';

/** One request to an upstream, with an absolute URL. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A usable answer: 2xx with a JSON body, or 404. */
export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** Timeout per attempt and the bounded retry schedule. */
export interface RetryPolicy {
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
}

/** An upstream failure. `retryable` says whether another attempt could succeed. */
export class UpstreamFailure extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'UpstreamFailure';
  }
}

async function attempt(req: HttpRequest, dispatcher: Dispatcher, timeoutMs: number): Promise<HttpAnswer> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(req.url, {
      method: req.method,
      dispatcher,
      headers: { accept: 'application/json', 'user-agent': 'drugref/1.0 (enrichment)', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
      body: req.body === undefined ? null : JSON.stringify(req.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new UpstreamFailure(`request failed: ${(err as Error).message}`, true);
  }
  const text = await res.body.text().catch(() => '');
  // 404 is a definite "nothing here" for every source we use; it is an answer, not a failure.
  if (res.statusCode === 404) return { status: 404, body: parseJson(text) };
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new UpstreamFailure(`status ${res.statusCode}: ${text.slice(0, 200)}`, res.statusCode === 429 || res.statusCode >= 500);
  }
  const body = parseJson(text);
  if (body === undefined) throw new UpstreamFailure('answer is not JSON', false);
  return { status: res.statusCode, body };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends `req`, retrying retryable failures up to `policy.retries` times with full jitter. */
export async function exchange(req: HttpRequest, dispatcher: Dispatcher, policy: RetryPolicy): Promise<HttpAnswer> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(req, dispatcher, policy.timeoutMs);
    } catch (err) {
      if (!(err instanceof UpstreamFailure) || !err.retryable || n >= policy.retries) throw err;
      // Full jitter: a random wait up to base·2^n spreads retries of many callers apart.
      await sleep(Math.random() * policy.retryBaseMs * 2 ** n);
    }
  }
}
