/**
 * REST facade: one Fastify route per route-table entry. A handler only maps the
 * validated request to the operation and the result to HTTP (status, headers, ETag).
 * Known paths answer other verbs with 405 and an `allow` header.
 */
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

/** `/v1/atc/{code}` → `/v1/atc/:code`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

async function answer(engine: Engine, deps: AppDeps, route: CompiledRoute, request: FastifyRequest, reply: FastifyReply) {
  const ctx = createContext(deps, request.principal, request.log);
  const input = { params: request.params as Record<string, unknown>, query: request.query as Record<string, unknown>, body: request.body };
  const result = await runOperation(engine, route, input, ctx);
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

export function registerRestRoutes(app: FastifyInstance, engine: Engine, deps: AppDeps, routes: CompiledRoute[]): void {
  for (const route of routes) {
    const { def } = route;
    const options = {
      method: def.method,
      url: fastifyPath(def.path),
      schema: {
        ...(def.params ? { params: guardSchema(def.params) } : {}),
        ...(def.query ? { querystring: guardSchema(def.query) } : {}),
        ...(def.body ? { body: guardSchema(def.body) } : {}),
      },
      // Public entries (a payment provider's signed callback) authenticate by their own means.
      ...(def.public ? {} : { onRequest: app.guarded({ scope: def.scope, metered: def.metered ?? true }) }),
      ...(def.screenBody ? { preValidation: async (request: FastifyRequest) => def.screenBody!(request.body) } : {}),
      handler: (request: FastifyRequest, reply: FastifyReply) => answer(engine, deps, route, request, reply),
    };
    if (!def.rawBody) {
      app.route(options);
      continue;
    }
    // Signatures cover the bytes as sent, so these routes get the unparsed text and the headers.
    app.register(async (scope) => {
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
