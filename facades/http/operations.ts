/**
 * Operational endpoints: liveness, readiness (the database answers) and Prometheus
 * metrics. None needs an API key; none is under /v1. The metrics can be guarded by a
 * bearer token of their own (METRICS_TOKEN) and moved to a listener of their own
 * (METRICS_PORT), so the public port does not show request volumes to anyone.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import { registerSyncMetrics } from './sync-metrics.ts';
import { registerReplicaMetrics } from './replica-metrics.ts';
import { sendError } from './errors.ts';

/** How `/metrics` is exposed (the `metricsToken` / `metricsPort` of the configuration). */
export interface MetricsExposure {
  metricsToken: string | null;
  metricsPort: number | null;
  host: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the token (compared in constant time). */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

const TOKEN_REQUIRED = 'The metrics need the header `Authorization: Bearer <METRICS_TOKEN>`.';

/**
 * Serves `/metrics` alone on `port` (any other path: 404), from when the app listens until
 * it closes.
 */
function listenForMetrics(app: FastifyInstance, registry: Registry, exposure: MetricsExposure & { metricsPort: number }): void {
  let server: Server | null = null;
  app.addHook('onListen', async () => {
    if (server) return;
    server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      if (exposure.metricsToken && !carriesToken(req.headers.authorization, exposure.metricsToken)) {
        return void res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end(`${TOKEN_REQUIRED}\n`);
      }
      registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
        (err: Error) => { app.log.error({ err }, 'metrics failed'); res.writeHead(500).end(); },
      );
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(exposure.metricsPort, exposure.host, () => resolve());
    });
    app.log.info({ port: exposure.metricsPort }, 'metrics listening on their own port');
  });
  app.addHook('onClose', async () => {
    const open = server;
    if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
  });
}

export function registerOperations(app: FastifyInstance, db: Database, exposure: MetricsExposure = { metricsToken: null, metricsPort: null, host: '127.0.0.1' }): void {
  // A registry per app instance: no global state shared between apps (or tests).
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'drugref_http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'drugref_http_request_duration_seconds',
    help: 'HTTP request duration by route.',
    labelNames: ['route', 'method'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Per register source: last success, duration, rows, failures (read from the database when scraped).
  registerSyncMetrics(registry, db);
  registerReplicaMetrics(registry, db);

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    done();
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ready', database: db.kind };
    } catch (err) {
      request.log.error({ err }, 'readiness check failed');
      return sendError(reply, new ApiError('unavailable', 'The database does not answer.', {}, { 'retry-after': '5' }));
    }
  });
  if (exposure.metricsPort !== null) {
    listenForMetrics(app, registry, { ...exposure, metricsPort: exposure.metricsPort });
    return;
  }
  const token = exposure.metricsToken;
  app.get('/metrics', async (request, reply) => {
    if (token && !carriesToken(request.headers.authorization, token)) {
      return sendError(reply, new ApiError('unauthorized', TOKEN_REQUIRED, {}, { 'www-authenticate': 'Bearer' }));
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
