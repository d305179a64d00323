/**
 * One conditional download from a publisher, streamed to a temporary file under hard limits:
 * a deadline for the whole transfer, a byte cap (checked against Content-Length first, then
 * while streaming), and the outbound address policy of webhooks (public addresses only unless
 * configured), checked on every redirect hop. Nothing here touches the database.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { checkLiteralHost, publicOnlyLookup } from '../../platform/net/targets.ts';

/** Publishers move files behind redirects (spezialitaetenliste.ch → sl.bag.admin.ch); more than this is a loop. */
const MAX_REDIRECTS = 5;
/** Sent so publishers can tell who is fetching; some refuse requests without a User-Agent. */
export const SYNC_USER_AGENT = 'drugref-sync/1.0 (+https://github.com/drugref)';

/** ETag and Last-Modified of the copy we hold, replayed as If-None-Match / If-Modified-Since. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
  allowPrivateTargets: boolean;
  /** Aborts the transfer when the worker stops (shutdown must not wait for a 10-minute download). */
  stop?: AbortSignal;
}

export type DownloadOutcome = 'http_error' | 'timeout' | 'too_large' | 'network_error';

/** A download that failed; `outcome` is what the sync state records. */
export class DownloadError extends Error {
  readonly outcome: DownloadOutcome;
  readonly httpStatus: number | null;

  constructor(outcome: DownloadOutcome, message: string, httpStatus: number | null = null) {
    super(message);
    this.name = 'DownloadError';
    this.outcome = outcome;
    this.httpStatus = httpStatus;
  }
}

export type Downloaded =
  | { status: 304; bytes: 0 }
  | { status: 404; bytes: 0 }
  | { status: number; bytes: number; path: string; validators: Validators; sha256: string };

/** The dispatcher of sync downloads: connect timeout and, unless allowed, the public-only DNS lookup. */
export function syncAgent(limits: DownloadLimits): Agent {
  const connect = { timeout: limits.timeoutMs, ...(limits.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }) };
  return new Agent({ connect, headersTimeout: limits.timeoutMs, bodyTimeout: limits.timeoutMs });
}

/** Host only: download URLs may carry credentials (TRUD, UMLS keys) in the path or query. */
export function describeUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid URL';
  }
}

function conditionalHeaders(validators: Validators | null): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': SYNC_USER_AGENT, 'accept-encoding': 'identity' };
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

function header(res: Dispatcher.ResponseData, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Counts bytes through the stream and fails it as soon as the cap is passed. */
function byteCap(maxBytes: number, onBytes: (n: number) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      onBytes(chunk.length);
      if (seen > maxBytes) return done(new DownloadError('too_large', `body exceeds the ${maxBytes}-byte limit`));
      return done(null, chunk);
    },
  });
}

function classify(err: unknown, stop: AbortSignal | undefined): DownloadError {
  if (err instanceof DownloadError) return err;
  if (stop?.aborted) return new DownloadError('network_error', 'download abandoned: the worker is stopping');
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || /TIMEOUT/.test(code)) return new DownloadError('timeout', 'the publisher did not deliver the file in time');
  return new DownloadError('network_error', `${code || e?.name || 'error'}: ${e?.cause?.message ?? e?.message ?? 'connection failed'}`.slice(0, 200));
}

async function send(url: string, headers: Record<string, string>, limits: DownloadLimits, dispatcher: Dispatcher, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    // Sockets skip the DNS lookup for IP literals, so those are checked here, on every hop.
    const literal = limits.allowPrivateTargets ? null : checkLiteralHost(target);
    if (literal) throw new DownloadError('network_error', literal.message);
    const res = await request(target, { method: 'GET', headers, dispatcher, signal });
    const location = header(res, 'location');
    if (res.statusCode < 300 || res.statusCode >= 400 || res.statusCode === 304 || !location) return res;
    await res.body.dump();
    target = new URL(location, target).toString();
  }
  throw new DownloadError('http_error', `more than ${MAX_REDIRECTS} redirects`);
}

/**
 * GETs `url` (conditionally when `validators` are given) into `path`. Resolves with 304 or 404
 * (the caller decides whether a missing file matters) or the stored body; throws DownloadError
 * on any other status, a timeout, a network failure or a body over the limit.
 */
export async function download(
  url: string,
  path: string,
  validators: Validators | null,
  limits: DownloadLimits,
  dispatcher: Dispatcher,
  onBytes: (n: number) => void = () => undefined,
): Promise<Downloaded> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.stop ? AbortSignal.any([deadline, limits.stop]) : deadline;
  let status: number | null = null;
  try {
    const res = await send(url, conditionalHeaders(validators), limits, dispatcher, signal);
    status = res.statusCode;
    if (res.statusCode === 304 || res.statusCode === 404) {
      await res.body.dump();
      return res.statusCode === 304 ? { status: 304, bytes: 0 } : { status: 404, bytes: 0 };
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump().catch(() => undefined);
      throw new DownloadError('http_error', `the publisher answered ${res.statusCode}`, res.statusCode);
    }
    const declared = Number(header(res, 'content-length') ?? NaN);
    if (declared > limits.maxBytes) {
      res.body.destroy();
      throw new DownloadError('too_large', `Content-Length ${declared} exceeds the ${limits.maxBytes}-byte limit`, res.statusCode);
    }
    let bytes = 0;
    // Hashed on the way through: publishers without ETag support still get "unchanged" detected (run.ts).
    const hash = createHash('sha256');
    const cap = byteCap(limits.maxBytes, (n) => { bytes += n; onBytes(n); });
    cap.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(res.body, cap, createWriteStream(path));
    const etag = header(res, 'etag');
    const lastModified = header(res, 'last-modified');
    return { status: res.statusCode, bytes, path, sha256: hash.digest('hex'), validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) } };
  } catch (err) {
    const failure = classify(err, limits.stop);
    // A body cut off by the cap or the deadline still came with a status worth recording.
    throw failure.httpStatus === null && status !== null ? new DownloadError(failure.outcome, failure.message, status) : failure;
  }
}
