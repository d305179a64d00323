/**
 * `npx tsx bench/ingest-large.ts [--format F] [--products N] [--database-url URL]`: what
 * `drugref ingest` costs on a national-scale register, end to end (read, parse, diff, write,
 * change feed).
 *
 * Generates a full-size release of format F into a temporary folder (never committed): `fda-ndc`
 * (default; N products, default 100 000, 2 packages each: the real directory has about 110 000
 * products and 250 000 packages) or `gb-dmd` (N AMPs, default 150 000, with about 25 000 VMPs
 * and 180 000 AMPPs: bench/dmd-release.ts) or `us-openfda-ndc` (N records, default 130 000, with 2
 * packages each: bench/openfda-release.ts) or `us-rxnorm` (N drugs, default 80 000, with about 6 NDCs
 * each in 3 M RXNSAT lines: bench/rxnorm-release.ts) or `ch-refdata` (N articles, default 150 000:
 * bench/refdata-release.ts) or `ch-artikelstamm` (N items, default 150 000: bench/artikelstamm-release.ts). Then runs the real CLI in a child process under GNU
 * time twice: the first ingest inserts everything, the second finds nothing changed. Prints wall
 * seconds, CPU seconds, the child's peak RSS and the records the adapter read and kept per file.
 * Without --database-url it uses a fresh embedded database. `--keep DIR` writes the release into
 * DIR and leaves it there (to profile one ingest by hand); `--first-only` skips the second ingest; `--cli PATH` runs another checkout's
 * `bin/drugref.js` on the same release (to compare before and after a change). Without it, this
 * checkout is built first and its compiled CLI run directly: `bin/drugref.js` would compile the
 * sources at run time instead (tens of MiB more) as soon as one is edited after the build.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeDmdRelease } from './dmd-release.ts';
import { writeOpenFdaDownload } from './openfda-release.ts';
import { writeRxnormRelease } from './rxnorm-release.ts';
import { writeRefdataArticles } from './refdata-release.ts';
import { writeArtikelstammFile } from './artikelstamm-release.ts';
import { writeLines } from './write-file.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const FORMS = [['TABLET', 'ORAL'], ['TABLET, FILM COATED', 'ORAL'], ['CAPSULE', 'ORAL'], ['INJECTION, SOLUTION', 'INTRAVENOUS'], ['CREAM', 'TOPICAL']];
const SUBSTANCES = ['IBUPROFEN', 'ACETAMINOPHEN', 'METFORMIN HYDROCHLORIDE', 'ATORVASTATIN CALCIUM', 'AMLODIPINE BESYLATE', 'LISINOPRIL',
  'OMEPRAZOLE', 'SERTRALINE HYDROCHLORIDE', 'SIMVASTATIN', 'LOSARTAN POTASSIUM', 'GABAPENTIN', 'LEVOTHYROXINE SODIUM'];

/** Labeler 5 digits, product 4 digits, package 2 digits: the 5-4-2 layout, unique per product. */
function ndc(i: number): { labeler: string; product: string } {
  return { labeler: String(10000 + Math.floor(i / 9000)).padStart(5, '0'), product: String(i % 9000 + 1000) };
}

function* products(n: number): Generator<string> {
  yield ['PRODUCTID', 'PRODUCTNDC', 'PRODUCTTYPENAME', 'PROPRIETARYNAME', 'PROPRIETARYNAMESUFFIX', 'NONPROPRIETARYNAME', 'DOSAGEFORMNAME',
    'ROUTENAME', 'STARTMARKETINGDATE', 'ENDMARKETINGDATE', 'MARKETINGCATEGORYNAME', 'APPLICATIONNUMBER', 'LABELERNAME', 'SUBSTANCENAME',
    'ACTIVE_NUMERATOR_STRENGTH', 'ACTIVE_INGRED_UNIT', 'PHARM_CLASSES', 'DEASCHEDULE', 'NDC_EXCLUDE_FLAG', 'LISTING_RECORD_CERTIFIED_THROUGH'].join('\t');
  for (let i = 0; i < n; i += 1) {
    const { labeler, product } = ndc(i);
    const [form, route] = FORMS[i % FORMS.length]!;
    const substance = SUBSTANCES[i % SUBSTANCES.length]!;
    yield [`${labeler}-${product}_${i}`, `${labeler}-${product}`, 'HUMAN PRESCRIPTION DRUG', `Brand${i}`, '', substance, form, route,
      '20150101', '', 'ANDA', `ANDA${String(i).padStart(6, '0')}`, `Labeler ${labeler}`, substance, String(5 * (1 + (i % 40))), 'mg/1', '', '', 'N', '20271231'].join('\t');
  }
}

