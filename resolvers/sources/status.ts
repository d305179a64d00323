/**
 * Register sources as they appear in every `_meta.sources` block: the stored row plus
 * `schema_state`, derived at read time (docs/api-decisions.md, "Register freshness"):
 * `never_run` before the first ingest, `ok` while the data was confirmed current within the
 * refresh interval, `stale` after. "Confirmed" is the newer of the last ingest
 * (`last_synced_at`) and the sync worker's last success, since a 304 from the publisher
 * proves the stored copy is still the current file without writing anything.
 */
import DataLoader from 'dataloader';
import type { Database, Queryable } from '../../platform/db.ts';
import { sourceCacheFor, sourceCacheSettled } from './cache.ts';

export interface SourceStatus {
  id: string;
  name: string;
  country: string | null;
  lastSyncedAt: Date | null;
  schemaState: 'ok' | 'stale' | 'never_run';
  demo: boolean;
}

interface SourceRow {
  id: string;
  name: string;
  country: string | null;
  last_synced_at: Date | null;
  refresh_interval_hours: number;
  demo: boolean;
}

/**
 * Catalogue sources with their sync confirmation folded in, plus the sources the sync worker
 * is configured for but has never ingested (they exist in `sync_state` only: `never_run`).
 */
const SOURCES_SQL = `
  SELECT s.id, s.name, s.country, greatest(s.last_synced_at, y.confirmed) AS last_synced_at, s.refresh_interval_hours, s.demo
    FROM sources s
    LEFT JOIN (SELECT catalogue_source, max(last_success_at) AS confirmed FROM sync_state GROUP BY catalogue_source) y ON y.catalogue_source = s.id
  UNION ALL
  SELECT y.catalogue_source, y.name, y.country, NULL, y.interval_hours, false
    FROM sync_state y
   WHERE y.enabled AND NOT EXISTS (SELECT 1 FROM sources s WHERE s.id = y.catalogue_source)`;

export const DEMO_NOTICE = 'Demonstration data, not for clinical use.';

/** The freshness state machine: never_run until confirmed once, then ok or stale by the age of the last confirmation. */
export function schemaStateOf(confirmedAt: Date | null, refreshIntervalHours: number, now: Date): SourceStatus['schemaState'] {
  if (!confirmedAt) return 'never_run';
  const ageHours = (now.getTime() - confirmedAt.getTime()) / 3_600_000;
  return ageHours > refreshIntervalHours ? 'stale' : 'ok';
}

function toStatus(row: SourceRow, now: Date): SourceStatus {
  const schemaState = schemaStateOf(row.last_synced_at, row.refresh_interval_hours, now);
  return { id: row.id, name: row.name, country: row.country, lastSyncedAt: row.last_synced_at, schemaState, demo: row.demo };
}

/** Every source row by id, one prepared statement (the table holds tens of rows). */
async function readSources(db: Queryable): Promise<Map<string, SourceRow>> {
  const { rows } = await db.query<SourceRow>(SOURCES_SQL, [], { prepare: true });
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Opens `db`'s sources cache and waits for its first attempt to LISTEN, so an app that
 * calls this at start serves `_meta.sources` from the cache from its first request on.
 */
export async function startSourceCache(db: Database): Promise<void> {
  sourceCacheFor(db, () => readSources(db));
  await sourceCacheSettled(db);
}

/**
 * Per-request loader of source status by id (null for an unknown id), served from the
 * process's source cache when the database can LISTEN (resolvers/sources/cache.ts).
 */
export function createSourceLoader(db: Queryable, now: () => Date): DataLoader<string, SourceStatus | null> {
  const cache = sourceCacheFor(db, () => readSources(db));
  return new DataLoader(async (ids) => {
    const rows = cache ? await cache.get() : await readSources(db);
    const at = now();
    return ids.map((id) => {
      const row = rows.get(id);
      return row ? toStatus(row, at) : null;
    });
  });
}

/**
 * Every source with its freshness, served from the process's source cache when the
 * database can LISTEN: the landing page shows it on each visit without a key, so it must
 * not cost a query per view. Sorted by id.
 */
export async function cachedSourceStatuses(db: Queryable, now: Date): Promise<SourceStatus[]> {
  const cache = sourceCacheFor(db, () => readSources(db));
  const rows = cache ? await cache.get() : await readSources(db);
  return [...rows.values()].sort((a, b) => a.id.localeCompare(b.id)).map((r) => toStatus(r, now));
}

export async function listSources(db: Queryable, now: Date): Promise<SourceStatus[]> {
  const { rows } = await db.query<SourceRow>(`SELECT * FROM (${SOURCES_SQL}) AS x ORDER BY id`);
  return rows.map((r) => toStatus(r, now));
}

/** The `_meta` block for a set of contributing source ids. */
export async function metaFor(
  loader: DataLoader<string, SourceStatus | null>,
  sourceIds: Iterable<string>,
): Promise<{ sources: SourceStatus[]; notice: string | null }> {
  const unique = [...new Set(sourceIds)].sort();
  const sources = (await loader.loadMany(unique)).filter((s): s is SourceStatus => s !== null && !(s instanceof Error));
  return { sources, notice: sources.some((s) => s.demo) ? DEMO_NOTICE : null };
}
