/** `drugref upstream-cache stats|prune`: inspect and trim the enrichment response cache. */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../platform/config.ts';
import { cacheSummary, pruneCache } from '../../platform/upstream/cache.ts';
import { HTTP_SOURCES, LOCAL_SOURCES } from '../../platform/upstream/sources.ts';
import { openConfiguredDatabase } from '../database.ts';
import type { Command } from './types.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const SOURCES: readonly string[] = [...HTTP_SOURCES, ...LOCAL_SOURCES];

async function run(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'stats' && action !== 'prune') throw new Error(`usage: drugref ${upstreamCacheCommand.usage}`);
  const { values } = parseArgs({ args: rest, options: { 'older-than-days': { type: 'string' }, source: { type: 'string' } } });
  if (values.source && !SOURCES.includes(values.source)) throw new Error(`--source must be one of ${SOURCES.join(', ')}`);
  const db = await openConfiguredDatabase(loadConfig());
  try {
    if (action === 'stats') {
      const rows = await cacheSummary(db);
      if (!rows.length) out('The upstream cache is empty.');
      for (const r of rows) out(`${r.source.padEnd(12)} ${String(r.rows).padStart(7)} rows  oldest ${r.oldest.toISOString()}  newest ${r.newest.toISOString()}`);
      return 0;
    }
    const days = Number(values['older-than-days']);
    if (!Number.isInteger(days) || days < 0) throw new Error('--older-than-days must be an integer >= 0');
    const removed = await pruneCache(db, new Date(Date.now() - days * 86_400_000), values.source);
    out(`Removed ${removed} cached answer(s) fetched more than ${days} day(s) ago${values.source ? ` from ${values.source}` : ''}.`);
    return 0;
  } finally {
    await db.close();
  }
}

export const upstreamCacheCommand: Command = {
  usage: 'upstream-cache stats | prune --older-than-days <n> [--source <id>]',
  run,
};
