/**
 * Therapeutic classes on every axis (atc, epc, moa, pe, cs, mesh_pa) with their rollup of
 * drug, substance and market counts (GET /v1/classes). One statement computes the rollup:
 * ATC counts expand each product's and substance's code to its five prefixes, so a
 * level-2 class counts its whole subtree; the other axes count products the register
 * puts in the class directly plus the spec's walk class → substances → ATC codes → drugs.
 * Substances are counted by active moiety, so a salt does not count twice.
 */
import type { Queryable } from '../../platform/db.ts';
import { fetchPage } from './paging.ts';
import type { Page } from './paging.ts';

export const CLASS_SORTS = ['drugs', 'markets', 'code', 'label'] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

export interface ClassSummary {
  system: string;
  code: string;
  label: string;
  level: number | null;
  drugCount: number;
  substanceCount: number;
  marketCount: number;
  source: string;
}

export interface ClassFilter {
  system: string | null;
  q: string | null;
  level: number | null;
  minDrugs: number | null;
  market: string | null;
  /** Restrict to one class (the single-class read). */
  code: string | null;
}

/** Whitelisted ORDER BY clauses: the sort parameter never reaches the SQL text. */
const ORDER_BY: Record<ClassSort, string> = {
  drugs: 'drug_count DESC, system, code',
  markets: 'market_count DESC, drug_count DESC, system, code',
  code: 'system, code',
  label: 'lower(label), system, code',
};

const LEVELS = `unnest('{1,3,4,5,7}'::int[])`;

/**
 * $1 system, $2 code; the rollup rows of every class, or of one when $2 is given.
 * Products are counted once per (ATC code, country) in `by_code`, a single pass over
 * `products`; every rollup then sums those groups, because a product has one ATC code and
 * distinct codes are disjoint product sets. Expanding each product to its five prefixes
 * instead would aggregate five rows per product on every request.
 */
const ROLLUP = `
  cls_codes AS (
    SELECT DISTINCT sc.system, sc.code, a AS atc
      FROM substance_classes sc JOIN substances s ON s.unii = sc.unii CROSS JOIN unnest(s.atc_codes) AS a
     WHERE ($1::text IS NULL OR sc.system = $1) AND ($2::text IS NULL OR sc.code = $2)),
  by_code AS (
    SELECT p.atc_code AS code, p.country, count(*)::int AS n FROM products p
     WHERE p.atc_code IS NOT NULL AND p.searchable
       AND ($2::text IS NULL OR ($1 = 'atc' AND p.atc_code LIKE $2 || '%') OR ($1 <> 'atc' AND p.atc_code IN (SELECT atc FROM cls_codes)))
     GROUP BY 1, 2),
  atc_p AS (
    SELECT left(b.code, l) AS code, sum(b.n)::int AS drugs, count(DISTINCT b.country)::int AS markets,
           array_agg(DISTINCT b.country) AS countries
      FROM by_code b CROSS JOIN ${LEVELS} AS l
     WHERE ($1::text IS NULL OR $1 = 'atc') AND length(b.code) >= l AND ($2::text IS NULL OR left(b.code, l) = $2)
     GROUP BY 1),
  atc_s AS (
    SELECT left(a, l) AS code, count(DISTINCT s.moiety_unii) AS substances
      FROM substances s CROSS JOIN unnest(s.atc_codes) AS a CROSS JOIN ${LEVELS} AS l
     WHERE ($1::text IS NULL OR $1 = 'atc') AND length(a) >= l AND ($2::text IS NULL OR left(a, l) = $2)
     GROUP BY 1),
  -- Non-ATC axes: products reached through the class's substances' ATC codes, plus products
  -- the register puts in the class directly whose code is not already among those.
  cls_groups AS (
    SELECT cc.system, cc.code, b.country, b.n FROM cls_codes cc JOIN by_code b ON b.code = cc.atc
    UNION ALL
    SELECT pc.system, pc.code, p.country, 1 FROM product_classes pc JOIN products p ON p.id = pc.product_id
     WHERE ($1::text IS NULL OR pc.system = $1) AND ($2::text IS NULL OR pc.code = $2) AND p.searchable
       AND NOT EXISTS (SELECT 1 FROM cls_codes cc WHERE cc.system = pc.system AND cc.code = pc.code AND cc.atc = p.atc_code)),
  cls_pa AS (
    SELECT system, code, sum(n)::int AS drugs, count(DISTINCT country)::int AS markets, array_agg(DISTINCT country) AS countries
      FROM cls_groups GROUP BY 1, 2),
  cls_s AS (
    SELECT sc.system, sc.code, count(DISTINCT s.moiety_unii) AS substances
      FROM substance_classes sc JOIN substances s ON s.unii = sc.unii
     WHERE ($1::text IS NULL OR sc.system = $1) AND ($2::text IS NULL OR sc.code = $2) GROUP BY 1, 2),
  rollup AS (
    SELECT 'atc' AS system, n.code, n.name AS label, n.level::int AS level, n.source,
           coalesce(ap.drugs, 0)::int AS drug_count, coalesce(ats.substances, 0)::int AS substance_count,
           coalesce(ap.markets, 0)::int AS market_count, coalesce(ap.countries, '{}') AS countries
      FROM atc_nodes n LEFT JOIN atc_p ap ON ap.code = n.code LEFT JOIN atc_s ats ON ats.code = n.code
     WHERE ($1::text IS NULL OR $1 = 'atc') AND ($2::text IS NULL OR n.code = $2)
    UNION ALL
    SELECT c.system, c.code, c.label, NULL, c.source,
           coalesce(cp.drugs, 0)::int, coalesce(cs.substances, 0)::int, coalesce(cp.markets, 0)::int, coalesce(cp.countries, '{}')
      FROM classes c LEFT JOIN cls_pa cp ON cp.system = c.system AND cp.code = c.code
      LEFT JOIN cls_s cs ON cs.system = c.system AND cs.code = c.code
     WHERE ($1::text IS NULL OR c.system = $1) AND ($2::text IS NULL OR c.code = $2))`;

