/**
 * The EU central authorisation behind a national product: the EMA report's record (country
 * `EU`) that the national record names, by the bases of central-authorisation-match.ts (EU
 * number, EMA product number, or brand + holder + substance when exactly one record fits).
 * The answer says which basis linked them, so a client can tell a number from a name match.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { LINK_BASES, brandOf, matchCentral, productEuNumber } from './central-authorisation-match.ts';
import type { EmaFacts, LinkBasis, NationalFacts } from './central-authorisation-match.ts';

export interface CentralAuthorisation {
  drugId: string;
  source: string;
  productName: string;
  /** The EMA record's EU number, else the national record's (product level); null when neither has one. */
  euNumber: string | null;
  procedureNumber: string | null;
  status: string | null;
  authorisedOn: string | null;
  basis: LinkBasis;
}

/** A national row of a drug (the representative or a row merged into it) with what the link needs. */
export interface NationalRow {
  drug: string;
  product_name: string;
  brand: string | null;
  holder: string | null;
  eu: string[];
  procedures: string[];
  ingredients: string[][];
}

interface EmaRow {
  id: string;
  source: string;
  product_name: string;
  holder: string | null;
  eu: string[];
  procedures: string[];
  substances: string[];
  status: string | null;
  authorised_on: string | null;
}

/** National rows of the drugs (every merged row), with what the link needs. */
async function nationalFacts(db: Queryable, ids: readonly string[]): Promise<NationalRow[]> {
  const { rows } = await db.query<NationalRow>(nationalSql('$1::uuid[]'), [ids]);
  return rows;
}

/** The national rows statement over an SQL `uuid[]` expression of drug ids, in `p.id` order. */
export const nationalSql = (ids: string): string =>
  `SELECT coalesce(p.merged_into, p.id) AS drug, p.product_name, p.brand, p.holder,
            array(SELECT i.code FROM identifiers i WHERE i.drug_id = p.id AND i.system = 'eu_number' ORDER BY i.code) AS eu,
            array(SELECT i.code FROM identifiers i WHERE i.drug_id = p.id AND i.system = 'ema_procedure' ORDER BY i.code) AS procedures,
            coalesce((SELECT json_agg(json_build_array(s.name, m.name) ORDER BY pi.position)
                        FROM product_ingredients pi JOIN substances s ON s.unii = pi.unii
                        LEFT JOIN substances m ON m.unii = s.moiety_unii AND m.unii <> s.unii
                       WHERE pi.product_id = p.id), '[]'::json) AS ingredients
       FROM products p
      WHERE (p.id = ANY(${ids}) OR p.merged_into = ANY(${ids})) AND p.country <> 'EU'
      ORDER BY p.id`;

/** EMA records that carry one of the EU or product numbers, or bear one of the brands. */
async function emaCandidates(db: Queryable, eu: string[], procedures: string[], brands: string[]): Promise<EmaRow[]> {
  if (eu.length + procedures.length + brands.length === 0) return [];
  const { rows } = await db.query<EmaRow>(
    `SELECT e.id, e.source, e.product_name, e.holder, e.record ->> 'authorisation_status' AS status, e.authorised_on::text AS authorised_on,
            array(SELECT i.code FROM identifiers i WHERE i.drug_id = e.id AND i.system = 'eu_number' ORDER BY i.code) AS eu,
            array(SELECT i.code FROM identifiers i WHERE i.drug_id = e.id AND i.system = 'ema_procedure' ORDER BY i.code) AS procedures,
            array(SELECT s.name FROM product_ingredients pi JOIN substances s ON s.unii = pi.unii WHERE pi.product_id = e.id ORDER BY pi.position) AS substances
       FROM products e
      WHERE e.country = 'EU'
        AND (EXISTS (SELECT 1 FROM identifiers i WHERE i.drug_id = e.id AND i.system = 'eu_number' AND i.code = ANY($1::text[]))
          OR EXISTS (SELECT 1 FROM identifiers i WHERE i.drug_id = e.id AND i.system = 'ema_procedure' AND i.code = ANY($2::text[]))
          OR lower(e.product_name) = ANY($3::text[]))
      ORDER BY e.id`,
    [eu, procedures, brands],
  );
  return rows;
}

