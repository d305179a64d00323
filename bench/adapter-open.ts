/**
 * `npx tsx bench/adapter-open.ts [--parse] ADAPTER FILE...`: what a streaming adapter alone costs,
 * with no database: opens the files as `drugref ingest` does (from disk), reads every product and
 * loose pack its snapshot streams, and prints the seconds, the records and the process's peak
 * RSS. `--parse` runs the adapter's in-memory `parse` instead, to compare.
 * Runs the compiled adapters (dist/, `node bin/build.js`) when they are built, so the figure
 * compares with the CLI's; tsx itself adds about 40 MiB to an empty process.
 * Set ADAPTER_OPEN_SOURCES=1 to run the TypeScript sources instead.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

import type * as AdapterIndex from '../workers/ingest/adapters/index.ts';
import type * as LineStream from '../workers/ingest/adapters/line-stream.ts';
import type { StreamedAdapterResult } from '../workers/ingest/input.ts';
import { formatExcluded, outcomeOf } from '../workers/ingest/row-outcome.ts';

const built = existsSync(new URL('../dist/.built', import.meta.url)) && !process.env.ADAPTER_OPEN_SOURCES;
const from = (path: string): URL => new URL(built ? `../dist/${path}.js` : `../${path}.ts`, import.meta.url);
const { ADAPTERS } = (await import(from('workers/ingest/adapters/index').href)) as typeof AdapterIndex;
const { fileInput } = (await import(from('workers/ingest/adapters/line-stream').href)) as typeof LineStream;

const args = process.argv.slice(2);
const parse = args[0] === '--parse';
const [id, ...paths] = parse ? args.slice(1) : args;
const adapter = ADAPTERS.find((a) => a.id === id);
if (!adapter?.open || paths.length === 0) throw new Error(`usage: adapter-open.ts [--parse] ADAPTER FILE... (a streaming adapter: ${ADAPTERS.filter((a) => a.open).map((a) => a.id).join(', ')})`);

const mib = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
const started = performance.now();
const inputs = paths.map((p) => fileInput(p, basename(p)));
const opened: StreamedAdapterResult = parse ? await adapter.parse(inputs) : await adapter.open(inputs);
const openSeconds = (performance.now() - started) / 1000;
const rssOpened = mib();
let [products, packs] = [0, 0];
for await (const product of opened.snapshot.products ?? []) {
  products += 1;
  packs += product.packs.length;
}
for await (const _ of opened.snapshot.packs ?? []) packs += 1;
const seconds = (performance.now() - started) / 1000;
console.log(`${id}${parse ? ' parse' : ''}${built ? '' : ' (sources through tsx)'}: opened in ${openSeconds.toFixed(1)} s (peak RSS ${rssOpened} MiB so far), `
  + `${products} products and ${packs} packs read in ${seconds.toFixed(1)} s in all, peak RSS ${mib()} MiB`);
console.log(`substances ${opened.snapshot.substances?.length ?? 0}, classes ${opened.snapshot.classes?.length ?? 0}, problems ${opened.problems.length}`);
for (const f of (opened.files ?? []).map((r) => outcomeOf(r))) {
  console.log(`${f.file}: ${f.read} read, ${f.kept} kept, ${f.malformed} malformed${formatExcluded(f) ? `, excluded ${formatExcluded(f)}` : ''}`);
}
