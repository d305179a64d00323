/**
 * The live passthrough: one outbound GET to the tenant's own licensed provider, carrying
 * its decrypted credential, answered in one uniform envelope. The credential lives only
 * in this call's memory: it is not cached, not logged, and each request opens the
 * caller's own row. `path` is confined to the provider's configured base URL.
 */
import { request } from 'undici';
import { ApiError, validationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { PROVIDERS } from './providers.ts';
import type { ByolProvider, Credential } from './providers.ts';

/** The query parameters of the passthrough; exactly one is set. */
export interface PassthroughArgs {
  q?: string | null;
  id?: string | null;
  path?: string | null;
}

/** What the caller asked for, echoed in the envelope (no credential, no host). */
export interface RequestSummary {
  kind: 'search' | 'record' | 'path';
  q?: string;
  id?: string;
  path?: string;
  method: 'GET';
  provider_path: string;
}

/** The uniform envelope of a passthrough answer. */
export interface PassthroughResult {
  provider: ByolProvider;
  request: RequestSummary;
  status: number;
  data: unknown;
  fetchedAt: Date;
}

// Path segments: unreserved URL characters only; '.' and '..' segments, '%', ':', '\',
// '?' and '#' are refused outright, so no escape sequence survives to URL parsing.
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
// Bodies above this are not a drug record; refuse rather than buffer without bound.
const MAX_BODY_BYTES = 2 * 1024 * 1024;

function checkPath(path: string): string {
  // A leading '/' (or '//host') is an absolute path or a host, not a sub-path: refused.
  const segments = path.split('/');
  const ok = path.length <= 256 && segments.every((s) => SEGMENT.test(s) && !/^\.+$/.test(s));
  if (!ok) {
    throw validationError('Query parameter path must be a relative sub-path of the provider (letters, digits, - _ . ~ and /; no scheme, host, "..", "%" or query).', [
      { location: 'query', field: 'path', message: 'must stay under the provider base URL' },
    ]);
  }
  return segments.join('/');
}

/** Resolves the one outbound URL; refuses anything outside the provider's base URL. */
export function targetUrl(baseUrl: string, provider: ByolProvider, args: PassthroughArgs): { url: URL; summary: RequestSummary } {
  const given = (['q', 'id', 'path'] as const).filter((k) => typeof args[k] === 'string' && args[k] !== '');
  if (given.length !== 1) {
    throw validationError('Give exactly one of q (free-text search), id (provider record id) or path (provider sub-resource).', [
      { location: 'query', field: given.length ? given.join(',') : null, message: 'exactly one of q, id, path is required' },
    ]);
  }
  const def = PROVIDERS[provider];
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let sub: string;
  let query: Record<string, string> = {};
  let summary: Omit<RequestSummary, 'method' | 'provider_path'>;
  if (args.q) {
    ({ path: sub, query } = def.search(args.q));
    summary = { kind: 'search', q: args.q };
  } else if (args.id) {
    if (!PROVIDER_ID.test(args.id) || /^\.+$/.test(args.id) || args.id.length > 128) {
      throw validationError('Query parameter id is not a provider record id.', [{ location: 'query', field: 'id', message: 'letters, digits, . _ : - only' }]);
    }
    sub = def.record(args.id);
    summary = { kind: 'record', id: args.id };
  } else {
    sub = checkPath(args.path as string);
    summary = { kind: 'path', path: sub };
  }
  const url = new URL(sub, base);
  // Belt and braces: whatever the sub-path, the target stays on the base URL's origin and path.
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw validationError('Query parameter path leaves the provider base URL.', [{ location: 'query', field: 'path', message: 'must stay under the provider base URL' }]);
  }
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return { url, summary: { ...summary, method: 'GET', provider_path: url.pathname + url.search } };
}

function upstreamFailure(log: Logger, provider: ByolProvider, reason: string): ApiError {
  // Logged: the provider and a reason class only, never the URL's query, headers or body.
  log.warn({ provider, reason }, 'byol passthrough failed');
  return new ApiError('upstream_error', 'The licensed provider did not answer usably; try again later.');
}

async function readBody(body: { text(): Promise<string> }, contentType: string): Promise<unknown> {
  const text = await body.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new Error('body too large');
  if (!text) return null;
  return /\bjson\b/i.test(contentType) ? JSON.parse(text) : text;
}

/** Runs one outbound request with the tenant's credential and wraps the answer. */
export async function passthrough(
  options: { baseUrl: string; timeoutMs: number; log: Logger; now: () => Date },
  provider: ByolProvider,
  credential: Credential,
  args: PassthroughArgs,
): Promise<PassthroughResult> {
  const { url, summary } = targetUrl(options.baseUrl, provider, args);
  let response;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'drugref-byol/1.0', ...PROVIDERS[provider].authHeaders(credential) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // undici's request() never follows redirects, so a provider cannot bounce the credential elsewhere.
    });
  } catch (err) {
    throw upstreamFailure(options.log, provider, (err as { code?: string }).code ?? 'network');
  }
  const status = response.statusCode;
  const contentType = String(response.headers['content-type'] ?? '');
  if (status === 401 || status === 403) {
    await response.body.dump();
    options.log.warn({ provider, status }, 'byol provider refused the stored credential');
    throw new ApiError('upstream_error', `The provider refused the stored credential; replace it with PUT /v1/byol/${provider}.`);
  }
  if (!(status >= 200 && status < 300) && status !== 404) {
    await response.body.dump();
    throw upstreamFailure(options.log, provider, `status ${status}`);
  }
  let data: unknown;
  try {
    data = await readBody(response.body, contentType);
  } catch {
    throw upstreamFailure(options.log, provider, 'unreadable body');
  }
  return { provider, request: summary, status, data, fetchedAt: options.now() };
}
