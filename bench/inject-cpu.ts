/**
 * `node --import tsx bench/inject-cpu.ts <database-url> [scenario-substring] [requests] [rounds] [--replay]`:
 * the server CPU per request of each bench scenario (bench/scenarios.ts) in process, through
 * `app.inject` (no sockets, no load generator), 16 requests in flight, `rounds` rounds
 * (default 7) after a warm-up; prints the minimum, the second-lowest and the median round
 * with the database round trips per request during the rounds (quota included) and a digest
 * of the answer (its `generated_at` removed). On a shared machine the minimum
 * of a round moves far less than req/s, so two checkouts compared one after the other give
 * a usable A/B of a change to the pipeline. The database is a prepared bench database
 * (`npm run bench -- --database-url …` loads the demo catalogue into it); each run adds one key.
 *
 * `--replay`: the app's database is answered from memory. Each statement's rows are recorded
 * from the real database during a first warm-up and replayed (shallow copies) afterwards,
 * keyed by text and parameters (dates ignored), so the CPU per request is the pipeline's
 * alone, without the driver's and the sockets' share, which on a loaded machine is also the
 * noisiest. Writes reach nothing after the warm-up (the quota count answers its recorded
 * row). For A/B of pipeline changes, not for absolute figures.
 *
 * `--baseline`: also measures, in the same process and the same way, the same-SQL baseline
 * (bench/baseline-app.ts replaying the statements one request of the route ran), and
 * prints drugref's CPU per request over the baseline's. In process there are no sockets,
 * so the pair isolates the pipeline and moves less with the machine's load than the bench.
 *
 * `--alloc`: also samples what one round allocates (V8's sampling heap profiler, objects the
 * young and old collections freed included) and prints the bytes per request and the
 * functions that allocate most. Allocation is what the CPU profile cannot show: V8's
 * collector threads run beside the main thread and their CPU counts in the server's.
 */
import { createHash } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { pino } from 'pino';
import { buildApp } from '../facades/app.ts';
import { closeServices, createServices } from '../facades/services.ts';
import { loadConfig } from '../platform/config.ts';
import { loggerOptions } from '../platform/logger.ts';
import { openDatabase } from '../platform/db.ts';
import type { Database, QueryEvent, Queryable } from '../platform/db.ts';
import { createKey } from '../resolvers/accounts/keys.ts';
import { SCENARIOS } from './scenarios.ts';
import { buildBaselineApp } from './baseline-app.ts';
import { toWaves } from './replay.ts';
import type { RecordedStatement } from './server.ts';

const replaying = process.argv.includes('--replay');
const sampling = process.argv.includes('--alloc');
const withBaseline = process.argv.includes('--baseline') && !replaying;
const [url, only = '', requests = '800', rounds = '7'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!url) throw new Error('usage: bench/inject-cpu.ts <database-url> [scenario-substring] [requests] [rounds] [--replay] [--alloc] [--baseline]');
const N = Number(requests);
const ROUNDS = Number(rounds);

interface SampledNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampledNode[];
}

/** Bytes `work` allocates, sampled every 1 KiB on average, summed by allocating function. */
async function allocations(work: () => Promise<void>): Promise<{ total: number; byFunction: Array<[string, number]> }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await work();
  const { profile } = await session.post('HeapProfiler.stopSampling') as { profile: { head: SampledNode } };
  session.disconnect();
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: SampledNode) => {
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(facades|resolvers|platform|bench)\//, '$1/')}:${f.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(visit);
  };
  visit(profile.head);
  return { total, byFunction: [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25) };
}

/** `real` with its reads answered from memory once `replay.on` is set (rows recorded until then). */
function replayingDatabase(real: Database): { db: Database; replay: { on: boolean } } {
  const replay = { on: false };
  const recorded = new Map<string, { rows: unknown[]; rowCount: number }>();
  const keyOf = (text: string, params?: unknown[]) => text + '\u0000' + (params ?? []).map((p) => (p instanceof Date ? '' : p)).join('\u0001');
  const query = async (text: string, params?: unknown[], options?: object) => {
    const k = keyOf(text, params);
    const hit = replay.on ? recorded.get(k) : undefined;
    if (hit) return { rows: hit.rows.map((r) => ({ ...(r as object) })), rowCount: hit.rowCount };
    const r = await real.query(text, params, options as never);
    recorded.set(k, { rows: r.rows.map((x) => structuredClone(x)), rowCount: r.rowCount });
    return r;
  };
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'query') return query;
      if (prop === 'transaction') return (fn: (tx: Queryable) => Promise<unknown>) => fn({ query } as Queryable);
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(target) : v;
    },
  }) as Database;
  return { db, replay };
}

