/**
 * `drugref reference interactions <file>` and `drugref reference fx <file>`: load the
 * service's own reference tables — an interaction file ("drugref-interactions/1",
 * docs/interactions.md) or ECB reference rates (docs/markets.md) — in one transaction each.
 * A refused file exits 1 and writes nothing.
 */
import { loadConfig } from '../../platform/config.ts';
import { FxFileError, loadFxFile } from '../../resolvers/markets/fx-file.ts';
import { InteractionFileError, loadInteractionFile } from '../../workers/ingest/interactions.ts';
import { openConfiguredDatabase } from '../database.ts';
import type { Command } from './types.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function run(args: string[]): Promise<number> {
  const [kind, path] = args;
  if ((kind !== 'interactions' && kind !== 'fx') || !path || args.length !== 2) {
    err(`usage: drugref ${referenceCommand.usage}`);
    return 2;
  }
  const db = await openConfiguredDatabase(loadConfig());
  try {
    if (kind === 'interactions') {
      const r = await loadInteractionFile(db, path);
      out(`Loaded interactions into source ${r.source}: open ${r.open.insert} new, ${r.open.update} changed, ${r.open.delete} removed; `
        + `licensed ${r.licensed.insert} new, ${r.licensed.update} changed, ${r.licensed.delete} removed (${r.changes} change records).`);
    } else {
      const r = await loadFxFile(db, path);
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
  usage: 'reference interactions|fx <file>   load an interaction file (drugref-interactions/1) or ECB reference rates (eurofxref CSV)',
  run,
};
