/**
 * Normalising a pack-level code and the SQL that finds its drug (GET /v1/drugs/lookup and
 * /v1/packs/{system}/{code}, Query.drugByCode). The raw code is normalised exactly as
 * adapters store it (`normaliseIdentifier`), so printed forms (dashed NDCs, `PZN-`,
 * legacy 7-digit pharmacodes, `A`-prefixed AIC codes) all resolve.
 */
import { validationError } from '../../platform/errors.ts';
import { LOOKUP_SYSTEMS } from '../../vocabulary/systems.ts';
import type { LookupSystem } from '../../vocabulary/systems.ts';
import { normaliseIdentifier } from '../../vocabulary/codes.ts';

/**
 * Stored systems a lookup system reads. `ean` is the retail name of the GTIN-13 and
 * normalises to the same key, so either name finds packs stored under the other.
 */
const STORED_SYSTEMS: Partial<Record<LookupSystem, string[]>> = {
  gtin: ['gtin', 'ean'],
  ean: ['ean', 'gtin'],
};

/** The stored systems a lookup system reads (itself, or gtin and ean together). */
export function storedSystems(system: string): string[] {
  return STORED_SYSTEMS[system as LookupSystem] ?? [system];
}

export function isLookupSystem(system: string): system is LookupSystem {
  return (LOOKUP_SYSTEMS as readonly string[]).includes(system);
}

/** The normalised code, or a 422 saying why the code cannot be one of `system`. */
export function normaliseLookup(system: string, code: string): string {
  if (!isLookupSystem(system)) {
    throw validationError(`Invalid request: system must be one of ${LOOKUP_SYSTEMS.join(', ')}.`, [
      { location: 'query', field: 'system', message: 'is not a supported code system' },
    ]);
  }
  const normalised = normaliseIdentifier(system, code);
  if (normalised === null) {
    throw validationError(`Invalid request: "${code}" is not a well-formed ${system} code (shape or check digit).`, [
      { location: 'query', field: 'code', message: `is not a valid ${system} code` },
    ]);
  }
  return normalised;
}

/**
 * The representative product (`product_id`) and pack (`pack_id`) a code belongs to, over SQL
 * expressions of the stored systems (`text[]`) and the normalised code. Pack-level rows win
 * over product-level ones, the representative of merged packs over the rows merged into it
 * (the product that holds it answers), and active products over withdrawn ones, so a code
 * reused after a withdrawal resolves to the marketed product.
 */
export const lookupSql = (systems: string, code: string): string =>
  // A code of a merged source answers with its representative product and pack (0600_merge.sql).
  `SELECT p.id AS product_id, coalesce(k.merged_into, k.id) AS pack_id FROM identifiers i
       JOIN products m ON m.id = i.drug_id JOIN products p ON p.id = coalesce(m.merged_into, m.id)
       LEFT JOIN packs k ON k.id = i.pack_id
      WHERE i.system = ANY(${systems}) AND i.code = ${code}
      ORDER BY (i.pack_id IS NULL), (k.merged_into IS NOT NULL), (p.marketing_status = 'withdrawn'), p.id LIMIT 1`;
