/**
 * `npm run bench [-- options]`: an honest benchmark of drugref on PostgreSQL.
 *
 * - The drugref server (bench/server.ts), the same-SQL baseline (bench/baseline.ts) and
 *   PostGraphile (bench/postgraphile.ts) each run in their own process; the load generator
 *   (autocannon, bench/load.ts) in another, pinned to another CPU where taskset exists.
 * - For each scenario the route's statements are recorded from one request (after a
 *   warm-up) and the baseline replays exactly them with the route's response bytes; the
 *   public GraphQL nested query, the lookup and the drug record are also run against
 *   PostGraphile over the same tables (the record's answers checked equal first).
 * - Every figure is printed as a ratio to its baseline or peer, with p50/p99 and SQL round
 *   trips per request counted by the server's database module during the load.
 *
 * Options: --quick (2 s per measurement), --seconds N (default 10), --connections N
 * (default 32), --catalogue demo|large, --products N (large; default 1,000,000),
 * --database-url URL (a prepared database, kept), --write-docs (save the run in
 * bench/results/ and regenerate docs/performance.md), --only <substring>, --warm-up N
 * (requests before recording and measuring; default 20, 3 with --quick), --profile DIR
 * (the drugref server and the baseline write V8 CPU profiles of each scenario's load window
 * to DIR/<scenario>.{drugref,baseline}.cpuprofile; read them with bench/profile-top.ts or
 * Chrome DevTools).
 * BENCH_DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
 * the run creates and drops a scratch database on it.
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../platform/db.ts';
import { prepareBenchDatabase } from './database.ts';
import type { BenchDatabase } from './database.ts';
import type { LoadRequest, LoadResult } from './load.ts';
import { cpuPlan, startChild } from './processes.ts';
import type { Child } from './processes.ts';
import { perRequest } from './profile-top.ts';
import { roundTripsOf, toWaves } from './replay.ts';
import { formatPlans, formatRun, saveRun, writeDocs } from './report.ts';
import type { RunResult, ScenarioResult } from './report.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Scenario } from './scenarios.ts';
import type { RecordedStatement } from './server.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    catalogue: { type: 'string', default: 'demo' },
    products: { type: 'string', default: '1000000' },
    'database-url': { type: 'string' },
    'write-docs': { type: 'boolean', default: false },
    only: { type: 'string' },
    'warm-up': { type: 'string' },
    profile: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds ?? (args.quick ? 2 : 10));
const CONNECTIONS = Number(args.connections);
const CATALOGUE = args.catalogue === 'large' ? 'large' : 'demo';
const WARM_UP = Number(args['warm-up'] ?? (args.quick ? 3 : 20));
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

interface Servers {
  drugref: Child & { url: string };
  baseline: Child & { url: string };
  postgraphile: Child & { url: string };
  load: Child;
}

interface Response {
  status: number;
  contentType: string;
  body: Buffer;
}

function headersOf(scenario: Scenario, key: string | null): Record<string, string> {
  return {
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...(scenario.body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
  };
}

async function send(url: string, scenario: Scenario, key: string | null, body = scenario.body): Promise<Response> {
  const res = await fetch(url, { method: scenario.method, headers: headersOf(scenario, key), ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/json', body: Buffer.from(await res.arrayBuffer()) };
}

async function loadRun(s: Servers, url: string, scenario: Scenario, key: string | null, body = scenario.body): Promise<LoadResult> {
  const load: LoadRequest = { url, method: scenario.method, headers: headersOf(scenario, key), connections: CONNECTIONS, seconds: SECONDS, ...(body ? { body: JSON.stringify(body) } : {}) };
  return (await s.load.request<{ result: LoadResult }>({ type: 'run', load })).result;
}

/** Warms the route up, then records the statements and the response of one request. */
async function record(s: Servers, scenario: Scenario, key: string): Promise<{ statements: RecordedStatement[]; response: Response }> {
  const url = s.drugref.url + scenario.path;
  for (let i = 0; i < WARM_UP; i += 1) await send(url, scenario, key);
  await s.drugref.request({ type: 'recordStart' });
  const response = await send(url, scenario, key);
  const { statements } = await s.drugref.request<{ statements: RecordedStatement[] }>({ type: 'recordStop' });
  if (response.status >= 300) throw new Error(`${scenario.name}: ${response.status} ${response.body.toString().slice(0, 300)}`);
  return { statements, response };
}

