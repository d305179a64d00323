/**
 * `node --import tsx bench/first-start.ts [--runs N] [--cpu-prof DIR] [--root DIR] [--compare DIR]`: how long a first
 * `npm start` takes to answer, against the floor of a bare process that creates an empty
 * embedded database (issue 16: a first start within 1.5x of it, a restart within 3 s).
 *
 * Each round runs, one after the other so machine load falls on both sides alike:
 * (a) a bare Node process that creates and opens an empty PGlite in a new folder and runs
 * `SELECT 1`; (b) `drugref serve` on a new DATA_DIR, timed from spawn to the first 200 of
 * `GET /v1/drugs?q=ibuprofen` with the demo key it prints; (c) a restart on that DATA_DIR.
 * `--cpu-prof DIR` profiles (b) and (c) (read them with bench/profile-top.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';


// Plain JavaScript, so the bare side pays for no TypeScript loader.
const BARE = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create({ dataDir: process.argv[1] });
await db.query('SELECT 1');
process.stdout.write('ready\\n');
await db.close();`;

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'cpu-prof': { type: 'string' }, root: { type: 'string' }, compare: { type: 'string' } } });
// `--root DIR` measures another checkout; `--compare DIR` measures one more in the same rounds (before and after a change).
const ROOT = args.root ?? fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'drugref.js');

interface Started {
  stop(): Promise<void>;
  output(): string;
  /** CPU seconds (user + system, all threads) the process used so far, in ms; null off Linux. */
  cpuMs(): number | null;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return null;
  }
}

/** Spawns `argv`, resolves once `ready(output)` returns a value; rejects if it exits first. */
function spawnUntil<T>(argv: string[], env: NodeJS.ProcessEnv, ready: (output: string) => T | undefined): Promise<{ value: T } & Started> {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started: Started = {
    output: () => output,
    cpuMs: () => cpuMsOf(child.pid),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no answer within 120 s:\n${output}`)); }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const value = ready(output);
      if (value === undefined) return;
      child.stdout.off('data', onData);
      clearTimeout(timer);
      resolve({ value, ...started });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with ${code} before answering:\n${output}`)); });
  });
}

/** Wall and CPU time of one measured start, in ms. */
interface Timing {
  ms: number;
  cpuMs: number | null;
  /** Until the server said it listens (before its first answer). */
  listening?: number;
}

async function bare(): Promise<Timing> {
  const dir = await mkdtemp(join(tmpdir(), 'drugref-bare-'));
  try {
    const t0 = performance.now();
    const run = await spawnUntil(['--input-type=module', '-e', BARE, join(dir, 'pglite')], process.env, (o) => (o.includes('ready') ? true : undefined));
    const timing = { ms: performance.now() - t0, cpuMs: run.cpuMs() };
    await run.stop();
    return timing;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Polls the search until it answers 200 (the server prints its address before that). */
async function firstAnswer(url: string, key: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/v1/drugs?q=ibuprofen`, { headers: { authorization: `Bearer ${key}` } }).catch(() => null);
    if (res?.status === 200) {
      await res.arrayBuffer();
      return;
    }
    await res?.arrayBuffer();
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One `drugref serve` of `bin` on `dataDir`: time to the first 200, and the key (printed on a first start only). */
async function serve(bin: string, dataDir: string, knownKey: string | null, profileName: string): Promise<Timing & { key: string }> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const flags = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`, `--cpu-prof-name=${profileName}.cpuprofile`] : [];
  const t0 = performance.now();
  const run = await spawnUntil([...flags, bin, 'serve'], env, (o) => {
    const url = /drugref listening on (http:\/\/\S+)/.exec(o)?.[1];
    const key = knownKey ?? /Demo API key: (\S+)/.exec(o)?.[1];
    return url && key ? { url, key } : undefined;
  });
  const listening = performance.now() - t0;
  await firstAnswer(run.value.url, run.value.key);
  const timing = { ms: performance.now() - t0, cpuMs: run.cpuMs(), listening };
  if (!knownKey && !run.output().includes('restored from the image')) process.stderr.write(`first-start: ${bin} restored no prepared image (run \`drugref demo image\` there)\n`);
  await run.stop();
  return { ...timing, key: run.value.key };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const s = (ms: number) => (ms / 1000).toFixed(2);
const cpu = (t: Timing) => ` (${t.listening ? `listening ${s(t.listening)}, ` : ''}cpu ${t.cpuMs === null ? '?' : s(t.cpuMs)})`;

const variants = [{ label: 'drugref', bin: BIN }, ...(args.compare ? [{ label: 'compared', bin: join(args.compare, 'bin', 'drugref.js') }] : [])];
const bares: Timing[] = [];
const results = variants.map(() => ({ first: [] as Timing[], restart: [] as Timing[] }));
const load = [loadavg()];
for (let i = 0; i < Number(args.runs); i++) {
  const b = await bare();
  bares.push(b);
  let line = `round ${i + 1}: bare ${s(b.ms)} s${cpu(b)}`;
  for (const [v, variant] of variants.entries()) {
    const dataDir = await mkdtemp(join(tmpdir(), 'drugref-first-'));
    try {
      const first = await serve(variant.bin, dataDir, null, `${variant.label}-first-${i}`);
      const restart = await serve(variant.bin, dataDir, first.key, `${variant.label}-restart-${i}`);
      results[v]!.first.push(first);
      results[v]!.restart.push(restart);
      line += `; ${variant.label}: first start ${s(first.ms)} s${cpu(first)} = ${(first.ms / b.ms).toFixed(2)}x, restart ${s(restart.ms)} s${cpu(restart)}`;
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${line}\n`);
}
load.push(loadavg());
const ms = (ts: Timing[]) => ts.map((t) => t.ms);
process.stdout.write(`median bare ${s(median(ms(bares)))} s\n`);
for (const [v, variant] of variants.entries()) {
  const { first, restart } = results[v]!;
  process.stdout.write(`${variant.label}: median first start ${s(median(ms(first)))} s, restart ${s(median(ms(restart)))} s; `
    + `ratio first/bare: median ${(median(ms(first)) / median(ms(bares))).toFixed(2)}, on sums ${(sum(ms(first)) / sum(ms(bares))).toFixed(2)}\n`);
}
process.stdout.write(`load average (1/5/15 min) before ${load[0]!.map((l) => l.toFixed(2)).join(' ')}, after ${load[1]!.map((l) => l.toFixed(2)).join(' ')}\n`);
