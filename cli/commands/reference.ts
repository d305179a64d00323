/**
 * `drugref reference interactions <file...> [--licensed]` and `drugref reference fx <file>`:
 * load the service's own reference tables — an interaction data set (the service's
 * "drugref-interactions/1" JSON, EPha's matrix CSV or DDInter's CSVs, recognised by their
 * header; docs/interactions.md) or ECB reference rates (docs/markets.md) — in one transaction
 * each. Rows of a published CSV that cannot be used are listed as `file:line: message` and
 * skipped; a refused file exits 1 and writes nothing.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../platform/config.ts';
import { FxFileError, loadFxFile } from '../../resolvers/markets/fx-file.ts';
import { InteractionFileError, loadInteractionFiles } from '../../workers/ingest/interactions.ts';
import type { InteractionSetReport } from '../../workers/ingest/interactions.ts';
import { openConfiguredDatabase } from '../database.ts';
import { formatProblems } from '../ingest-output.ts';
import type { Command } from './types.ts';

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

async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { licensed: { type: 'boolean' } } });
  } catch {
    parsed = null;
  }
  const [kind, ...paths] = parsed?.positionals ?? [];
  const valid = parsed !== null && paths.length > 0
    && ((kind === 'interactions') || (kind === 'fx' && paths.length === 1 && !parsed.values.licensed));
  if (!valid) {
    err(`usage: drugref ${referenceCommand.usage}`);
    return 2;
  }
  const db = await openConfiguredDatabase(loadConfig());
  try {
    if (kind === 'interactions') {
      reportInteractions(await loadInteractionFiles(db, paths, { licensed: parsed!.values.licensed ?? false }));
    } else {
      const r = await loadFxFile(db, paths[0]!);
      out(`Loaded ${r.rates} reference rates for ${r.dates.length} date(s), newest ${r.dates.at(-1)}.`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof InteractionFileError) && !(error instanceof FxFileError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    err(`drugref reference: file rejected, nothing was written: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

export const referenceCommand: Command = {
  usage: 'reference interactions <file...> [--licensed] | fx <file>   load an interaction data set (drugref-interactions/1 JSON, EPha matrix CSV, DDInter CSVs) or ECB reference rates (eurofxref CSV)',
  run,
};