function* packages(n: number): Generator<string> {
  yield ['PRODUCTID', 'PRODUCTNDC', 'NDCPACKAGECODE', 'PACKAGEDESCRIPTION', 'STARTMARKETINGDATE', 'ENDMARKETINGDATE', 'NDC_EXCLUDE_FLAG', 'SAMPLE_PACKAGE'].join('\t');
  for (let i = 0; i < n; i += 1) {
    const { labeler, product } = ndc(i);
    for (const [pkg, count] of [['10', 30], ['20', 90]] as const) {
      yield [`${labeler}-${product}_${i}`, `${labeler}-${product}`, `${labeler}-${product}-${pkg}`, `${count} TABLET in 1 BOTTLE (${labeler}-${product}-${pkg})`,
        '20150101', '', 'N', 'N'].join('\t');
    }
  }
}

/** A generated release: the adapter that reads it, its files and what it holds. */
interface Release {
  adapter: string; files: string[]; label: string;
}

const FORMATS: Readonly<Record<string, { size: number; write(dir: string, n: number): Promise<Release> }>> = {
  'fda-ndc': {
    size: 100_000,
    async write(dir, n) {
      const files = [join(dir, 'product.txt'), join(dir, 'package.txt')];
      await writeLines(files[0]!, products(n), '\r\n');
      await writeLines(files[1]!, packages(n), '\r\n');
      return { adapter: 'fda-ndc', files, label: `FDA NDC directory: ${n} products, ${2 * n} packages` };
    },
  },
  'gb-dmd': {
    size: 150_000,
    async write(dir, n) {
      return { adapter: 'gb-dmd', files: await writeDmdRelease(dir, n), label: `dm+d release: ${n} AMPs` };
    },
  },
  'us-openfda-ndc': {
    size: 130_000,
    async write(dir, n) {
      const path = join(dir, 'drug-ndc-0001-of-0001.json');
      await writeOpenFdaDownload(path, n);
      return { adapter: 'us-openfda-ndc', files: [path], label: `openFDA drug/ndc download: ${n} records, ${2 * n} packages` };
    },
  },
  'us-rxnorm': {
    size: 80_000,
    async write(dir, n) {
      return { adapter: 'us-rxnorm', files: await writeRxnormRelease(dir, n), label: `RxNorm release: ${n} drugs, about ${6 * n} RxNorm NDCs` };
    },
  },
  'ch-refdata': {
    size: 150_000,
    async write(dir, n) {
      const path = join(dir, 'Refdata.Articles.xml');
      await writeRefdataArticles(path, n);
      return { adapter: 'ch-refdata', files: [path], label: `Refdata article file: ${n} articles` };
    },
  },
  'ch-artikelstamm': {
    size: 150_000,
    async write(dir, n) {
      const path = join(dir, 'artikelstamm.xml');
      await writeArtikelstammFile(path, n);
      return { adapter: 'ch-artikelstamm', files: [path], label: `Elexis Artikelstamm v5: ${n} items` };
    },
  },
};

/** This checkout's compiled CLI, built now from the current sources. */
function builtCli(): string {
  const build = spawnSync(process.execPath, [join(ROOT, 'bin/build.js')], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  return join(ROOT, 'dist/cli/main.js');
}

/** Runs the CLI under GNU time; returns wall and CPU seconds, the peak RSS in MiB and the CLI's per-file lines. */
function timedIngest(env: NodeJS.ProcessEnv, cli: string, release: Release): { wall: number; cpu: number; rssMiB: number; files: string[] } {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, cli, 'ingest', release.adapter, ...release.files], {
    env, cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
  });
  const wall = (performance.now() - started) / 1000;
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !m) throw new Error(`ingest failed (exit ${run.status}): ${run.stderr.slice(-2000)}${run.stdout.slice(-2000)}`);
  const files = run.stdout.split('\n').filter((line) => /: \d+ read, \d+ kept, \d+ malformed/.test(line));
  return { wall, cpu: Number(m[1]) + Number(m[2]), rssMiB: Math.round(Number(m[3]) / 1024), files };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      format: { type: 'string', default: 'fda-ndc' }, products: { type: 'string' }, 'database-url': { type: 'string' },
      keep: { type: 'string' }, cli: { type: 'string' }, 'first-only': { type: 'boolean', default: false },
    },
  });
  const format = FORMATS[values.format!];
  if (!format) throw new Error(`--format is one of ${Object.keys(FORMATS).join(', ')}`);
  const n = Number(values.products ?? format.size);
  const cli = values.cli ?? builtCli();
  const dir = values.keep ?? await mkdtemp(join(tmpdir(), 'drugref-ingest-large-'));
  await mkdir(dir, { recursive: true });
  try {
    const release = await format.write(dir, n);
    const env = {
      ...process.env, LOG_LEVEL: 'silent', DEMO: 'false',
      ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : { DATA_DIR: join(dir, 'data') }),
    };
    console.log(`${release.label} (${values['database-url'] ? 'PostgreSQL' : 'embedded PGlite'})`);
    const runs = ['first ingest (all inserts)', 'second ingest (unchanged)'].slice(0, values['first-only'] ? 1 : 2);
    for (const run of runs) {
      const r = timedIngest(env, cli, release);
      console.log(`${run}: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU, peak RSS ${r.rssMiB} MiB`);
      if (run.startsWith('first')) console.log(r.files.join('\n'));
    }
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
