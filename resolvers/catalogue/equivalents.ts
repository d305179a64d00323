/**
 * Equivalents of a drug across countries (GET /v1/drugs/{id}/equivalents). The ingest
 * engine stores two signatures on every product — sorted active moieties
 * (`substance_signature`) and moieties with strengths, dose form and route
 * (`medicine_signature`) — so both groups are index lookups, counted and cut per country
 * in one statement.
 */
import type { Queryable } from '../../platform/db.ts';
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';

export type Basis = 'identity' | 'atc' | 'none';

export interface CountryGroup {
  country: string;
  count: number;
  drugs: DrugRow[];
}

export interface EquivalentsResult {
  drug: DrugRow;
  basis: Basis;
  perCountry: number;
  sameMedicine: CountryGroup[];
  sameSubstance: CountryGroup[];
}

/** Identity when the substance layer keys the drug; else its level-5 ATC class; else none. */
export function basisOf(drug: DrugRow): Basis {
  if (drug.substanceSignature) return 'identity';
  if (drug.atcCode && drug.atcCode.length === 7) return 'atc';
  return 'none';
}

type Row = ProductRecord & { grp: 'm' | 's'; n: string };

function toGroups(rows: Row[], grp: 'm' | 's'): CountryGroup[] {
  const groups = new Map<string, CountryGroup>();
  for (const row of rows.filter((r) => r.grp === grp)) {
    const group = groups.get(row.country) ?? { country: row.country, count: Number(row.n), drugs: [] };
    group.drugs.push(toDrug(row));
    groups.set(row.country, group);
  }
  return [...groups.values()];
}

/**
 * Both groups of one drug. Only marketed (active) products are listed and the drug itself
 * is left out; its own country is kept, because a generic at home is an equivalent too.
 * With the ATC basis "same medicine" stays empty: without the substance layer, strength
 * cannot be compared, and claiming sameness on the class alone would be invented.
 */
export async function equivalentsOf(db: Queryable, drug: DrugRow, perCountry: number): Promise<EquivalentsResult> {
  const basis = basisOf(drug);
  if (basis === 'none') return { drug, basis, perCountry, sameMedicine: [], sameSubstance: [] };
  const medicine = basis === 'identity' ? drug.medicineSignature : null;
  const substance = basis === 'identity' ? drug.substanceSignature : null;
  const atc = basis === 'atc' ? drug.atcCode : null;
  const { rows } = await db.query<Row>(
    `WITH m AS (
       SELECT 'm' AS grp, p.* FROM products p
        WHERE $1::text IS NOT NULL AND p.medicine_signature = $1 AND p.id <> $4 AND p.marketing_status = 'active' AND p.searchable
       UNION ALL
       SELECT 's', p.* FROM products p
        WHERE (($2::text IS NOT NULL AND p.substance_signature = $2) OR ($3::text IS NOT NULL AND p.atc_code = $3))
          AND p.id <> $4 AND p.marketing_status = 'active' AND p.searchable),
     ranked AS (
       SELECT m.*, count(*) OVER (PARTITION BY grp, country) AS n,
              row_number() OVER (PARTITION BY grp, country ORDER BY lower(product_name), id) AS rn FROM m)
     SELECT ${PRODUCT_COLUMNS}, p.grp, p.n FROM ranked p WHERE p.rn <= $5 ORDER BY p.grp, p.country, p.rn`,
    [medicine, substance, atc, drug.id, perCountry],
  );
  return { drug, basis, perCountry, sameMedicine: toGroups(rows, 'm'), sameSubstance: toGroups(rows, 's') };
}