/** EXPLAIN ANALYZE of the recorded statements that read the catalogue (not the key or the quota). */
async function plans(url: string, statements: RecordedStatement[]): Promise<Array<{ statement: string; plan: string }>> {
  const db = await openDatabase({ url, max: 1 });
  try {
    const out = [];
    for (const st of statements.filter((x) => /\bproducts\b|\bidentifiers\b/.test(x.text))) {
      const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.params);
      out.push({ statement: st.text.replace(/\s+\n/g, '\n'), plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    }
    return out;
  } finally {
    await db.close();
  }
}

/** Counts of a nested GraphQL answer: drugs, ingredients, ATC nodes, packs, prices. */
function nestedVolume(body: Buffer): string {
  const text = body.toString();
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const drugs = count(/"productName"/g);
  return `${drugs} drugs, ${count(/"strengthUnit"/g)} ingredients, ${count(/"level"/g)} ATC nodes, ${count(/"description"/g)} packs, ${count(/"currency"/g)} prices`;
}

async function peer(s: Servers, scenario: Scenario, drugref: Response): Promise<ScenarioResult['peer']> {
  const probe: Scenario = { ...scenario, method: 'POST', path: '/graphql', body: scenario.postgraphile };
  const answer = await send(`${s.postgraphile.url}/graphql`, probe, null, scenario.postgraphile);
  if (answer.status !== 200 || answer.body.toString().includes('"errors"')) throw new Error(`PostGraphile: ${answer.body.toString().slice(0, 400)}`);
  scenario.sameAnswer?.(JSON.parse(drugref.body.toString()), JSON.parse(answer.body.toString()));
  for (let i = 0; i < WARM_UP; i += 1) await send(`${s.postgraphile.url}/graphql`, probe, null, scenario.postgraphile);
  const result = await loadRun(s, `${s.postgraphile.url}/graphql`, probe, null, scenario.postgraphile);
  const [volume, drugrefVolume] = scenario.sameAnswer ? ['the same record', 'checked equal'] : [nestedVolume(answer.body), nestedVolume(drugref.body)];
  return { ...result, name: 'PostGraphile 4', bytes: answer.body.length, volume, drugrefVolume };
}

/** The scenario's one-statement floor, served by the baseline process under /floor<path>. */
async function floor(s: Servers, scenario: Scenario): Promise<LoadResult & { cpuUs: number }> {
  const path = `/floor${scenario.path}`;
  await s.baseline.request({ type: 'addRoute', route: { method: scenario.method, url: path, waves: [], status: 200, contentType: 'application/json', body: '', floor: scenario.floor } });
  const probe = { ...scenario, path };
  const answer = await send(s.baseline.url + path, probe, null);
  if (answer.status !== 200 || answer.body.toString() === 'null') throw new Error(`${scenario.name}: the floor statement answered ${answer.status} ${answer.body.toString().slice(0, 200)}`);
  for (let i = 0; i < WARM_UP; i += 1) await send(s.baseline.url + path, probe, null);
  return measured(s.baseline, `${scenario.name}.floor`, () => loadRun(s, s.baseline.url + path, probe, null));
}

/**
 * Runs `load` and measures the CPU time `child` spent meanwhile (µs per request: the
 * pipeline's own cost, which machine load barely changes, unlike req/s); under the CPU
 * profiler when `--profile` is given.
 */
async function measured(child: Child, name: string, load: () => Promise<LoadResult>): Promise<LoadResult & { cpuUs: number; profile?: Map<string, number> }> {
  const cpu = async () => (await child.request<{ cpuUs: number }>({ type: 'cpu' })).cpuUs;
  if (args.profile) await child.request({ type: 'profileStart' });
  const before = await cpu();
  const result = await load();
  const spent = (await cpu()) - before;
  const file = args.profile ? join(args.profile, `${name.replace(/[^a-z0-9.]+/gi, '-')}.cpuprofile`) : null;
  if (file) await child.request({ type: 'profileStop', file });
  return { ...result, cpuUs: result.requests > 0 ? Math.round(spent / result.requests) : Number.NaN, ...(file ? { profile: perRequest(file, result.requests) } : {}) };
}

/** Where drugref's CPU per request goes beyond the baseline's, by package or folder (--profile), largest first. */
function profileGap(drugref: Map<string, number>, baseline: Map<string, number>): string {
  const groups = new Set([...drugref.keys(), ...baseline.keys()]);
  const gaps = [...groups].map((g) => [g, (drugref.get(g) ?? 0) - (baseline.get(g) ?? 0)] as const).filter(([, us]) => Math.abs(us) >= 2);
  const total = [...drugref.values()].reduce((a, b) => a + b, 0) - [...baseline.values()].reduce((a, b) => a + b, 0);
  return `profiled CPU above the baseline ${Math.round(total)} µs/request: ${gaps.sort((a, b) => b[1] - a[1]).map(([g, us]) => `${g} ${us > 0 ? '+' : ''}${Math.round(us)}`).join(', ')}`;
}

async function runScenario(s: Servers, db: BenchDatabase, template: Scenario): Promise<ScenarioResult> {
  const fill = (text: string) => text.replace('{drugId}', db.drugId).replace('{gtin}', db.gtin);
  const scenario = { ...template, path: fill(template.path), ...(template.postgraphile ? { postgraphile: JSON.parse(fill(JSON.stringify(template.postgraphile))) } : {}) };
  const { statements, response } = await record(s, scenario, db.key);
  const waves = toWaves(statements);
  await s.baseline.request({
    type: 'addRoute',
    route: { method: scenario.method, url: scenario.path, waves, status: response.status, contentType: response.contentType, body: response.body.toString('base64') },
  });
  for (let i = 0; i < WARM_UP; i += 1) await send(s.baseline.url + scenario.path, scenario, null);
  const before = (await s.drugref.request<{ roundTrips: number }>({ type: 'roundTrips' })).roundTrips;
  const route = await measured(s.drugref, `${scenario.name}.drugref`, () => loadRun(s, s.drugref.url + scenario.path, scenario, db.key));
  const after = (await s.drugref.request<{ roundTrips: number }>({ type: 'roundTrips' })).roundTrips;
  const baseline = await measured(s.baseline, `${scenario.name}.baseline`, () => loadRun(s, s.baseline.url + scenario.path, scenario, null));
  const result: ScenarioResult = {
    name: scenario.name, route, baseline, bytes: response.body.length,
    // No request finished: no per-request figure (NaN prints as a dash).
    roundTrips: route.requests > 0 ? Math.round(((after - before) / route.requests) * 10) / 10 : Number.NaN,
    recorded: roundTripsOf(waves),
  };
  if (scenario.floor) {
    result.floor = await floor(s, scenario);
    log(`${scenario.name}: ${route.rps} req/s vs one-statement floor ${result.floor.rps} (${(route.rps / Math.max(result.floor.rps, 1)).toFixed(2)}), server CPU ${route.cpuUs} vs ${result.floor.cpuUs} µs/request`);
  }
  if (scenario.postgraphile) result.peer = await peer(s, scenario, response);
  if (scenario.explain && CATALOGUE === 'large') result.plans = await plans(db.url, statements);
  if (route.profile && baseline.profile) log(`${scenario.name}: ${profileGap(route.profile, baseline.profile)}`);
  log(`${scenario.name}: ${route.rps} req/s vs baseline ${baseline.rps} (${(route.rps / Math.max(baseline.rps, 1)).toFixed(2)}), server CPU ${route.cpuUs} vs ${baseline.cpuUs} µs/request, ${result.roundTrips} round trips/request (recorded ${result.recorded})`);
  return result;
}

async function startServers(db: BenchDatabase): Promise<Servers> {
  const plan = cpuPlan();
  const env = { BENCH_DB_URL: db.url, BENCH_POOL: '10' };
  const server = plan.pinned ? plan.server : null;
  const drugref = await startChild('server.ts', env, server);
  const baseline = await startChild('baseline.ts', env, server);
  const postgraphile = await startChild('postgraphile.ts', env, server);
  const load = await startChild('load.ts', {}, plan.pinned ? plan.load : null);
  const url = (c: typeof drugref) => String(c.ready.url);
  return { drugref: { ...drugref, url: url(drugref) }, baseline: { ...baseline, url: url(baseline) }, postgraphile: { ...postgraphile, url: url(postgraphile) }, load };
}

function pinning(s: Servers): string {
  return s.drugref.cpus && s.load.cpus
    ? `servers pinned to CPU ${s.drugref.cpus} and the load generator to CPU ${s.load.cpus} (taskset; PostgreSQL unpinned)`
    : 'no CPU pinning (taskset missing or a single CPU)';
}

async function main(): Promise<void> {
  const startLoad = loadavg();
  const db = await prepareBenchDatabase({
    adminUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    catalogue: CATALOGUE, products: Number(args.products), ...(args['database-url'] ? { existingUrl: args['database-url'] } : {}), log,
  });
  log(`database ready: ${db.products} products; starting the servers`);
  // Interrupted: drop the scratch database (the children stop when their IPC channel closes).
  const interrupted = () => {
    db.drop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const servers = await startServers(db).catch(async (err: unknown) => {
    await db.drop();
    throw err;
  });
  log(`servers ready (${pinning(servers)})`);
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of SCENARIOS.filter((x) => !args.only || x.name.includes(args.only))) results.push(await runScenario(servers, db, scenario));
  } finally {
    for (const child of [servers.drugref, servers.baseline, servers.postgraphile, servers.load]) await child.stop();
    await db.drop();
  }
  const run: RunResult = {
    date: new Date().toISOString().slice(0, 10), catalogue: CATALOGUE, products: db.products, packs: db.packs,
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`, postgres: db.postgresVersion,
    connections: CONNECTIONS, seconds: SECONDS, pinning: pinning(servers), loadavg: { start: startLoad, end: loadavg() }, scenarios: results,
  };
  process.stdout.write(`${formatRun(run).join('\n')}\n\n${formatPlans(run).join('\n')}\n`);
  if (args['write-docs']) {
    await saveRun(run);
    await writeDocs();
    log('bench/results and docs/performance.md updated');
  }
}

await main();