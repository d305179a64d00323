/**
 * Single-class reads and class member drugs (GET /v1/classes/{system}/{code}[/drugs],
 * GET /v1/atc/{code}/drugs). ATC membership is a prefix scan of product codes (the
 * subtree); the other axes walk class → substances → ATC codes → drugs, plus products the
 * register assigns to the class directly (FDA PHARM_CLASSES).
 */
import type { Queryable } from '../../platform/db.ts';
import { PRODUCT_COLUMNS, toDrug } from '../catalogue/drug-rows.ts';
import type { DrugRow, ProductRecord } from '../catalogue/drug-rows.ts';
import { escapeLike } from '../catalogue/search.ts';
import { fetchPage } from './paging.ts';
import type { Page } from './paging.ts';

/** Member substances listed on a single-class read. */
export const SAMPLE_SUBSTANCES = 10;
/** Related classes listed on a single-class read. */
export const RELATED_CLASSES = 20;

export interface SubstanceRef {
  unii: string;
  name: string;
}

export interface RelatedClass {
  system: string;
  code: string;
  label: string;
  sharedSubstances: number;
}

/**
 * Active moieties of a class: for ATC, substances with a code in the subtree; for the
 * other axes, substances the class lists. Salts fold to their moiety.
 */
export async function classMembers(db: Queryable, system: string, code: string): Promise<SubstanceRef[]> {
  const { rows } = await db.query<SubstanceRef>(
    `SELECT DISTINCT m.unii, m.name FROM substances s JOIN substances m ON m.unii = s.moiety_unii
      WHERE ($1 = 'atc' AND EXISTS (SELECT 1 FROM unnest(s.atc_codes) AS a WHERE a LIKE $3))
         OR ($1 <> 'atc' AND EXISTS (SELECT 1 FROM substance_classes sc WHERE sc.unii = s.unii AND sc.system = $1 AND sc.code = $2))
      ORDER BY m.name, m.unii`,
    [system, code, `${escapeLike(code)}%`],
  );
  return rows;
}

/**
 * Classes on other axes that share member substances (moieties or their salts), most
 * shared first. For a non-ATC class the members' level-5 ATC codes count as the ATC axis.
 */
export async function relatedClasses(db: Queryable, system: string, moieties: string[]): Promise<RelatedClass[]> {
  const { rows } = await db.query<RelatedClass>(
    `WITH members AS (SELECT s.unii, s.moiety_unii, s.atc_codes FROM substances s WHERE s.moiety_unii = ANY($2)),
     shared AS (
       SELECT sc.system, sc.code, count(DISTINCT m.moiety_unii)::int AS n FROM members m JOIN substance_classes sc ON sc.unii = m.unii
        WHERE sc.system <> $1 GROUP BY 1, 2
       UNION ALL
       SELECT 'atc', a, count(DISTINCT m.moiety_unii)::int FROM members m CROSS JOIN unnest(m.atc_codes) AS a
        WHERE $1 <> 'atc' GROUP BY 2)
     SELECT sh.system, sh.code, coalesce(c.label, n.name, sh.code) AS label, sh.n AS "sharedSubstances" FROM shared sh
       LEFT JOIN classes c ON c.system = sh.system AND c.code = sh.code
       LEFT JOIN atc_nodes n ON sh.system = 'atc' AND n.code = sh.code
      ORDER BY sh.n DESC, sh.system, sh.code LIMIT $3`,
    [system, moieties, RELATED_CLASSES],
  );
  return rows;
}

type DrugPageRow = ProductRecord & { total: string };

/** Member drugs of a class, one page; `country` null means every jurisdiction. */
export async function classDrugs(
  db: Queryable,
  system: string,
  code: string,
  country: string | null,
  limit: number,
  offset: number,
): Promise<Page<DrugRow>> {
  const members = system === 'atc'
    ? `SELECT p.id FROM products p WHERE p.atc_code LIKE $1 || '%' AND $2::text IS NOT NULL`
    : `SELECT pc.product_id AS id FROM product_classes pc WHERE pc.system = $2 AND pc.code = $1
       UNION
       SELECT p.id FROM substance_classes sc JOIN substances s ON s.unii = sc.unii
         CROSS JOIN unnest(s.atc_codes) AS a JOIN products p ON p.atc_code = a
        WHERE sc.system = $2 AND sc.code = $1`;
  const from = `FROM (${members}) ids JOIN products p ON p.id = ids.id WHERE p.searchable AND ($3::text IS NULL OR p.country = $3)`;
  const { total, rows } = await fetchPage<DrugPageRow>(
    db,
    `SELECT ${PRODUCT_COLUMNS}, count(*) OVER () AS total ${from}
      ORDER BY p.atc_code, lower(p.product_name), p.id LIMIT $4 OFFSET $5`,
    `SELECT count(*) AS total ${from}`,
    [system === 'atc' ? escapeLike(code) : code, system, country],
    limit,
    offset,
  );
  return { total, limit, offset, results: rows.map(toDrug) };
}
