/**
 * ValueSet/$expand of the ATC implicit value set (`http://www.whocc.no/atc?fhir_vs`): the
 * WHO tree searched the way the /v1/drugs typeahead reads `q`. A code-shaped filter is
 * tried first as a code or class prefix (`M01AE` → the class and its substances, in code
 * order); when it matches no code, or is no code, the filter's words are matched against
 * the names: names starting with the filter first, then names with a word starting with
 * its first word, then the rest containing every word. One statement, with the total.
 */
import type { Queryable } from '../../platform/db.ts';
import { escapeLike } from '../catalogue/search.ts';

/** A level-1 to level-5 ATC code or a prefix of one (N, N02, N02B, N02BE, N02BE0, N02BE01). */
const ATC_PREFIX = /^[A-Z](\d{1,2}([A-Z]{1,2}\d{0,2})?)?$/;

export interface AtcMatch {
  code: string;
  name: string;
}

export interface AtcExpansion {
  total: number;
  matches: AtcMatch[];
}

interface Row extends AtcMatch {
  total: number;
}

const BY_CODE = `SELECT code, name, count(*) OVER ()::int AS total FROM atc_nodes
  WHERE code LIKE $1 || '%' ORDER BY code LIMIT $2 OFFSET $3`;

// $1 every word as a LIKE pattern, $2 the whole filter's prefix pattern, $3 the first word's.
const BY_NAME = `SELECT code, name, count(*) OVER ()::int AS total FROM atc_nodes
  WHERE lower(name) LIKE ALL ($1::text[])
  ORDER BY CASE WHEN lower(name) LIKE $2 THEN 0 WHEN ' ' || lower(name) LIKE $3 THEN 1 ELSE 2 END,
           lower(name), code
  LIMIT $4 OFFSET $5`;

function expansion(rows: Row[]): AtcExpansion {
  return { total: rows[0]?.total ?? 0, matches: rows.map(({ code, name }) => ({ code, name })) };
}

/** One page of ATC nodes matching `filter`, with how many match in all. */
export async function expandAtc(db: Queryable, filter: string, count: number, offset: number): Promise<AtcExpansion> {
  const code = filter.toUpperCase();
  if (ATC_PREFIX.test(code)) {
    const byCode = await db.query<Row>(BY_CODE, [code, count, offset]);
    if (byCode.rows.length) return expansion(byCode.rows);
    // An empty page past the end of a code's matches stays that code's page, not a name search.
    if (offset > 0) {
      const { rows } = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM atc_nodes WHERE code LIKE $1 || '%'`, [code]);
      if (rows[0]!.total > 0) return { total: rows[0]!.total, matches: [] };
    }
  }
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean).map(escapeLike);
  const { rows } = await db.query<Row>(BY_NAME, [
    words.map((w) => `%${w}%`), `${words.join(' ')}%`, `% ${words[0]}%`, count, offset,
  ]);
  return expansion(rows);
}
