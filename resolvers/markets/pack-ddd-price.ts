/**
 * Each pack's own price per DDD, for the drug record (`include=price_per_ddd`) and the market
 * overview (`detail=packs`): the figure, or the reason code it stopped short, with the price
 * kind and the strength basis used, so a user can check the arithmetic pack by pack. Loaded
 * per request for every pack asked for at once: one statement and the exchange rates.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { round4 } from './price-per-ddd.ts';
import { PACK_COLUMNS, PRICE_KINDS, explainPackPrice, packPriceJoins, readFx } from './pack-pricing.ts';
import type { PackPricing, PackRow } from './pack-pricing.ts';
import { REASONS } from './reasons.ts';

// A combination product has one DDD per combination (in unit doses), not per substance: its
// first ingredient is read, and the single-substance arithmetic is refused by `combination`.
const PACKS_BY_ID = `
  SELECT k.id AS pack_id, ${PACK_COLUMNS},
         (SELECT count(*) FROM product_ingredients o WHERE o.product_id = p.id) AS ingredient_count
    FROM packs k
    JOIN products p ON p.id = k.product_id
    LEFT JOIN LATERAL (SELECT * FROM product_ingredients x WHERE x.product_id = p.id ORDER BY x.position LIMIT 1) pi ON true
    LEFT JOIN substances s ON s.unii = pi.unii
    ${packPriceJoins('$2')}
   WHERE k.id = ANY($1::uuid[])`;

/** A pack's price per DDD as the API shows it (values rounded as the overview rounds them). */
export interface PackDddPrice extends PackPricing {
  /** The sentence of `reason` (docs/markets.md lists them all). */
  reasonText: string | null;
}

/** Rounds the USD figures and adds the reason's sentence. */
export function presentPackPrice(p: PackPricing): PackDddPrice {
  return {
    ...p,
    pricePerDddUsd: round4(p.pricePerDddUsd), ddds: round4(p.ddds), unitPriceUsd: round4(p.unitPriceUsd), packPriceUsd: round4(p.packPriceUsd),
    reasonText: p.reason ? REASONS[p.reason] : null,
  };
}

/** The explained price of a combination product's pack: its price stands, the DDD arithmetic does not. */
function combination(p: PackPricing): PackPricing {
  const basis = p.basis === 'per_ddd' ? (p.unitPriceUsd !== null ? 'per_unit' : 'per_pack') : p.basis;
  return { ...p, basis, pricePerDddUsd: null, ddds: null, reason: p.basis === 'none' ? p.reason : 'combination' };
}

/** Per request: pack id → its price per DDD explained (null for an unknown pack). */
export function createPackDddPriceLoader(db: Queryable): DataLoader<string, PackDddPrice | null> {
  return new DataLoader(async (ids) => {
    const [{ rows }, fx] = await Promise.all([
      db.query<PackRow & { pack_id: string; ingredient_count: string }>(PACKS_BY_ID, [ids, PRICE_KINDS]),
      readFx(db),
    ]);
    const byId = new Map(rows.map((r) => {
      const explained = explainPackPrice(r, (amount, currency) => fx.usdOf(amount, currency));
      return [r.pack_id, presentPackPrice(Number(r.ingredient_count) > 1 ? combination(explained) : explained)];
    }));
    return ids.map((id) => byId.get(id) ?? null);
  });
}