function toFacts(row: NationalRow): NationalFacts {
  const euNumbers = [...new Set(row.eu.map(productEuNumber).filter((n): n is string => n !== null))];
  return {
    productName: row.product_name, brand: row.brand, holder: row.holder, euNumbers, procedures: row.procedures,
    ingredients: row.ingredients.map((names) => names.filter((n): n is string => typeof n === 'string')),
  };
}

function emaFacts(row: EmaRow): EmaFacts {
  return { id: row.id, productName: row.product_name, holder: row.holder, euNumbers: row.eu, procedures: row.procedures, substances: row.substances };
}

/** Lower-case brands an EMA record of the national record would be called (the index compares `lower(product_name)`). */
function brandNames(facts: NationalFacts): string[] {
  const head = (facts.brand ?? facts.productName.split(',')[0] ?? '').replace(/\s+\d.*$/, '').trim().toLowerCase();
  return [...new Set([head, brandOf(facts.productName, facts.brand).toLowerCase()])].filter(Boolean);
}

/** National rows already read for a loader's drugs (by the drug record's statement), per loader. */
const knownNational = new WeakMap<object, Map<string, NationalRow[]>>();

/**
 * Hands a loader the national rows of a drug read elsewhere (record-rows.ts), so its batch
 * for that drug reads only the EMA candidates (and none when the drug names no EU number).
 */
export function primeNationalRows(loader: object, drug: string, rows: NationalRow[]): void {
  knownNational.get(loader)?.set(drug, rows);
}

/** The national rows of `ids`: those handed in first, the others read in one query. */
async function nationalRowsOf(db: Queryable, known: Map<string, NationalRow[]>, ids: readonly string[]): Promise<NationalRow[]> {
  const missing = ids.filter((id) => !known.has(id));
  const read = missing.length ? await nationalFacts(db, missing) : [];
  return [...ids.flatMap((id) => known.get(id) ?? []), ...read];
}

/**
 * Central authorisation by (representative) product id, null where none is known; two
 * queries per batch, one when the national rows were handed in (`primeNationalRows`).
 */
export function centralAuthorisationLoader(db: Queryable) {
  const known = new Map<string, NationalRow[]>();
  const loader = new DataLoader<string, CentralAuthorisation | null>(async (ids) => {
    const national = (await nationalRowsOf(db, known, ids)).map((row) => ({ drug: row.drug, facts: toFacts(row) }));
    const brands = new Set(national.filter((n) => n.facts.euNumbers.length > 0).flatMap((n) => brandNames(n.facts)));
    const rows = await emaCandidates(db, [...new Set(national.flatMap((n) => n.facts.euNumbers))],
      [...new Set(national.flatMap((n) => n.facts.procedures))], [...brands]);
    const candidates = rows.map(emaFacts);
    const byId = new Map<string, CentralAuthorisation>();
    for (const { drug, facts } of national) {
      const found = matchCentral(facts, candidates);
      const known = byId.get(drug);
      if (!found || (known && LINK_BASES.indexOf(known.basis) <= LINK_BASES.indexOf(found.basis))) continue;
      const row = rows.find((r) => r.id === found.ema.id)!;
      byId.set(drug, {
        drugId: row.id, source: row.source, productName: row.product_name,
        euNumber: row.eu.map(productEuNumber).find((n) => n !== null) ?? facts.euNumbers[0] ?? null,
        procedureNumber: row.procedures[0] ?? null, status: row.status, authorisedOn: row.authorised_on, basis: found.basis,
      });
    }
    return ids.map((id) => byId.get(id) ?? null);
  });
  knownNational.set(loader, known);
  return loader;
}
