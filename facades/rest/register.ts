/**
 * REST facade: one Fastify route per route-table entry. A handler only maps the
 * validated request to the operation and the result to HTTP (status, headers, ETag).
 * Known paths answer other verbs with 405 and an `allow` header.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../platform/graphql/engine.ts';
import { ApiError } from '../../platform/errors.ts';
import { createContext } from '../../resolvers/context.ts';
import type { AppDeps } from '../../resolvers/context.ts';
import { runOperation } from '../http/operation.ts';
import type { CompiledRoute } from '../http/operation.ts';
import { etagOf, matchesIfNoneMatch } from '../http/etag.ts';
import { sendError } from '../http/errors.ts';
import { guardSchema } from '../http/schema-guards.ts';
import { refusingRepeatedKeys } from '../http/json-body.ts';
import type { ReceiptIssuer } from '../http/receipts.ts';

/** The query schema of a route that takes no query parameters. */
export const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Raw body bytes of receipt routes, kept only for the request's lifetime (weakly held). */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/** `/v1/atc/{code}` → `/v1/atc/:code`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Answers a route-table operation for an authenticated request (also the console's lookups, facades/console/lookups.ts). */
export async function answer(engine: Engine, deps: AppDeps, route: CompiledRoute, request: FastifyRequest, reply: FastifyReply, receipts?: ReceiptIssuer) {
  if (route.def.stream) return answerStream(deps, route, request, reply);
  return answerJson(engine, deps, route, request, reply, receipts);
}

/** Adds the signed receipt to a receipt route's answer; the hash covers the bytes as received. */
async function withReceipt(route: CompiledRoute, receipts: ReceiptIssuer | undefined, request: FastifyRequest, body: unknown): Promise<unknown> {
  const raw = rawBodies.get(request);
  if (!route.def.receipt || !receipts || !raw || !body || typeof body !== 'object') return body;
  const receipt = await receipts.issue(raw, `${route.def.method} ${route.def.path}`, route.def.receipt(body));
  return route.def.placeReceipt ? route.def.placeReceipt(body, receipt) : { ...body, receipt };
}

/** Waits until `raw` takes more (drain) or the client went away; false when it went away. */
function drained(raw: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => { raw.off('close', onClose); resolve(true); };
    const onClose = () => { raw.off('drain', onDrain); resolve(false); };
    raw.once('drain', onDrain);
    raw.once('close', onClose);
  });
}

/**
 * A streamed answer (route `stream`): the first chunk is read before anything is sent, so
 * refusals stay JSON errors; then the reply is hijacked and the chunks are written to the
 * socket with backpressure. A failure after the first byte cannot change the status: the
 * stream ends with an `_error` line instead of its closing line.
 */
