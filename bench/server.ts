/**
 * The drugref server of the benchmark, in its own process: the API as `drugref serve --role
 * api` builds it (configuration from the environment, services, the full pipeline) on
 * BENCH_DB_URL, plus an IPC side channel for the orchestrator: the round-trip counter, and
 * a statement recorder (`onQuery` of platform/db.ts) that captures exactly what one request
 * sent to the database, for the same-SQL baseline.
 */
import { pino } from 'pino';
import { buildApp } from '../facades/app.ts';
import { closeServices, createServices } from '../facades/services.ts';
import { loadConfig } from '../platform/config.ts';
import { loggerOptions } from '../platform/logger.ts';
import { openDatabase } from '../platform/db.ts';
import type { QueryEvent } from '../platform/db.ts';
import { serveParent } from './processes.ts';

/** A recorded statement as it crosses IPC: params made JSON-safe (dates as ISO text). */
export type RecordedStatement = Omit<QueryEvent, 'params'> & { params: unknown[] | undefined };

function jsonSafe(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DB_URL!;
  let recording: RecordedStatement[] | null = null;
  const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', DEMO: 'false', HOST: '127.0.0.1', PORT: '0' });
  const db = await openDatabase({
    url,
    max: Number(process.env.BENCH_POOL ?? 10),
    onQuery: (e) => {
      recording?.push({ ...e, params: e.params?.map(jsonSafe) });
    },
  });
  const services = createServices(config, db, pino(loggerOptions('silent')));
  const app = await buildApp({ config, db, services });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  serveParent(async (m) => {
    switch (m.type) {
      case 'roundTrips': return { roundTrips: db.roundTrips };
      case 'recordStart':
        recording = [];
        return {};
      case 'recordStop': {
        const statements = recording ?? [];
        recording = null;
        return { statements };
      }
      default: throw new Error(`unknown request ${m.type}`);
    }
  }, async () => {
    await app.close();
    await closeServices(services);
    await db.close();
  });
  process.send!({ type: 'ready', url: address });
}

await main();
