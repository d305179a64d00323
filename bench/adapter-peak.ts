/**
 * `npx tsx bench/adapter-peak.ts [--parse] <adapter> <file...>`: what an adapter alone costs on
 * a release, without a database: a child process runs the compiled adapter (dist/, built by
 * `node bin/build.js`, as `drugref ingest` runs it) under GNU time, opens the files (`open`, or
 * `parse` with --parse) and reads every product and loose pack as the engine would, then prints
 * wall and CPU seconds, the child's peak RSS, the records read and kept per file and the
 * products and packs yielded. Generate a release with `bench/ingest-large.ts --keep DIR`. A folder
 * given as a file stands for the files in it (SPL: one document per file, tens of thousands).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The child: opens or parses the files with the compiled adapter and drains the snapshot. */
const CHILD = `
const [mode, id] = process.argv.slice(1);
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const paths = JSON.parse(stdin);
const { findAdapter } = await import(${JSON.stringify(`${ROOT}dist/workers/ingest/adapters/index.js`)});
const { fileInput } = await import(${JSON.stringify(`${ROOT}dist/workers/ingest/adapters/line-stream.js`)});
const adapter = findAdapter(id);
if (!adapter || (mode === 'open' && !adapter.open)) throw new Error('no adapter ' + id + ' with ' + mode);
const result = await adapter[mode](paths.map((path) => fileInput(path)));
let products = 0, packs = 0;
for await (const product of result.snapshot.products ?? []) { products += 1; packs += product.packs.length; }
for await (const _pack of result.snapshot.packs ?? []) packs += 1;
console.log(JSON.stringify({ products, packs, problems: result.problems.length, files: result.files }));
`;

function main(): void {
  const { values, positionals } = parseArgs({ options: { parse: { type: 'boolean', default: false } }, allowPositionals: true });
  const [adapter, ...files] = positionals;
  if (!adapter || files.length === 0) throw new Error('usage: bench/adapter-peak.ts [--parse] <adapter> <file...>');
  if (!existsSync(`${ROOT}dist/workers/ingest/adapters/index.js`)) throw new Error('run `node bin/build.js` first');
  const mode = values.parse ? 'parse' : 'open';
  const paths = files.map((f) => resolve(f)).flatMap((f) => (statSync(f).isDirectory() ? readdirSync(f).sort().map((n) => join(f, n)) : [f]));
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, '--input-type=module', '-e', CHILD, mode, adapter], {
    input: JSON.stringify(paths), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
  });
  const wall = (performance.now() - started) / 1000;
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !m) throw new Error(`${mode} failed (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { products: number; packs: number; problems: number; files: Array<{ file: string; read: number; kept: number }> };
  console.log(`${adapter} ${mode}: ${wall.toFixed(1)} s wall, ${(Number(m[1]) + Number(m[2])).toFixed(1)} s CPU, peak RSS ${Math.round(Number(m[3]) / 1024)} MiB`);
  console.log(`${out.products} products, ${out.packs} packs, ${out.problems} problems`);
  const sum = (key: 'read' | 'kept'): number => out.files.reduce((n, f) => n + f[key], 0);
  if (out.files.length > 20) console.log(`${out.files.length} files: ${sum('read')} read, ${sum('kept')} kept`);
  else for (const f of out.files) console.log(`${f.file}: ${f.read} read, ${f.kept} kept`);
}

main();