async function answerStream(deps: AppDeps, route: CompiledRoute, request: FastifyRequest, reply: FastifyReply) {
  const ctx = createContext(deps, request.principal, request.log);
  const input = { params: request.params as Record<string, unknown>, query: request.query as Record<string, unknown>, body: request.body };
  const chunks = await route.def.stream!(ctx, input);
  let first: IteratorResult<string, void>;
  try {
    first = await chunks.next();
  } catch (err) {
    await chunks.return?.();
    throw err;
  }
  // The pipeline's onSend stamps these on ordinary answers; a hijacked reply skips onSend.
  const principal = request.principal;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = String(value);
  Object.assign(headers, ctx.response.headers, {
    'content-type': route.def.responseType ?? 'application/x-ndjson',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  if (principal) {
    if (request.quotaRemaining !== undefined && request.quotaRemaining !== null) headers['x-ratelimit-remaining'] = String(request.quotaRemaining);
    headers['x-service-tier'] = principal.tier;
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(route.def.successStatus ?? 200, headers);
  let open = true;
  let next = first;
  try {
    while (open && !next.done) {
      if (raw.destroyed) open = false;
      else if (!raw.write(next.value)) open = await drained(raw);
      if (open) next = await chunks.next();
    }
  } catch (err) {
    request.log.error({ err }, 'stream failed');
    const error = new ApiError('internal_error', 'The export failed part way; this stream is incomplete.');
    if (!raw.destroyed) raw.write(`${JSON.stringify({ _error: error.toBody() })}\n`);
  } finally {
    // A client that went away (or a failure) ends the read: the database cursor is closed.
    if (!open || !next.done) await chunks.return?.().catch(() => undefined);
    if (!raw.destroyed) raw.end();
  }
  if (!open) request.log.info({ route: route.def.operationId }, 'stream closed by the client');
}

async function answerJson(engine: Engine, deps: AppDeps, route: CompiledRoute, request: FastifyRequest, reply: FastifyReply, receipts?: ReceiptIssuer) {
  const ctx = createContext(deps, request.principal, request.log);
  const input = { params: request.params as Record<string, unknown>, query: request.query as Record<string, unknown>, body: request.body };
  const result = await runOperation(engine, route, input, ctx);
  result.body = await withReceipt(route, receipts, request, result.body);
  reply.headers(result.headers);
  if (result.status === 204) return reply.code(204).send();
  const payload = JSON.stringify(result.body);
  if (route.def.cacheable) {
    const etag = etagOf(payload);
    reply.header('etag', etag);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  // A route may name its own JSON media type (FHIR answers are application/fhir+json).
  return reply.code(result.status).type(result.headers['content-type'] ?? 'application/json; charset=utf-8').send(payload);
}

/** Registers every route; `receipts` signs the answers of routes with a `receipt` hook. */
export function registerRestRoutes(app: FastifyInstance, engine: Engine, deps: AppDeps, routes: CompiledRoute[], receipts?: ReceiptIssuer): void {
  for (const route of routes) {
    const { def } = route;
    const options = {
      method: def.method,
      url: fastifyPath(def.path),
      schema: {
        ...(def.params ? { params: guardSchema(def.params) } : {}),
        // A route without query parameters refuses any (422): nothing rides in an unread query string.
        querystring: def.query ? guardSchema(def.query) : NO_QUERY,
        ...(def.body ? { body: guardSchema(def.body) } : {}),
      },
      // Public entries (a payment provider's signed callback) authenticate by their own means.
      ...(def.public ? {} : { onRequest: app.guarded({ scope: def.scope, metered: def.metered ?? true }) }),
      ...(def.public && def.limitPerIp ? { config: { rateLimit: { max: deps.config.publicRateLimitPerMinute, timeWindow: 60_000 } } } : {}),
      ...(def.screenBody ? { preValidation: async (request: FastifyRequest) => def.screenBody!(request.body, request.params as Record<string, unknown>) } : {}),
      handler: (request: FastifyRequest, reply: FastifyReply) => answer(engine, deps, route, request, reply, receipts),
    };
    if (def.receipt) {
      // Parsed exactly as everywhere else (same proto-poisoning rules), but the bytes are
      // kept so the receipt hashes the body as received, not a re-serialisation of it.
      app.register(async (scope) => {
        const parseJson = refusingRepeatedKeys(scope.getDefaultJsonParser('error', 'error'));
        scope.removeContentTypeParser('application/json');
        scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
          rawBodies.set(request, raw as Buffer);
          parseJson(request, raw.toString('utf8'), done);
        });
        scope.route(options);
      });
      continue;
    }
    if (!def.rawBody) {
      app.route(options);
      continue;
    }
    // Signatures cover the bytes as sent, so these routes get the unparsed text and the headers.
    app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => done(null, { raw, headers: request.headers }));
      scope.route(options);
    });
  }
  // A verb routed only to say "no such operation" (404) is not advertised; a retired one (410) still is.
  const advertised = (def: CompiledRoute['def']) => !def.refuse || def.refuse(deps.config).status !== 404;
  registerMethodNotAllowed(app, routes.map((r) => ({ method: r.def.method, path: r.def.path, advertised: advertised(r.def) })));
}

const VERBS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/**
 * For every known path, the verbs it does not serve answer 405 with `allow`. A verb that
 * is routed only to refuse (`advertised: false`, e.g. POST /v1/byol/{provider} → 404)
 * is not listed in `allow`.
 */
export function registerMethodNotAllowed(app: FastifyInstance, served: Array<{ method: string; path: string; advertised?: boolean }>): void {
  const byPath = new Map<string, { methods: Set<string>; allowed: string[] }>();
  for (const { method, path, advertised = true } of served) {
    const entry = byPath.get(path) ?? { methods: new Set<string>(), allowed: [] };
    entry.methods.add(method);
    if (advertised) entry.allowed.push(method);
    byPath.set(path, entry);
  }
  for (const [path, { methods, allowed }] of byPath) {
    const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
    const others = VERBS.filter((v) => !methods.has(v));
    if (!others.length) continue;
    app.route({
      method: others,
      url: fastifyPath(path),
      handler: (request, reply) =>
        sendError(reply, new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, {}, { allow })),
    });
  }
}
