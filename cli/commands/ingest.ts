/**
 * `drugref ingest <adapter> <file...> [--strict]`: parse register files with a source adapter
 * and load the snapshot through the ingest engine in one transaction.
 *
 * Malformed rows are reported as `file:line: message` and skipped; with `--strict` any
 * malformed row rejects the whole ingest instead. A file whose structure is wrong (header,
 * root element, encoding of the envelope) is always rejected. Either way a rejected ingest
 * exits 1 and writes nothing.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../platform/config.ts';
import { ADAPTERS, FileRejectedError, findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/index.ts';
import { IngestError, ingestSnapshot } from '../../workers/ingest/engine.ts';
import { openConfiguredDatabase } from '../database.ts';
import { formatFiles, formatProblems, formatReport, progressBar } from '../ingest-output.ts';
import type { Command } from './types.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function adapterList(): string {
  return ADAPTERS.map((a) => `  ${a.id.padEnd(10)} ${a.description}`).join('\n');
}

async function readInputs(paths: string[]): Promise<InputFile[]> {
  return Promise.all(paths.map(async (path) => ({ name: path, content: await readFile(path) })));
}

async function ingest(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { strict: { type: 'boolean' } } });
  const [adapterId, ...paths] = positionals;
  const adapter = adapterId ? findAdapter(adapterId) : undefined;
  if (!adapter || paths.length === 0) {
    err(`usage: drugref ${ingestCommand.usage}\nadapters:\n${adapterList()}`);
    return 2;
  }
  let parsed;
  try {
    parsed = await adapter.parse(await readInputs(paths));
  } catch (error) {
    if (!(error instanceof FileRejectedError)) throw error;
    err(`drugref ingest: file rejected, nothing was written: ${error.message}`);
    return 1;
  }
  const { snapshot, problems, files } = parsed;
  if (files && files.length > 0) {
    out(`Read ${files.length} file(s) with ${adapter.id}:`);
    formatFiles(files).forEach(out);
  }
  if (problems.length > 0) {
    const verdict = values.strict ? 'rejected (--strict), nothing was written' : 'skipped';
    err(`${problems.length} malformed row(s) ${verdict}:`);
    formatProblems(problems).forEach((line) => err(`  ${line}`));
    if (values.strict) return 1;
  }
  const db = await openConfiguredDatabase(loadConfig());
  const bar = progressBar();
  try {
    const report = await ingestSnapshot(db, snapshot, bar.onProgress ? { onProgress: bar.onProgress } : {});
    bar.stop();
    out(`Ingested ${adapter.id} into source ${snapshot.source.id}:`);
    formatReport(report).forEach(out);
    return 0;
  } catch (error) {
    bar.stop();
    // The transaction rolled back: say so whatever failed (a refused snapshot or a violated constraint).
    const what = error instanceof IngestError ? 'snapshot rejected' : 'ingest failed';
    err(`drugref ingest: ${what}, nothing was written: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

export const ingestCommand: Command = {
  usage: 'ingest <adapter> <file...> [--strict]   load a register export (adapters: ' + ADAPTERS.map((a) => a.id).join(', ') + ')',
  run: ingest,
};
