/**
 * How many marketed packs of a class are short, per country (`include=supply` on
 * GET /v1/atc/{code} and GET /v1/classes/{system}/{code}; docs/supply.md "Classes"). A class's
 * products are those the class views count: an ATC subtree by prefix; on the other axes the
 * products reached through the class's substances' ATC codes and those the register puts in
 * the class directly. A pack counts as short when a publication reports it, or its product's
 * authorisation (a notice without pack code), limited, unavailable or discontinued; the worst
 * report decides. One statement per batch of classes (a DataLoader), only when asked.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { SUPPLY_STATUSES } from '../../vocabulary/supply.ts';
import { REPORTS_OF_PACK } from '../catalogue/supply-rows.ts';
import type { SupplyStatus } from '../../vocabulary/supply.ts';

export interface ClassSupplyCountry {
  country: string;
  /** Worst status reported on the class's packs in the country; null when none is reported. */
  status: SupplyStatus | null;
  /** Marketed packs of the class in the country. */
  packs: number;
  /** Of those, reported limited, unavailable or discontinued (their sum). */
  short: number;
  limited: number;
  unavailable: number;
  discontinued: number;
}

/** $1 systems, $2 codes (pairs): one row per class and country with marketed packs. */
export const CLASS_SUPPLY_SQL = `WITH q AS (SELECT DISTINCT system, code FROM unnest($1::text[], $2::text[]) AS q(system, code)),
  members AS (
    -- The range lets the text_pattern_ops index on atc_code serve a prefix taken from a row (LIKE alone cannot).
    SELECT q.system, q.code, p.id FROM q JOIN products p ON q.system = 'atc'
       AND p.atc_code ~>=~ q.code AND p.atc_code ~<~ (q.code || '~') AND p.atc_code LIKE q.code || '%'
    UNION
    SELECT q.system, q.code, p.id FROM q JOIN substance_classes sc ON q.system <> 'atc' AND sc.system = q.system AND sc.code = q.code
      JOIN substances s ON s.unii = sc.unii JOIN products p ON p.atc_code = ANY(s.atc_codes)
    UNION
    SELECT q.system, q.code, pc.product_id FROM q JOIN product_classes pc ON q.system <> 'atc' AND pc.system = q.system AND pc.code = q.code),
  marketed AS (
    SELECT m.system, m.code, p.country,
           (SELECT max(supply_severity(r.status)) FROM (${REPORTS_OF_PACK}) r) AS severity
      FROM members m JOIN products p ON p.id = m.id AND p.marketing_status = 'active' AND p.searchable
      JOIN packs k ON k.product_id = p.id AND k.merged_into IS NULL AND k.marketing_status = 'active')
  SELECT system, code, country, count(*)::int AS packs, max(severity) AS worst,
         count(*) FILTER (WHERE severity = 1)::int AS limited, count(*) FILTER (WHERE severity = 2)::int AS unavailable,
         count(*) FILTER (WHERE severity = 3)::int AS discontinued
    FROM marketed GROUP BY system, code, country ORDER BY system, code, country`;

interface Row {
  system: string;
  code: string;
  country: string;
  packs: number;
  worst: number | null;
  limited: number;
  unavailable: number;
  discontinued: number;
}

/** A class's supply by `system|code`, one statement per batch. */
export function classSupplyLoader(db: Queryable): DataLoader<string, ClassSupplyCountry[]> {
  return new DataLoader(async (keys) => {
    const pairs = keys.map((k) => k.split('|') as [string, string]);
    const { rows } = await db.query<Row>(CLASS_SUPPLY_SQL, [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
    const byClass = new Map<string, ClassSupplyCountry[]>();
    for (const r of rows) {
      const list = byClass.get(`${r.system}|${r.code}`) ?? [];
      list.push({
        country: r.country, status: r.worst === null ? null : SUPPLY_STATUSES[r.worst]!, packs: r.packs,
        short: r.limited + r.unavailable + r.discontinued, limited: r.limited, unavailable: r.unavailable, discontinued: r.discontinued,
      });
      byClass.set(`${r.system}|${r.code}`, list);
    }
    return keys.map((k) => byClass.get(k) ?? []);
  });
}
