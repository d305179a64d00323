/**
 * `npm run bench`: serves the API on loopback over the demo catalogue (embedded database
 * by default, `BENCH_DATABASE_URL` for PostgreSQL), measures each scenario with
 * autocannon against a bare-Fastify baseline measured in the same run, and prints a
 * Markdown table of req/s, latency, ratio to the baseline and SQL round trips per request.
 * Loops are bounded: BENCH_SECONDS (default 5) per scenario, BENCH_CONNECTIONS (default 10)
 * concurrent connections, loopback only.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { cpus } from 'node:os';
import { buildApp } from '../facades/app.ts';
import { testConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db.ts';
import type { Database } from '../platform/db.ts';
import { migrate } from '../platform/migrate.ts';
import { createKey } from '../resolvers/accounts/keys.ts';
import { ingestSnapshots } from '../workers/ingest/engine.ts';
import { buildDemoSnapshots } from '../data/demo/build.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Scenario } from './scenarios.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  roundTrips: number | null;
}

async function measure(url: string, scenario: Scenario, key: string, db: Database | null): Promise<Row> {
  const before = db?.roundTrips ?? 0;
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: {
      ...(scenario.auth === false ? {} : { authorization: `Bearer ${key}` }),
      ...(scenario.body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
    },
    ...(scenario.body ? { body: JSON.stringify(scenario.body) } : {}),
  });
  const requests = result.requests.total || 1;
  return {
    name: scenario.name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    roundTrips: db ? Math.round(((db.roundTrips - before) / requests) * 10) / 10 : null,
  };
}

async function baselineUrl(): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify();
  const body = { code: 'N02BE01', name: 'paracetamol', level: 5, ancestors: [{ code: 'N', name: 'NERVOUS SYSTEM', level: 1 }], ddd: [{ value: 3, unit: 'g', route: 'O' }] };
  app.get('/baseline', async () => body);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? null;
  const db = await openDatabase({ url, dataDir: 'memory://', max: 10 });
  await migrate(db);
  await ingestSnapshots(db, buildDemoSnapshots());
  const key = (await createKey(db, { account: 'bench', tier: 'enterprise' })).key;
  const drug = await db.query<{ id: string }>("SELECT id FROM products WHERE country = 'CH' ORDER BY natural_key LIMIT 1");
  const app = await buildApp({ config: testConfig({ logLevel: 'silent' }), db });
  const apiUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const baseline = await baselineUrl();

  const rows = [await measure(baseline.url, { name: 'baseline: bare Fastify route', method: 'GET', path: '/baseline', auth: false }, key, null)];
  for (const scenario of SCENARIOS) {
    rows.push(await measure(apiUrl, { ...scenario, path: scenario.path.replace('{drugId}', drug.rows[0]?.id ?? '') }, key, db));
  }
  await app.close();
  await baseline.close();
  await db.close();

  const base = rows[0]!.rps || 1;
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, database ${db.kind}, ${CONNECTIONS} connections, ${SECONDS} s per scenario.`,
    '',
    '| Scenario | req/s | ratio to baseline | p50 ms | p99 ms | non-2xx | SQL round trips / request |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.rps} | ${(r.rps / base).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.roundTrips ?? '–'} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