const config = loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', DEMO: 'false', HOST: '127.0.0.1', PORT: '0' });
/** Where `--baseline` collects one request's statements; the recorder is off otherwise. */
let recording: RecordedStatement[] | null = null;
const real = await openDatabase({ url, max: 10, ...(withBaseline ? { onQuery: (e: QueryEvent) => { recording?.push(e); } } : {}) });
const { db, replay } = replaying ? replayingDatabase(real) : { db: real, replay: { on: false } };
const services = createServices(config, db, pino(loggerOptions('silent')));
const app = await buildApp({ config, db, services });
await app.ready();
const key = (await createKey(real, { account: `micro-${Date.now()}`, tier: 'enterprise' })).key;
const { rows } = await real.query<{ id: string; gtin: string }>(
  `SELECT p.id, i.code AS gtin FROM products p JOIN identifiers i ON i.drug_id = p.id AND i.system = 'gtin' AND i.pack_id IS NOT NULL
    WHERE p.source = 'demo-ch' AND p.searchable ORDER BY p.natural_key, i.code LIMIT 1`);
/** `n` calls of `one`, 16 in flight. */
async function inFlight(n: number, one: () => Promise<unknown>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: 16 }, async () => { while (i++ < n) await one(); }));
}

/** CPU µs per request of `ROUNDS` rounds of `N` requests, lowest first. */
async function measureRounds(run: (n: number) => Promise<void>): Promise<number[]> {
  const us: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const c0 = process.cpuUsage();
    await run(N);
    const c = process.cpuUsage(c0);
    us.push((c.user + c.system) / N);
  }
  return us.sort((a, b) => a - b);
}

const spread = (us: number[]) => `min ${us[0]!.toFixed(0).padStart(5)}  2nd ${us[1]!.toFixed(0).padStart(5)}  median ${us[Math.floor(us.length / 2)]!.toFixed(0).padStart(5)}`;

/** The route's statements of one request (`one`), replayed by the same-SQL baseline app in process. */
async function baselineRounds(req: { method: string; url: string }, one: () => Promise<string>): Promise<number[]> {
  const recorded: RecordedStatement[] = [];
  recording = recorded;
  const body = await one();
  recording = null;
  const baseline = await buildBaselineApp(real);
  baseline.add({ method: req.method as 'GET' | 'POST', url: req.url, waves: toWaves(recorded), status: 200, contentType: 'application/json; charset=utf-8', body: Buffer.from(body).toString('base64') });
  await baseline.app.ready();
  const call = async () => { const r = await baseline.app.inject({ method: req.method as 'GET', url: req.url }); if (r.statusCode !== 200) throw new Error(`baseline ${r.statusCode}`); };
  await inFlight(Math.min(300, N), call);
  const us = await measureRounds((n) => inFlight(n, call));
  await baseline.app.close();
  return us;
}

const fill = (t: string) => t.replace('{drugId}', rows[0]!.id).replace('{gtin}', rows[0]!.gtin);
for (const s of SCENARIOS.filter((x) => x.name.includes(only))) {
  const req = { method: s.method, url: fill(s.path), headers: { authorization: `Bearer ${key}`, ...(s.body ? { 'content-type': 'application/json' } : {}) }, ...(s.body ? { payload: JSON.stringify(s.body) } : {}) };
  const one = async () => { const r = await app.inject(req as never); if (r.statusCode !== 200) throw new Error(`${s.name} ${r.statusCode} ${r.body.slice(0, 200)}`); return r.body; };
  const run = (n: number) => inFlight(n, one);
  replay.on = false;
  if (replaying) await run(20);
  replay.on = replaying;
  await run(Math.min(300, N));
  const trips0 = real.roundTrips;
  const us = await measureRounds(run);
  const trips = (real.roundTrips - trips0) / (N * ROUNDS);
  const body = await one();
  const digest = createHash('sha1').update(body.replace(/"generated_at":"[^"]*"/g, '')).digest('hex').slice(0, 10);
  if (sampling) {
    const { total, byFunction } = await allocations(() => run(N));
    process.stdout.write(`${s.name}: ${(total / N / 1024).toFixed(1)} KiB allocated per request; by function (KiB per request):\n`);
    for (const [name, bytes] of byFunction) process.stdout.write(`  ${(bytes / N / 1024).toFixed(2).padStart(7)}  ${name}\n`);
  }
  process.stdout.write(`${s.name.padEnd(36)} ${spread(us)} µs/request  ${trips.toFixed(2)} round trips  ${body.length} B  ${digest}\n`);
  if (withBaseline) {
    const base = await baselineRounds(req, one);
    process.stdout.write(`${'  same-SQL baseline'.padEnd(36)} ${spread(base)} µs/request  drugref ÷ baseline (min) ${(us[0]! / base[0]!).toFixed(2)}\n`);
  }
}
await app.close(); await closeServices(services); await real.close();
