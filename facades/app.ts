/**
 * Builds the Fastify app: error handling, CORS, the auth/quota pipeline, the REST routes
 * of the route table, the OpenAPI document and the operational endpoints. Everything an
 * instance needs comes in through `AppOptions`; nothing is read from globals.
 */
import { PACKAGE_VERSION } from '../platform/package-root.ts';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { pino } from 'pino';
import type { DestinationStream } from 'pino';
import type { Config } from '../platform/config.ts';
import type { Database } from '../platform/db.ts';
import { withReplicaReads } from '../platform/db.ts';
import { systemClock } from '../platform/clock.ts';
import type { Clock } from '../platform/clock.ts';
import { ApiError } from '../platform/errors.ts';
import { loggerOptions } from '../platform/logger.ts';
import type { HostResolver } from '../platform/net/targets.ts';
import { createEngine } from '../platform/graphql/engine.ts';
import { buildInternalSchema } from '../resolvers/index.ts';
import type { AppDeps, Services } from '../resolvers/context.ts';
import { ROUTES } from './routes/index.ts';
import { compileRoutes } from './http/operation.ts';
import { createGuard, KeyCache } from './http/auth.ts';
import { pipelinePlugin } from './http/pipeline.ts';
import { registerErrorHandling } from './http/errors.ts';
import { routedUrl } from './http/fhir-outcome.ts';
import { CORS_OPTIONS } from './http/cors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { MAX_PARAM_LENGTH, clientErrorHandler, frameworkErrors, urlTooLong } from './http/framework-errors.ts';
import { schemaGuardsAjvPlugin } from './http/schema-guards.ts';
import { registerOperations } from './http/operations.ts';
import { registerRestRoutes } from './rest/register.ts';
import { buildOpenApi, OPENAPI_OPERATION, registerOpenApi } from './rest/openapi.ts';
import type { JsonSchema, OperationDoc } from './routes/types.ts';
import { createReceiptIssuer, JWKS_OPERATION, registerJwks } from './http/receipts.ts';
import { GRAPHQL_OPERATIONS, registerPublicGraphql } from './graphql/route.ts';
import { MCP_OPERATIONS, registerMcp } from './mcp/route.ts';
import { buildTools } from './mcp/tools.ts';
import { createChatTools } from './mcp/chat-tools.ts';
import { closeServices, createServices } from './services.ts';
import { consoleApi } from './console/api.ts';
import { registerWeb } from './web/static.ts';
import { startSourceCache } from '../resolvers/sources/status.ts';

/** The API's version in the OpenAPI document and the MCP handshake: the package version. */
export const API_VERSION = PACKAGE_VERSION;

/** Every operation the OpenAPI document describes, beside the document itself. */
export const DOCUMENTED_OPERATIONS: OperationDoc[] = [...ROUTES, ...GRAPHQL_OPERATIONS, ...MCP_OPERATIONS, JWKS_OPERATION];

/** The OpenAPI document the service serves, built without an app (the typed client, the tests' answer check). */
export function serviceDocument(): JsonSchema {
  return buildOpenApi([...DOCUMENTED_OPERATIONS, OPENAPI_OPERATION], API_VERSION, buildInternalSchema());
}

export interface AppOptions {
  config: Config;
  db: Database;
  now?: Clock;
  /** Where logs go (tests capture them); default stdout. */
  logStream?: DestinationStream;
  services?: Services;
  /** DNS for checks of tenant-chosen URLs (webhook targets); default the system resolver. */
  resolveHost?: HostResolver;
}

