/**
 * The EU central authorisation behind a national product: the EMA report's record (country
 * `EU`) whose EU number the national product carries. National registers give the pack-level
 * number (`EU/1/17/1234/001`), the EMA the product-level one (`EU/1/17/1234`), so the link is
 * the number's first four parts, matched exactly, never by name.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';

export interface CentralAuthorisation {
  drugId: string;
  source: string;
  productName: string;
  euNumber: string;
  procedureNumber: string | null;
  status: string | null;
  authorisedOn: string | null;
}

/** Central authorisation by (representative) product id, null where none is known; one query per batch. */
export function centralAuthorisationLoader(db: Queryable) {
  return new DataLoader<string, CentralAuthorisation | null>(async (ids) => {
    const { rows } = await db.query<CentralAuthorisation & { id: string }>(
      `SELECT DISTINCT ON (d.drug) d.drug AS id, e.id AS "drugId", e.source, e.product_name AS "productName", ei.code AS "euNumber",
              (SELECT x.code FROM identifiers x WHERE x.drug_id = e.id AND x.system = 'ema_procedure' LIMIT 1) AS "procedureNumber",
              e.record ->> 'authorisation_status' AS status, e.authorised_on::text AS "authorisedOn"
         FROM (SELECT coalesce(p.merged_into, p.id) AS drug, substring(i.code FROM '^EU/[12]/[0-9]{2}/[0-9]{3,4}') AS eu
                 FROM products p JOIN identifiers i ON i.drug_id = p.id AND i.system = 'eu_number'
                WHERE (p.id = ANY($1::uuid[]) OR p.merged_into = ANY($1::uuid[])) AND p.country <> 'EU') d
         JOIN identifiers ei ON ei.system = 'eu_number' AND ei.code = d.eu
         JOIN products e ON e.id = ei.drug_id AND e.country = 'EU'
        ORDER BY d.drug, e.id`,
      [ids],
    );
    const byId = new Map(rows.map(({ id, ...row }) => [id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
