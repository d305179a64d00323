/**
 * Operational endpoints: liveness, readiness (the database answers) and Prometheus
 * metrics. None needs a key; none is under /v1.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import { registerSyncMetrics } from '../../workers/sync/metrics.ts';
import { sendError } from './errors.ts';

export function registerOperations(app: FastifyInstance, db: Database): void {
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
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
