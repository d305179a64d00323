/**
 * `drugref reference interactions <file...> [--licensed]`, `drugref reference fx <file>` and `drugref reference lasa <file>`:
 * load the service's own reference tables — an interaction data set (the service's
 * "drugref-interactions/1" JSON, EPha's matrix CSV or DDInter's CSVs, recognised by their
 * header; docs/interactions.md) or ECB reference rates (docs/markets.md) — in one transaction
 * each. Rows of a published CSV that cannot be used are listed as `file:line: message` and
 * skipped; a refused file exits 1 and writes nothing.
 */
import { loadConfig } from '../../platform/config.ts';
import { FxFileError, loadFxFile } from '../../resolvers/markets/fx-file.ts';
import { InteractionFileError, loadInteractionFiles } from '../../workers/ingest/interactions.ts';
import { LasaFileError, loadLasaFile } from '../../workers/ingest/lasa-file.ts';
import { refreshLasa } from '../../resolvers/catalogue/lasa-refresh.ts';
import type { InteractionSetReport } from '../../workers/ingest/interactions.ts';
import { openConfiguredDatabase } from '../database.ts';
import { formatProblems } from '../ingest-output.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function reportInteractions(r: InteractionSetReport): void {
  if (r.problems.length > 0) {
    err(`${r.problems.length} row(s) skipped:`);
    formatProblems(r.problems).forEach((line) => err(`  ${line}`));
  }
  if (r.rows) out(`Read ${r.rows.read} ${r.format} rows: ${r.rows.rules} rules, ${r.rows.merged} folded into another row's rule (the other direction of a pair).`);
  out(`Loaded interactions into source ${r.source}: open ${r.open.insert} new, ${r.open.update} changed, ${r.open.delete} removed; `
    + `licensed ${r.licensed.insert} new, ${r.licensed.update} changed, ${r.licensed.delete} removed (${r.changes} change records).`);
}

async function withFileErrors(run: (db: Awaited<ReturnType<typeof openConfiguredDatabase>>) => Promise<void>): Promise<number> {
  const db = await openConfiguredDatabase(loadConfig());
  try {
    await run(db);
    return 0;
  } catch (error) {
    if (!(error instanceof InteractionFileError) && !(error instanceof FxFileError) && !(error instanceof LasaFileError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    err(`drugref reference: file rejected, nothing was written: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

/** `reference interactions <file...> [--licensed]`. */
export function loadInteractions(paths: string[], licensed: boolean): Promise<number> {
  return withFileErrors(async (db) => reportInteractions(await loadInteractionFiles(db, paths, { licensed })));
}

/** `reference fx <file>`. */
export function loadFx(path: string): Promise<number> {
  return withFileErrors(async (db) => {
    const r = await loadFxFile(db, path);
    out(`Loaded ${r.rates} reference rates for ${r.dates.length} date(s), newest ${r.dates.at(-1)}.`);
  });
}

/**
 * `reference lasa <file>`: a curated confused-names list (docs/catalogue.md "LASA"), then the
 * computed look-alike pairs of every country whose catalogue changed since they were computed.
 */
export function loadLasa(path: string): Promise<number> {
  return withFileErrors(async (db) => {
    const r = await loadLasaFile(db, path);
    if (r.problems.length > 0) {
      err(`${r.problems.length} row(s) skipped:`);
      formatProblems(r.problems).forEach((line) => err(`  ${line}`));
    }
    out(`Loaded look-alike pairs of ${r.sources.join(', ')} from ${r.read} rows: ${r.inserted} new, ${r.updated} changed, ${r.removed} removed, ${r.unchanged} unchanged.`);
    const refreshed = await refreshLasa(db);
    out(refreshed.length
      ? `Computed look-alike pairs: ${refreshed.map((c) => `${c.country} ${c.pairs} pairs among ${c.names} names`).join('; ')}.`
      : 'Computed look-alike pairs were up to date.');
  });
}
