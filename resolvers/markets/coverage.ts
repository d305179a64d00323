/**
 * The coverage report of `drugref coverage`: per country and source, how far drugref's
 * derivations reach on the catalogue it holds — products with an ATC code (from the
 * register, derived by linking, or none), active packs with a price, packs whose price
 * normalises per defined daily dose, and the most frequent reasons for the rest. Packs are
 * priced exactly as the market overview prices them (pack-pricing.ts) and read through a
 * cursor, so a catalogue of millions of packs is reported in flat memory. The DDD arithmetic
 * is what is measured: prices are taken in their own currency, so missing exchange rates
 * hide nothing.
 */
import type { Database } from '../../platform/db.ts';
import { PACK_COLUMNS, PRICE_KINDS, packPriceJoins, priceOfPack } from './pack-pricing.ts';
import type { PackRow } from './pack-pricing.ts';
import type { REASONS } from './reasons.ts';

/** Why a pack never reached the DDD arithmetic: the product's own shape. */
export const PRODUCT_REASONS = {
  no_atc_code: 'The product has no ATC code: its register gives none and linking found none.',
  combination_product: 'The product combines several active substances; WHO DDDs are per single substance.',
  no_ingredients: 'The register lists no active substance for the product.',
} as const;

export type CoverageReason = keyof typeof PRODUCT_REASONS | keyof typeof REASONS;

/** What a coverage row counts for one country and source. */
export interface CoverageRow {
  country: string;
  source: string;
  demo: boolean;
  products: number;
  /** Products by where their ATC code comes from. */
  atc: { register: number; derived: number; none: number };
  /** Active packs, those with a price, and those normalised per DDD. */
  packs: number;
  priced: number;
  perDdd: number;
  /** Reasons of the packs short of per DDD, most frequent first. */
  reasons: Array<{ reason: CoverageReason; packs: number }>;
}

const PRODUCTS = `
  SELECT p.country, p.source, coalesce(src.demo, false) AS demo, count(*)::int AS products,
         count(*) FILTER (WHERE p.atc_code IS NOT NULL AND NOT p.atc_code_linked)::int AS register,
         count(*) FILTER (WHERE p.atc_code_linked)::int AS derived,
         count(*) FILTER (WHERE p.atc_code IS NULL)::int AS none
    FROM products p LEFT JOIN sources src ON src.id = p.source
   GROUP BY 1, 2, 3`;

// Every active pack of an active product, counted for its own source and country but priced as
// a user meets it: through the representative of its merge group (a Refdata or Zur Rose pack
// that the SL also lists is answered with the SL's composition), with its first ingredient and
// how many it has.
const PACKS = `
  SELECT ${PACK_COLUMNS}, op.country AS own_country, own.source AS own_source,
         (SELECT count(*) FROM product_ingredients c WHERE c.product_id = p.id)::int AS ingredient_count
    FROM packs own
    JOIN products op ON op.id = own.product_id AND op.marketing_status = 'active'
    JOIN packs k ON k.id = coalesce(own.merged_into, own.id)
    JOIN products p ON p.id = k.product_id
    LEFT JOIN LATERAL (SELECT * FROM product_ingredients f WHERE f.product_id = p.id ORDER BY f.position LIMIT 1) pi ON true
    LEFT JOIN substances s ON s.unii = pi.unii
    ${packPriceJoins('$1')}
   WHERE own.marketing_status = 'active'`;

type CoveredPack = PackRow & { ingredient_count: number; own_country: string; own_source: string };

/** Packs read per cursor batch: the report's memory, whatever the catalogue's size. */
const BATCH = 2_000;

/** The reason a pack stops short of per DDD, or null when it reaches it. */
function reasonOf(row: CoveredPack): { priced: boolean; reason: CoverageReason | null } {
  const priced = row.amount !== null;
  if (row.ingredient_count === 0) return { priced, reason: 'no_ingredients' };
  if (row.ingredient_count > 1) return { priced, reason: 'combination_product' };
  if (!row.atc_code) return { priced, reason: 'no_atc_code' };
  const price = priceOfPack(row, (amount) => amount);
  return { priced, reason: price.basis === 'per_ddd' ? null : price.reason ?? 'no_price' };
}

function keyOf(country: string, source: string): string {
  return `${country}\u0000${source}`;
}

/** The coverage of the whole catalogue, by country then source. */
export async function catalogueCoverage(db: Database): Promise<CoverageRow[]> {
  const rows = new Map<string, CoverageRow & { counts: Map<CoverageReason, number> }>();
  const { rows: products } = await db.query<{ country: string; source: string; demo: boolean; products: number; register: number; derived: number; none: number }>(PRODUCTS);
  for (const p of products) {
    rows.set(keyOf(p.country, p.source), {
      country: p.country, source: p.source, demo: p.demo, products: p.products,
      atc: { register: p.register, derived: p.derived, none: p.none },
      packs: 0, priced: 0, perDdd: 0, reasons: [], counts: new Map(),
    });
  }
  for await (const batch of db.stream<CoveredPack>(PACKS, [PRICE_KINDS], { batchSize: BATCH })) {
    for (const pack of batch.rows) {
      const row = rows.get(keyOf(pack.own_country, pack.own_source));
      if (!row) continue;
      const { priced, reason } = reasonOf(pack);
      row.packs += 1;
      if (priced) row.priced += 1;
      if (reason === null) row.perDdd += 1;
      else row.counts.set(reason, (row.counts.get(reason) ?? 0) + 1);
    }
  }
  return [...rows.values()]
    .sort((a, b) => a.country.localeCompare(b.country) || a.source.localeCompare(b.source))
    .map(({ counts, ...row }) => ({
      ...row,
      reasons: [...counts].map(([reason, packs]) => ({ reason, packs })).sort((a, b) => b.packs - a.packs || a.reason.localeCompare(b.reason)),
    }));
}

/** Share of packs normalised per DDD, in percent with one decimal (null without packs). */
export function perDddShare(row: Pick<CoverageRow, 'packs' | 'perDdd'>): number | null {
  return row.packs === 0 ? null : Math.round((row.perDdd / row.packs) * 1000) / 10;
}
