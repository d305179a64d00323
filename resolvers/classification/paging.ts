/**
 * Offset pagination where the spec names `offset` (ATC and class drug lists, the class
 * list). An offset past the last row is refused with a 422 that says so (spec, Errors
 * rule 1) instead of an empty page that looks like "no data".
 */
import type { Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';

export interface Page<T> {
  total: number;
  limit: number;
  offset: number;
  results: T[];
}

/** The 422 for an offset at or past the end of a result set of `total` rows. */
export function offsetBeyondEnd(offset: number, total: number) {
  return validationError(`Invalid request: offset ${offset} is beyond the end of the result set (${total} result${total === 1 ? '' : 's'}).`, [
    { location: 'query', field: 'offset', message: `is beyond the end of the result set (${total})` },
  ]);
}

/**
 * Runs a page query whose rows carry `total` (a `count(*) OVER ()` column). An empty page
 * at offset > 0 runs `countSql` once to tell "past the end" from "nothing matched".
 */
export async function fetchPage<R extends { total: string | number }>(
  db: Queryable,
  pageSql: string,
  countSql: string,
  params: unknown[],
  limit: number,
  offset: number,
): Promise<{ total: number; rows: R[] }> {
  const { rows } = await db.query<R>(pageSql, [...params, limit, offset]);
  if (rows.length) return { total: Number(rows[0]!.total), rows };
  if (offset === 0) return { total: 0, rows };
  const counted = await db.query<{ total: string }>(countSql, params);
  throw offsetBeyondEnd(offset, Number(counted.rows[0]?.total ?? 0));
}
