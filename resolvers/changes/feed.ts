/**
 * The pull feed (`changes` root field, GET /v1/changes): one keyset page after a cursor
 * or from `since`, never past the visibility horizon, with the cursor to continue from.
 */
import { ApiError, validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { purposeKey, rootKey } from './keyring.ts';
import { comparePositions, ISO_US, NIL_UUID, readChanges, visibilityHorizon } from './records.ts';
import type { ChangeRecord, Position } from './records.ts';

/** Page size when `limit` is omitted (spec: 100). */
export const DEFAULT_CHANGES_LIMIT = 100;
/** Largest page (spec: not shown): 1,000 rows keep one answer well under a megabyte of typical rows. */
export const MAX_CHANGES_LIMIT = 1000;

export interface ChangesArgs {
  since?: string | null;
  cursor?: string | null;
  limit?: number | null;
}

export interface ChangePage {
  changes: ChangeRecord[];
  nextCursor: string;
  hasMore: boolean;
}

// Date only, or date and time with seconds optional, fraction up to microseconds and a zone.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

export function checkArgs(args: ChangesArgs): { since: string | null; cursor: string | null; limit: number } {
  const limit = args.limit ?? DEFAULT_CHANGES_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHANGES_LIMIT) {
    throw validationError(`limit must be an integer from 1 to ${MAX_CHANGES_LIMIT}.`, [{ location: 'query', field: 'limit', message: `must be 1 to ${MAX_CHANGES_LIMIT}` }]);
  }
  const since = args.since ?? null;
  const cursor = args.cursor ?? null;
  if (since !== null && cursor !== null) {
    throw validationError('Pass either since or cursor, not both: a cursor already carries its position.', [{ location: 'query', field: 'cursor', message: 'cannot be combined with since' }]);
  }
  if (since !== null && (!TIMESTAMP.test(since) || Number.isNaN(Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since)))) {
    throw validationError('since must be an ISO 8601 date or timestamp with a zone, e.g. 2026-01-31T12:00:00Z.', [{ location: 'query', field: 'since', message: 'is not an ISO 8601 timestamp with a zone' }]);
  }
  return { since: since !== null && since.length === 10 ? `${since}T00:00:00Z` : since, cursor, limit };
}

/** The horizon and, when given, `since` in the canonical microsecond form. */
export async function bounds(ctx: RequestContext, since: string | null): Promise<{ horizon: string; since: string | null }> {
  const horizon = await visibilityHorizon(ctx.db);
  if (since === null) return { horizon, since: null };
  try {
    const { rows } = await ctx.db.query<{ since: string }>(`SELECT to_char($1::timestamptz AT TIME ZONE 'UTC', ${ISO_US}) AS since`, [since]);
    return { horizon, since: rows[0]!.since };
  } catch {
    throw validationError('since is not a valid timestamp.', [{ location: 'query', field: 'since', message: 'is not a valid date' }]);
  }
}

/** One page of the feed. */
export async function changesPage(ctx: RequestContext, args: ChangesArgs): Promise<ChangePage> {
  if (!ctx.principal) throw new ApiError('unauthorized');
  const { since, cursor, limit } = checkArgs(args);
  const key = purposeKey(await rootKey(ctx.config, ctx.db), 'changes-cursor');
  const decoded = cursor !== null ? decodeCursor(key, cursor) : null;
  const { horizon, since: sinceIso } = await bounds(ctx, since);
  // `since` is inclusive: the nil uuid sorts before every real id at that instant.
  const start: Position = decoded ?? { occurredAt: sinceIso ?? '-infinity', id: NIL_UUID };
  const rows = await readChanges(ctx.db, { after: start, horizon, limit: limit + 1 });
  const hasMore = rows.length > limit;
  const changes = rows.slice(0, limit);
  const last = changes.at(-1);
  // A short page has read everything below the horizon, so the next page may start there;
  // that keeps an idle poller from rescanning the same empty range.
  const reached: Position = last ?? start;
  const atHorizon: Position = { occurredAt: horizon, id: NIL_UUID };
  const next = hasMore || comparePositions(reached, atHorizon) > 0 ? reached : atHorizon;
  return { changes, hasMore, nextCursor: encodeCursor(key, { occurredAt: next.occurredAt, id: next.id }) };
}