/** $3 q substring / code prefix, $4 level, $5 min drugs, $6 market. */
const FILTER = `
  WHERE ($3::text IS NULL OR lower(label) LIKE '%' || $3 || '%' OR upper(code) LIKE upper($3) || '%')
    AND ($4::int IS NULL OR level = $4)
    AND ($5::int IS NULL OR drug_count >= $5)
    AND ($6::text IS NULL OR $6 = ANY(countries))`;

interface Row {
  system: string;
  code: string;
  label: string;
  level: number | null;
  source: string;
  drug_count: number;
  substance_count: number;
  market_count: number;
  total: string;
}

function toSummary(r: Row): ClassSummary {
  return {
    system: r.system, code: r.code, label: r.label, level: r.level, source: r.source,
    drugCount: r.drug_count, substanceCount: r.substance_count, marketCount: r.market_count,
  };
}

/** `LIKE` text with wildcards escaped, lower-cased for the label match. */
function likeText(q: string | null): string | null {
  return q ? q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) : null;
}

/** One page of classes with rollups; 422 when the offset is past the end. */
export async function listClasses(db: Queryable, filter: ClassFilter, sort: ClassSort, limit: number, offset: number): Promise<Page<ClassSummary>> {
  const params = [filter.system, filter.code, likeText(filter.q), filter.level, filter.minDrugs, filter.market];
  const { total, rows } = await fetchPage<Row>(
    db,
    `WITH ${ROLLUP} SELECT *, count(*) OVER () AS total FROM rollup ${FILTER} ORDER BY ${ORDER_BY[sort]} LIMIT $7 OFFSET $8`,
    `WITH ${ROLLUP} SELECT count(*) AS total FROM rollup ${FILTER}`,
    params,
    limit,
    offset,
  );
  return { total, limit, offset, results: rows.map(toSummary) };
}

/** One class with its rollup, or null when the axis has no such code. */
export async function classSummary(db: Queryable, system: string, code: string): Promise<ClassSummary | null> {
  const page = await listClasses(db, { system, code, q: null, level: null, minDrugs: null, market: null }, 'code', 1, 0);
  return page.results[0] ?? null;
}
