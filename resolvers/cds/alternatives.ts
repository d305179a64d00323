/**
 * Alternatives a card may suggest instead of a drafted drug that interacts. An equivalent
 * product (catalogue/equivalents.ts: same moieties, or the same level-5 ATC code) cannot
 * avoid an interaction: drugref's rules are keyed by the moieties' ATC codes, so every
 * equivalent meets the same rule. What the table can support is another substance of the
 * drafted one's therapeutic group (same ATC level 4) that is marketed in the catalogue and
 * for which the table holds NO rule, at any level, with any other drug of the request (the
 * rules are read and matched exactly as the screening does). Such an alternative is offered
 * as one to consider, never as recommended: the table knows interactions, not therapeutic
 * interchangeability, dose or indication.
 */
import type { Queryable } from '../../platform/db.ts';
import { fetchRules, matchPairs } from '../interactions/rules.ts';

/** A substance that may replace the drafted one. */
export interface Alternative {
  unii: string;
  name: string;
  rxcui: string | null;
  atcCode: string;
}

/** Most alternatives one card lists. */
export const MAX_ALTERNATIVES = 3;

// Marketed moieties of one ATC level-4 group, other than the drafted ones.
const CANDIDATES = `
  SELECT m.unii, m.name, m.rxcui, c AS atc_code
    FROM substances m CROSS JOIN LATERAL unnest(linked_atc_codes(m.unii, m.atc_codes)) AS c
   WHERE m.unii = m.moiety_unii AND length(c) = 7 AND left(c, 5) = $1 AND NOT (m.unii = ANY($2)) AND NOT (c = ANY($3))
     AND EXISTS (SELECT 1 FROM product_ingredients pi JOIN substances s ON s.unii = pi.unii JOIN products p ON p.id = pi.product_id
                  WHERE s.moiety_unii = m.unii AND p.marketing_status = 'active' AND p.searchable)
   ORDER BY lower(m.name), c LIMIT 25`;

interface Row { unii: string; name: string; rxcui: string | null; atc_code: string }

/**
 * Up to MAX_ALTERNATIVES substances for a drafted drug (`drugCode`, its moieties `drugUniis`)
 * that meet no rule with any of `otherCodes` (the other drugs' level-5 ATC codes). None when
 * another drug already sits in the same group: switching within it would still duplicate.
 */
export async function alternativesFor(db: Queryable, drugCode: string, drugUniis: readonly string[], otherCodes: readonly string[]): Promise<Alternative[]> {
  const group = drugCode.slice(0, 5);
  if (drugCode.length !== 7 || otherCodes.some((c) => c.slice(0, 5) === group)) return [];
  const { rows } = await db.query<Row>(CANDIDATES, [group, [...drugUniis], [drugCode, ...otherCodes]]);
  if (rows.length === 0 || otherCodes.length === 0) return [];
  const rules = await fetchRules(db, [...rows.map((r) => r.atc_code), ...otherCodes], false);
  const clear = rows.filter((row) => {
    const pairs = otherCodes.map((other): [string, string] => (row.atc_code < other ? [row.atc_code, other] : [other, row.atc_code]));
    return matchPairs(pairs, rules).length === 0;
  });
  const seen = new Set<string>();
  return clear.filter((r) => !seen.has(r.unii) && seen.add(r.unii)).slice(0, MAX_ALTERNATIVES)
    .map((r) => ({ unii: r.unii, name: r.name, rxcui: r.rxcui, atcCode: r.atc_code }));
}
