/**
 * Register sources as they appear in every `_meta.sources` block: the stored row plus
 * `schema_state`, derived at read time from `last_synced_at` and the refresh interval.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';

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

const SOURCE_COLUMNS = 'id, name, country, last_synced_at, refresh_interval_hours, demo';

export const DEMO_NOTICE = 'Demonstration data, not for clinical use.';

function toStatus(row: SourceRow, now: Date): SourceStatus {
  let schemaState: SourceStatus['schemaState'] = 'never_run';
  if (row.last_synced_at) {
    const ageHours = (now.getTime() - row.last_synced_at.getTime()) / 3_600_000;
    schemaState = ageHours > row.refresh_interval_hours ? 'stale' : 'ok';
  }
  return { id: row.id, name: row.name, country: row.country, lastSyncedAt: row.last_synced_at, schemaState, demo: row.demo };
}

/** Per-request loader of source status by id (null for an unknown id). */
export function createSourceLoader(db: Queryable, now: () => Date): DataLoader<string, SourceStatus | null> {
  return new DataLoader(async (ids) => {
    const { rows } = await db.query<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE id = ANY($1)`, [ids]);
    const byId = new Map(rows.map((r) => [r.id, toStatus(r, now())]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

export async function listSources(db: Queryable, now: Date): Promise<SourceStatus[]> {
  const { rows } = await db.query<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM sources ORDER BY id`);
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
