/**
 * The database side of the upstream cache: one row per source and normalised request.
 * Kept apart from the HTTP client so curated local sources share it unchanged.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db.ts';

/** One cached upstream answer. */
export interface CachedAnswer {
  status: number;
  body: unknown;
  fetchedAt: Date;
}

/**
 * The cache key of a request: method, path, query parameters sorted by name with
 * trimmed values, and a hash of the body. Two requests that differ only in parameter
 * order or spacing share one row.
 */
export function cacheKey(method: string, path: string, query: Record<string, string | number | undefined> = {}, body?: unknown): string {
  const params = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => [k, String(v).trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const digest = body === undefined ? '' : ` #${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}`;
  return `${method.toUpperCase()} ${path}${params ? `?${params}` : ''}${digest}`;
}

/** The cached answer of one source and key, fresh or not; null when never cached. */
export async function readCache(db: Queryable, source: string, key: string): Promise<CachedAnswer | null> {
  const { rows } = await db.query<{ status: number; body: unknown; fetched_at: Date }>(
    'SELECT status, body, fetched_at FROM upstream_cache WHERE source = $1 AND cache_key = $2',
    [source, key],
  );
  const row = rows[0];
  return row ? { status: row.status, body: row.body, fetchedAt: new Date(row.fetched_at) } : null;
}

/** Stores (or replaces) the answer of one source and key. */
export async function writeCache(db: Queryable, source: string, key: string, answer: CachedAnswer): Promise<void> {
  await db.query(
    `INSERT INTO upstream_cache (source, cache_key, status, body, fetched_at) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (source, cache_key) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, fetched_at = EXCLUDED.fetched_at`,
    [source, key, answer.status, JSON.stringify(answer.body ?? null), answer.fetchedAt],
  );
}

/** Rows, oldest and newest fetch per source: what `drugref upstream-cache stats` prints. */
export async function cacheSummary(db: Queryable): Promise<Array<{ source: string; rows: number; oldest: Date; newest: Date }>> {
  const { rows } = await db.query<{ source: string; rows: number; oldest: Date; newest: Date }>(
    'SELECT source, count(*)::int AS rows, min(fetched_at) AS oldest, max(fetched_at) AS newest FROM upstream_cache GROUP BY source ORDER BY source',
  );
  return rows.map((r) => ({ ...r, oldest: new Date(r.oldest), newest: new Date(r.newest) }));
}

/**
 * Deletes rows fetched before `before` (of one source, or all). Rows past their TTL are
 * kept by default because they are the `stale` fallback; pruning is an operator's choice.
 */
export async function pruneCache(db: Queryable, before: Date, source?: string): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM upstream_cache WHERE fetched_at < $1 AND ($2::text IS NULL OR source = $2)',
    [before, source ?? null],
  );
  return rowCount;
}
