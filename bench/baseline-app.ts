/**
 * The same-SQL baseline: a bare Fastify server with no auth, quota, validation or GraphQL,
 * whose handler for a recorded request replays exactly the statements the drugref route
 * ran for it (bench/replay.ts) and sends the route's response bytes. Route ÷ baseline is
 * therefore the cost of drugref's pipeline alone, measured against the same database work.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../platform/db.ts';
import { replay } from './replay.ts';
import type { Waves } from './replay.ts';

/** What the baseline answers for one method and URL. */
export interface BaselineRoute {
  method: 'GET' | 'POST';
  /** Path with query string, exactly as requested. */
  url: string;
  waves: Waves;
  status: number;
  contentType: string;
  /** Response body, base64 (it crosses IPC as JSON). */
  body: string;
  /** Instead of replaying `waves` and sending `body`: run this one statement and send its `body` column. */
  floor?: { sql: string; params: unknown[] };
}

/** A Fastify app answering every recorded route from one catch-all handler (routes can be added after listen). */
export async function buildBaselineApp(db: Database): Promise<{ app: FastifyInstance; add(route: BaselineRoute): void }> {
  const routes = new Map<string, BaselineRoute & { bytes: Buffer }>();
  const app = Fastify({ logger: false });
  app.route({
    method: ['GET', 'POST'],
    url: '/*',
    handler: async (request, reply) => {
      const route = routes.get(`${request.method} ${request.url}`);
      if (!route) return reply.code(404).send({ error: 'not_recorded' });
      if (route.floor) {
        const { rows } = await db.query<{ body: string }>(route.floor.sql, route.floor.params);
        return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(rows[0]?.body ?? 'null');
      }
      await replay(db, route.waves);
      return reply.code(route.status).header('content-type', route.contentType).send(route.bytes);
    },
  });
  return {
    app,
    add(route) {
      routes.set(`${route.method} ${route.url}`, { ...route, bytes: Buffer.from(route.body, 'base64') });
    },
  };
}
