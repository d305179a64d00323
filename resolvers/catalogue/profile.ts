/**
 * The combined drug profile (GET /v1/drugs/{id}/profile). Every section is best-effort:
 * a section the catalogue holds no data for is null, and `unavailable` says why, so a
 * client can tell "nothing known" from "not looked up". Nothing is estimated or invented.
 */
import type { Queryable } from '../../platform/db.ts';
import type { DrugRow } from './drug-rows.ts';
import { basisOf } from './equivalents.ts';
import type { MonographRow, PriceRow } from './loaders.ts';

/** Monograph languages tried for the information texts, in order. */
export const PROFILE_LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
/** Packs listed per pricing market. */
export const PRICED_PACKS = 10;

/** Why a section is empty: stable text, also listed in docs/catalogue.md. */
export const REASONS = {
  information: 'No monograph (product information) is held for this product in de, fr, it or en.',
  swissPricing: 'No priced Swiss pack of this product or of the same medicine (substances, strength, form, route) is in the catalogue.',
  usPricing: 'No priced US pack of this product or of the same medicine is in the catalogue; the FDA NDC directory publishes no prices.',
  interactions: 'No open rule of the interaction table covers this product\'s ATC code (or it has none); licensed rules are screened by POST /v1/interactions/check.',
  adverseEventSignal: 'No adverse-event reporting source (such as FAERS) is ingested yet, so no signal is computed.',
} as const;
export type Section = keyof typeof REASONS;

export interface PricedPack {
  drugId: string;
  /** Source of the priced product, for `_meta.sources`. */
  source: string;
  productName: string;
  packId: string;
  description: string;
  units: number | null;
  prices: PriceRow[];
  sl: unknown;
}

export interface MarketPricing {
  country: string;
  /** own: the product's own packs; same_medicine: equivalent products of that market. */
  basis: 'own' | 'same_medicine';
  packs: PricedPack[];
}

type PriceQueryRow = PricedPack & { country: string; own: boolean };

/**
 * Priced CH and US packs: the product's own when it is marketed there, otherwise those of
 * active products with the same medicine signature. One statement for both markets.
 */
export async function marketPricing(db: Queryable, drug: DrugRow): Promise<{ CH: MarketPricing | null; US: MarketPricing | null }> {
  const { rows } = await db.query<PriceQueryRow>(
    `SELECT p.id AS "drugId", p.source, p.product_name AS "productName", p.country, p.id = $1 AS own, k.id AS "packId", k.description,
            k.units::float8 AS units, k.sl,
            coalesce(json_agg(json_build_object('kind', pp.kind, 'amount', pp.amount::float8, 'currency', pp.currency, 'validFrom', pp.valid_from::text)
                              ORDER BY pp.kind) FILTER (WHERE pp.pack_id IS NOT NULL), '[]') AS prices
       FROM products p JOIN packs k ON k.product_id = p.id LEFT JOIN pack_prices pp ON pp.pack_id = k.id
      WHERE p.country IN ('CH', 'US') AND p.marketing_status = 'active' AND p.searchable AND k.merged_into IS NULL
        AND (p.id = $1 OR ($2::text IS NOT NULL AND p.medicine_signature = $2))
      GROUP BY p.id, k.id
     HAVING count(pp.pack_id) > 0 OR k.sl IS NOT NULL
      ORDER BY p.country, (p.id = $1) DESC, lower(p.product_name), k.units NULLS LAST, k.id`,
    [drug.id, drug.medicineSignature],
  );
  const pick = (country: string): MarketPricing | null => {
    const market = rows.filter((r) => r.country === country);
    if (!market.length) return null;
    const own = market.some((r) => r.own);
    const packs = market.filter((r) => r.own === own).slice(0, PRICED_PACKS).map(({ country: _c, own: _o, ...pack }) => pack);
    return { country, basis: own ? 'own' : 'same_medicine', packs };
  };
  return { CH: pick('CH'), US: pick('US') };
}

/** Active products with the same substances per country (the drug's own included). */
export async function availability(db: Queryable, drug: DrugRow): Promise<Array<{ country: string; count: number }>> {
  const basis = basisOf(drug);
  if (basis === 'none') return drug.marketingStatus === 'active' ? [{ country: drug.country, count: 1 }] : [];
  const { rows } = await db.query<{ country: string; count: number }>(
    `SELECT country, count(*)::int AS count FROM products
      WHERE marketing_status = 'active' AND searchable AND (($1::text IS NOT NULL AND substance_signature = $1) OR ($2::text IS NOT NULL AND atc_code = $2))
      GROUP BY country ORDER BY country`,
    [basis === 'identity' ? drug.substanceSignature : null, basis === 'atc' ? drug.atcCode : null],
  );
  return rows;
}

/** The information texts from the first monograph language available. */
export function informationFrom(monograph: MonographRow | null) {
  if (!monograph) return null;
  const s = monograph.sections;
  return {
    lang: monograph.lang,
    title: monograph.title,
    indications: s.indications ?? null,
    contraindications: s.contraindications ?? null,
    warnings: s.warnings ?? null,
    boxedWarning: s.boxed_warning ?? null,
    adverseReactions: s.adverse_reactions ?? null,
    drugInteractions: s.interactions ?? null,
  };
}
