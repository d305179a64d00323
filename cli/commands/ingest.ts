/**
 * `drugref ingest <adapter> <file...> [--strict]`: parse register files with a source adapter
 * and load the snapshot through the ingest engine in one transaction.
 *
 * Malformed rows are reported as `file:line: message` and skipped; with `--strict` any
 * malformed row rejects the whole ingest instead. A file whose structure is wrong (header,
 * root element, encoding of the envelope) is always rejected. Either way a rejected ingest
 * exits 1 and writes nothing.
 */
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../../platform/config.ts';
import { boundHeapGrowth } from '../../platform/heap-growth.ts';
import { ADAPTERS, findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/index.ts';
import { fileInput } from '../../workers/ingest/adapters/line-stream.ts';
import { parseAndIngest } from '../../workers/ingest/apply.ts';
import type { ApplyResult } from '../../workers/ingest/apply.ts';
import { openConfiguredDatabase } from '../database.ts';
import { formatFiles, formatProblems, formatReport, progressBar } from '../ingest-output.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** One line per adapter: id and description (for `drugref ingest --help` and usage errors). */
export function adapterList(): string {
  const width = Math.max(...ADAPTERS.map((a) => a.id.length));
  return ADAPTERS.map((a) => `  ${a.id.padEnd(width)}  ${a.description}`).join('\n');
}

/**
 * The files as paths: a streaming adapter reads them in blocks, the others load them whole on
 * first use. A folder stands for the files in it (a release as published: the adapter tells
 * its members apart by content and names the ones it does not read).
 */
export async function readInputs(paths: string[]): Promise<InputFile[]> {
  // A missing or unreadable file fails here, before the database is opened, as when files were read up front.
  await Promise.all(paths.map((path) => access(path, constants.R_OK)));
  const expanded = await Promise.all(paths.map(async (path) => {
    if (!(await stat(path)).isDirectory()) return [path];
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => join(path, e.name)).sort();
  }));
  return expanded.flat().map((path) => fileInput(path));
}

/** `ingest <adapter> <file...> [--strict]`; an unknown adapter is named, with the list (exit 2). */
export async function ingest(adapterId: string, paths: string[], values: { strict: boolean; allowShrink?: boolean }): Promise<number> {
  const adapter = findAdapter(adapterId);
  if (!adapter) {
    err(`drugref ingest: unknown adapter "${adapterId}"; adapters:\n${adapterList()}`);
    return 2;
  }
  const inputs = await readInputs(paths);
  const config = loadConfig();
  boundHeapGrowth(config.sync.heapGrowthPercent);
  const db = await openConfiguredDatabase(config);
  const bar = progressBar();
  try {
    const result = await parseAndIngest(db, adapter.id, inputs, {
      strict: values.strict, shrink: values.allowShrink ? null : config.sync.shrink, ...(bar.onProgress ? { onProgress: bar.onProgress } : {}),
    });
    bar.stop();
    report(adapter.id, result);
    return result.outcome === 'ok' ? 0 : 1;
  } catch (error) {
    bar.stop();
    // The transaction rolled back whatever failed (a lost connection, a violated constraint).
    err(`drugref ingest: ingest failed, nothing was written: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

/** Files with their roles and counts, then malformed rows, then the outcome. */
function report(adapterId: string, result: ApplyResult): void {
  if (result.files.length > 0) {
    out(`Read ${result.files.length} file(s) with ${adapterId}:`);
    formatFiles(result.files).forEach(out);
  }
  if (result.problems.length > 0) {
    const verdict = result.outcome === 'ok' ? 'skipped' : 'rejected (--strict), nothing was written';
    err(`${result.problems.length} malformed row(s) ${verdict}:`);
    formatProblems(result.problems).forEach((line) => err(`  ${line}`));
  }
  if (result.outcome === 'refused') {
    err(`drugref ingest: ${result.reason}; nothing was written`);
    return;
  }
  out(`Ingested ${adapterId} into source ${result.report.sources.join(', ')}:`);
  formatReport(result.report).forEach(out);
}