/** A CORS preflight names its origin and the method it asks about. */
function isPreflight(headers: Record<string, string | string[] | undefined>): boolean {
  return Boolean(headers.origin) && Boolean(headers['access-control-request-method']);
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const now = options.now ?? systemClock;
  const logger = pino(loggerOptions(config.logLevel), options.logStream);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    rewriteUrl: (request) => routedUrl(request.url ?? '/'),
    frameworkErrors,
    clientErrorHandler,
    // strictNumbers off: with it (ajv 8's default) a query "Infinity" is coerced AFTER the
    // finiteness check and then skips minimum/maximum; without it the 32-bit bounds the
    // schema guards add refuse Infinity and -Infinity.
    ajv: {
      customOptions: { coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: true, strictNumbers: false },
      plugins: [schemaGuardsAjvPlugin],
    },
  });
  registerErrorHandling(app);
  registerJsonBodyParser(app);
  // A URL past the limit is refused first (414); one far past it never gets here (the
  // parser refuses it: framework-errors.ts). Added before CORS so it runs first: @fastify/cors answers a non-preflight OPTIONS with
  // a plain-text 400, and every error of this API is JSON with `error` first.
  // Callback style, not async: every request passes here, and a promise per hook shows in the bench.
  app.addHook('onRequest', (request, _reply, done) => {
    const tooLong = urlTooLong(request.raw.url ?? '');
    if (tooLong) {
      done(tooLong);
      return;
    }
    if (request.method === 'OPTIONS' && !isPreflight(request.headers)) {
      done(new ApiError('bad_request', 'OPTIONS is answered only as a CORS preflight: send origin and access-control-request-method.'));
      return;
    }
    done();
  });
  // Each operation reads from a replica until it writes; the key check and quota count before
  // it (onRequest) stay on the primary (platform/db-replicas.ts). Without replicas there is no
  // read scope to open, so a request pays nothing for it.
  if (db.replicaStates) app.addHook('preHandler', (_request, _reply, done) => withReplicaReads(done));
  // The lists as the header values @fastify/cors would otherwise join on every answer.
  await app.register(cors, {
    ...CORS_OPTIONS,
    methods: CORS_OPTIONS.methods.join(', '),
    allowedHeaders: CORS_OPTIONS.allowedHeaders.join(', '),
    exposedHeaders: CORS_OPTIONS.exposedHeaders.join(', '),
  });
  // Only retry-after: x-ratelimit-remaining means account quota in this API, not a per-IP count.
  const noLimitHeaders = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false };
  await app.register(rateLimit, {
    global: false,
    addHeadersOnExceeding: noLimitHeaders,
    addHeaders: { ...noLimitHeaders, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `At most ${context.max} requests a minute per address; retry in ${Math.ceil(context.ttl / 1000)} s.`, {}, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });

  const engine = createEngine(buildInternalSchema());
  const built = options.services ?? createServices(config, db, logger);
  const services: Services = options.resolveHost ? { ...built, resolveHost: options.resolveHost } : built;
  // Services the app built itself are the app's to release; passed-in ones stay the caller's.
  if (!options.services) app.addHook('onClose', () => closeServices(built));
  const routes = compileRoutes(engine, ROUTES);
  // One tool list for MCP and the assistant, built once at start.
  const tools = buildTools(routes);
  const deps: AppDeps = { config, db, now, services, toolbox: { engine, chat: createChatTools(engine, tools) } };
  const guard = createGuard(db, now, new KeyCache(config.keyCacheTtlMs, now), config.upgradeUrl);
  await app.register(pipelinePlugin, { guard, db, now });
  // One receipt issuer per app: the REST routes sign with it and the JWKS publishes its keys.
  const receipts = createReceiptIssuer(config, db, now);
  registerRestRoutes(app, engine, deps, routes, receipts);
  // The console's JSON API (console-token auth; its lookups run the routes above).
  await app.register(consoleApi, { prefix: '/console/api', engine, deps, routes });
  registerJwks(app, receipts, config);
  registerPublicGraphql(app, engine, deps);
  registerMcp(app, deps, tools, API_VERSION);
  registerOpenApi(app, DOCUMENTED_OPERATIONS, config, API_VERSION, engine.schema);
  registerOperations(app, db, config);
  // `_meta.sources` is served from a per-process cache that LISTENs for changes; listen before the first request.
  app.addHook('onReady', () => startSourceCache(db));
  // The console's pages, the API reference and the landing page (static files, no key).
  await registerWeb(app, { db, now, publicBaseUrl: config.publicBaseUrl });
  return app;
}
