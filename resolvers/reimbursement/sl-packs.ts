/**
 * Swiss packs with their Spezialitätenliste (SL) entry, as the catalogue's Swiss sources
 * stored them in `packs.sl`. A pack is addressed by GTIN, pharmacode, 8-digit Swissmedic
 * pack number (read with the catalogue's `detectCodes` / `normaliseIdentifier`), an explicit
 * `{ system, code }` or the pack uuid.
 */
import type { Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { detectCodes, normaliseIdentifier } from '../../vocabulary/codes.ts';
import { isUuid } from '../catalogue/drug-rows.ts';
import type { DrugReference } from '../interactions/references.ts';
import type { SlEntry } from '../../vocabulary/systems.ts';

/** Code systems that address a Swiss pack. */
export const CH_PACK_SYSTEMS = ['gtin', 'ean', 'pharmacode', 'swissmedic_no'];

export interface SlPack {
  id: string;
  description: string;
  units: number | null;
  unit: string | null;
  sl: SlEntry | null;
  productId: string;
  productName: string;
  atcCode: string | null;
  generic: boolean | null;
  ingredientCount: number;
  strengthValue: number | null;
  strengthUnit: string | null;
  source: string;
}

interface Row {
  id: string; description: string; units: string | null; unit: string | null; sl: SlEntry | null; product_id: string; product_name: string;
  atc_code: string | null; generic: boolean | null; ingredient_count: number; strength_value: string | null; strength_unit: string | null; source: string;
}

export const SL_PACK_COLUMNS = `k.id, k.description, k.units, k.unit, k.sl, p.id AS product_id, p.product_name, p.atc_code, p.generic, k.source,
  (SELECT count(*)::int FROM product_ingredients c WHERE c.product_id = p.id) AS ingredient_count,
  (SELECT strength_value FROM product_ingredients c WHERE c.product_id = p.id ORDER BY position LIMIT 1) AS strength_value,
  (SELECT strength_unit FROM product_ingredients c WHERE c.product_id = p.id ORDER BY position LIMIT 1) AS strength_unit`;

export function toSlPack(r: Row): SlPack {
  return {
    id: r.id, description: r.description, units: r.units === null ? null : Number(r.units), unit: r.unit, sl: r.sl,
    productId: r.product_id, productName: r.product_name, atcCode: r.atc_code, generic: r.generic, ingredientCount: r.ingredient_count,
    strengthValue: r.strength_value === null ? null : Number(r.strength_value), strengthUnit: r.strength_unit, source: r.source,
  };
}

/** Candidate (system, code) keys of a pack reference; a 422 when it cannot address a pack. */
function packKeys(ref: DrugReference): Array<[string, string]> {
  if (typeof ref !== 'string') {
    const code = CH_PACK_SYSTEMS.includes(ref.system) ? normaliseIdentifier(ref.system, ref.code) : null;
    if (code === null) throw validationError(`Invalid request: pack must be a GTIN, pharmacode or Swissmedic pack number.`, [{ location: 'body', field: 'pack', message: 'is not a Swiss pack code' }]);
    return ref.system === 'gtin' || ref.system === 'ean' ? [['gtin', code], ['ean', code]] : [[ref.system, code]];
  }
  const keys = detectCodes(ref).filter((c) => CH_PACK_SYSTEMS.includes(c.system)).map((c): [string, string] => [c.system, c.code]);
  const swissmedic = normaliseIdentifier('swissmedic_no', ref);
  if (swissmedic && swissmedic.length === 8) keys.push(['swissmedic_no', swissmedic]);
  const pharmacode = normaliseIdentifier('pharmacode', ref);
  if (pharmacode) keys.push(['pharmacode', pharmacode]);
  return keys;
}

/** The Swiss pack a reference addresses (active packs first); null when none. */
export async function findSlPack(db: Queryable, ref: DrugReference): Promise<SlPack | null> {
  const id = typeof ref === 'string' && isUuid(ref.trim()) ? ref.trim().toLowerCase() : null;
  const keys = id ? [] : packKeys(ref);
  if (!id && keys.length === 0) {
    throw validationError('Invalid request: pack must be a GTIN, pharmacode, Swissmedic pack number or pack uuid.', [{ location: 'body', field: 'pack', message: 'is not a Swiss pack code' }]);
  }
  const { rows } = await db.query<Row>(
    `SELECT ${SL_PACK_COLUMNS} FROM packs k JOIN products p ON p.id = k.product_id
      WHERE p.country = 'CH' AND (k.id::text = $1 OR k.id IN (
        SELECT coalesce(x.merged_into, x.id) FROM identifiers i JOIN packs x ON x.id = i.pack_id
          JOIN unnest($2::text[], $3::text[]) AS q(system, code) ON i.system = q.system AND i.code = q.code))
      ORDER BY (k.sl IS NULL), (k.marketing_status = 'withdrawn'), k.id LIMIT 1`,
    [id, keys.map((k) => k[0]), keys.map((k) => k[1])],
  );
  return rows[0] ? toSlPack(rows[0]) : null;
}

/** Listed Swiss packs cheaper than `pack` with the same ATC code, pack size and strength. */
export async function cheaperSubstitutes(db: Queryable, pack: SlPack, price: number): Promise<SlPack[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM (SELECT ${SL_PACK_COLUMNS} FROM packs k JOIN products p ON p.id = k.product_id
      WHERE p.country = 'CH' AND p.atc_code = $1 AND k.units = $2 AND k.unit IS NOT DISTINCT FROM $3 AND k.id <> $4
        AND k.marketing_status = 'active' AND p.marketing_status = 'active' AND k.merged_into IS NULL
        AND (k.sl ->> 'listed')::boolean AND (k.sl ->> 'public_price')::numeric < $5) s
      WHERE s.ingredient_count = $6 AND s.strength_value IS NOT DISTINCT FROM $7 AND s.strength_unit IS NOT DISTINCT FROM $8
      ORDER BY (s.sl ->> 'public_price')::numeric, s.product_name`,
    [pack.atcCode, pack.units, pack.unit, pack.id, price, pack.ingredientCount, pack.strengthValue, pack.strengthUnit],
  );
  return rows.map(toSlPack);
}
