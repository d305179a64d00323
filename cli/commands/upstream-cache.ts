/** `drugref upstream-cache stats|prune`: inspect and trim the enrichment response cache. */
import { loadConfig } from '../../platform/config.ts';
import { cacheSummary, pruneCache } from '../../platform/upstream/cache.ts';
import { HTTP_SOURCES, LOCAL_SOURCES } from '../../platform/upstream/sources.ts';
import { openConfiguredDatabase } from '../database.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const SOURCES: readonly string[] = [...HTTP_SOURCES, ...LOCAL_SOURCES];

/** `upstream-cache stats`. */
export async function stats(): Promise<number> {
  const db = await openConfiguredDatabase(loadConfig());
  try {
    const rows = await cacheSummary(db);
    if (!rows.length) out('The upstream cache is empty.');
    for (const r of rows) out(`${r.source.padEnd(12)} ${String(r.rows).padStart(7)} rows  oldest ${r.oldest.toISOString()}  newest ${r.newest.toISOString()}`);
    return 0;
  } finally {
    await db.close();
  }
}

/** `upstream-cache prune --older-than-days <n> [--source <id>]`; an unknown source is a usage error. */
export async function prune(days: number, source?: string): Promise<number> {
  if (source && !SOURCES.includes(source)) {
    process.stderr.write(`drugref: unknown source "${source}"; --source must be one of ${SOURCES.join(', ')}\n`);
    return 2;
  }
  const db = await openConfiguredDatabase(loadConfig());
  try {
    const removed = await pruneCache(db, new Date(Date.now() - days * 86_400_000), source);
    out(`Removed ${removed} cached answer(s) fetched more than ${days} day(s) ago${source ? ` from ${source}` : ''}.`);
    return 0;
  } finally {
    await db.close();
  }
}
