/**
 * Curated local sources (guidelines, HTA, signatures): JSON files under data/curated/
 * (or the folder a `file:` URL in UPSTREAM_<SOURCE>_URL names), read and answered
 * through the same cache as the HTTP upstreams, so they carry the same
 * `x-service-cache` semantics: `live` when computed from the file now, `db` from a fresh
 * cached answer, `stale` when the file cannot be read and an older answer exists.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { noteCache } from '../../platform/upstream/client.ts';
import type { LocalSourceId } from '../../platform/upstream/sources.ts';
import type { RequestContext } from '../context.ts';
import { upstreamOf } from './upstream.ts';

const BUNDLED = new URL('../../data/curated/', import.meta.url);

/** A curated file: its format tag, a demonstration flag, a notice and the records. */
export interface CuratedFile<T> {
  format: string;
  /** The data set's display name, when the file gives one. */
  name: string | null;
  demo: boolean;
  notice: string;
  records: T[];
}

/** Reads and checks one curated file; a wrong format tag is refused, not guessed at. */
export async function readCurated<T>(ctx: RequestContext, source: LocalSourceId, file: string, format: string): Promise<CuratedFile<T>> {
  const configured = upstreamOf(ctx).baseUrl(source);
  const dir = configured ? new URL(configured.endsWith('/') ? configured : `${configured}/`) : BUNDLED;
  const parsed = JSON.parse(await readFile(fileURLToPath(new URL(file, dir)), 'utf8')) as Partial<CuratedFile<T>>;
  if (parsed.format !== format || !Array.isArray(parsed.records)) throw new Error(`${file}: expected format ${format}`);
  return { format, name: parsed.name ?? null, demo: parsed.demo !== false, notice: parsed.notice ?? '', records: parsed.records };
}

/** Answers `key` of a curated source through the cache, computing it with `compute`. */
export async function curatedAnswer<T>(ctx: RequestContext, source: LocalSourceId, key: string, compute: () => Promise<T>): Promise<T> {
  const answer = await upstreamOf(ctx).cached<T>(source, key, async () => ({ status: 200, body: await compute() }));
  noteCache(ctx.response.headers, answer.cache);
  return answer.body;
}

/** Case-insensitive substring test; an absent filter matches everything. */
export function contains(haystack: string | null | undefined, needle: string | null | undefined): boolean {
  if (!needle) return true;
  return (haystack ?? '').toLowerCase().includes(needle.trim().toLowerCase());
}

/** The cache key of a filter: its set fields, sorted, values trimmed and lower-cased. */
export function filterKey(kind: string, filter: Record<string, string | number | null | undefined>): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${String(v).trim().toLowerCase()}`)
    .sort();
  return `${kind}?${parts.join('&')}`;
}
