/**
 * Price per defined daily dose of one pack: price ÷ (strength × units ÷ DDD), with strength
 * and DDD brought to one mass unit. Only a true normalisation yields a value; otherwise the
 * basis says how far it got: `per_unit` (price and unit count, but no DDD-comparable
 * strength), `per_pack` (a price only), `none` (no price, or no rate for its currency).
 */

export type Basis = 'per_ddd' | 'per_unit' | 'per_pack' | 'none';
export const BASIS_RANK: Basis[] = ['per_ddd', 'per_unit', 'per_pack', 'none'];

/** Mass units in milligrams. */
const MASS_MG: Record<string, number> = { g: 1000, mg: 1, mcg: 0.001, 'µg': 0.001, ug: 0.001 };

/** Register route → WHO DDD route code. */
export const WHO_ROUTE: Record<string, string> = {
  oral: 'O', parenteral: 'P', subcutaneous: 'P', intravenous: 'P', intramuscular: 'P', rectal: 'R',
  transdermal: 'TD', sublingual: 'SL', inhalation: 'Inhal', nasal: 'N', vaginal: 'V',
};

/** Pack units that each hold one strength (a tablet of 20 mg) rather than a concentration. */
const COUNT_UNITS = new Set(['tablets', 'capsules', 'suppositories', 'sachets', 'ampoules', 'syringes', 'vials', 'pens', 'lozenges']);

export interface PackInput {
  units: number | null;
  unit: string | null;
  strengthValue: number | null;
  strengthUnit: string | null;
  /** Price already in USD, or null. */
  priceUsd: number | null;
  ddd: { value: number; unit: string } | null;
}

export interface PackPrice {
  basis: Basis;
  pricePerDddUsd: number | null;
  /** Defined daily doses in the pack, when normalisable. */
  ddds: number | null;
  unitPriceUsd: number | null;
  packPriceUsd: number | null;
}

/** Active substance in the whole pack, in mg; null when not a mass the DDD can use. */
export function packAmountMg(p: PackInput): number | null {
  if (p.strengthValue === null || !p.strengthUnit || p.units === null || !p.unit) return null;
  const [num, per] = p.strengthUnit.split('/').map((s) => s.trim());
  const factor = MASS_MG[num ?? ''];
  if (factor === undefined) return null;
  if (per === undefined) return COUNT_UNITS.has(p.unit) ? p.strengthValue * factor * p.units : null;
  // A concentration (mg/ml) times a volume pack (ml).
  return per === 'ml' && p.unit === 'ml' ? p.strengthValue * factor * p.units : null;
}

/** The pack's price per DDD and basis. */
export function pricePerDdd(p: PackInput): PackPrice {
  if (p.priceUsd === null) return { basis: 'none', pricePerDddUsd: null, ddds: null, unitPriceUsd: null, packPriceUsd: null };
  const dddMg = p.ddd ? (MASS_MG[p.ddd.unit] ?? null) : null;
  const amount = packAmountMg(p);
  if (p.ddd && dddMg !== null && amount !== null && amount > 0) {
    const ddds = amount / (p.ddd.value * dddMg);
    return { basis: 'per_ddd', pricePerDddUsd: p.priceUsd / ddds, ddds, unitPriceUsd: null, packPriceUsd: p.priceUsd };
  }
  if (p.units !== null && p.units > 0) return { basis: 'per_unit', pricePerDddUsd: null, ddds: null, unitPriceUsd: p.priceUsd / p.units, packPriceUsd: p.priceUsd };
  return { basis: 'per_pack', pricePerDddUsd: null, ddds: null, unitPriceUsd: null, packPriceUsd: p.priceUsd };
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rounds money to 4 decimals (sub-cent per-DDD prices stay comparable). */
export function round4(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10_000) / 10_000;
}
