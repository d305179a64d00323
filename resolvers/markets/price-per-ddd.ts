/**
 * Price per defined daily dose of one pack: price ÷ (amount of substance in the pack ÷ DDD).
 *
 * The amount is the strength times what the pack holds: a strength per dosage unit (20 mg
 * per tablet) times the count of units; a concentration (5 mg/ml, 500 mg/5 ml, 1 000 UI/ml,
 * 1 %) times the pack's volume or mass; a strength per dose (0,5 mg/dose) times the doses.
 * What the pack holds comes from the stored `units`/`unit`, else the stored total quantity,
 * else the register's own pack text parsed with the catalogue's pack-size grammar. Mass,
 * units (IE/UI/IU ↔ DDD U/TU/MU) and mmol convert; a DDD in tablets or ml counts those.
 * Only a true normalisation yields a value; otherwise the basis says how far it got —
 * `per_unit` (price and unit count), `per_pack` (a price only), `none` (no price, or no
 * rate for its currency) — and `reason` says why the DDD was out of reach.
 */
import { normalisePackUnit, parsePackSize } from '../catalogue/pack-size.ts';
import { unitKind } from '../catalogue/pack-units.ts';
import type { PackUnit } from '../catalogue/pack-size.ts';
import { amountUnit, parseStrength, parseStrengthText } from '../catalogue/strength.ts';
import type { AmountUnit, Strength } from '../catalogue/strength.ts';

export type Basis = 'per_ddd' | 'per_unit' | 'per_pack' | 'none';
export const BASIS_RANK: Basis[] = ['per_ddd', 'per_unit', 'per_pack', 'none'];

export interface PackInput {
  units: number | null;
  unit: string | null;
  /** The register's pack text, parsed when units/unit cannot carry the arithmetic. */
  description?: string | null;
  /** Total quantity stored apart from the units (`PackEntry.quantity`). */
  quantity?: { value: number; unit: string } | null;
  strengthValue: number | null;
  strengthUnit: string | null;
  /** Strength as written (`1 000 UI/ml`), read when value/unit are missing. */
  strengthText?: string | null;
  /** Price already in USD, or null. */
  priceUsd: number | null;
  /** DDDs of the product's route, tried in turn. */
  ddd: { value: number; unit: string } | Array<{ value: number; unit: string }> | null;
}

export interface PackPrice {
  basis: Basis;
  pricePerDddUsd: number | null;
  /** Defined daily doses in the pack, when normalisable. */
  ddds: number | null;
  unitPriceUsd: number | null;
  packPriceUsd: number | null;
  /** Why the pack did not reach `per_ddd` (null when it did). */
  reason: string | null;
}

/** What a pack holds, as far as known. */
export interface PackContent {
  count: number | null;
  unit: PackUnit | null;
  /** Whole volume in ml or mass in g. */
  volumeMl: number | null;
  massG: number | null;
}

type Amount = { value: number; unit: AmountUnit } | { reason: string };

/** Units that are counted one by one and hold one strength each. */
const DOSAGE_KINDS = new Set(['form', 'unit_dose']);

/** Pack content from the stored columns (and total quantity), or null when they say nothing. */
export function storedContent(units: number | null, unit: string | null, quantity?: { value: number; unit: string } | null): PackContent | null {
  const content: PackContent = { count: null, unit: null, volumeMl: null, massG: null };
  const reading = normalisePackUnit(unit);
  if (units !== null && units > 0) {
    if (reading?.kind === 'measure') {
      if (reading.unit === 'ml') content.volumeMl = units * reading.factor; else content.massG = units * reading.factor;
    } else {
      content.count = units;
      content.unit = reading?.unit ?? null;
    }
  }
  const q = quantity ? normalisePackUnit(quantity.unit) : null;
  if (quantity && q?.kind === 'measure' && quantity.value > 0) {
    if (q.unit === 'ml') content.volumeMl = quantity.value * q.factor; else content.massG = quantity.value * q.factor;
  }
  return content.count === null && content.volumeMl === null && content.massG === null ? null : content;
}

/** Pack content parsed from the register's pack text. */
export function describedContent(description: string | null | undefined): PackContent | null {
  const size = parsePackSize(description);
  if (!size) return null;
  const total = size.total;
  return {
    count: total && size.unit === total.unit ? null : size.count,
    unit: total && size.unit === total.unit ? null : size.unit,
    volumeMl: total?.unit === 'ml' ? total.value : null,
    massG: total?.unit === 'g' ? total.value : null,
  };
}

function countable(content: PackContent): string | null {
  if (content.count === null) return 'the pack gives a volume or mass but no count of units';
  if (content.unit === null) return 'the pack unit is not recognised';
  return DOSAGE_KINDS.has(unitKind(content.unit)) ? null : `the strength is per unit but the pack counts ${content.unit}s`;
}

/** Amount of substance in the pack, in the strength's dimension, or why it is unknown. */
export function packAmount(strength: Strength, content: PackContent): Amount {
  const { amount, per } = strength;
  const times = (factor: number): Amount => ({ value: amount.value * factor, unit: amount.unit });
  if (!per || per.unit === 'unit') {
    const why = countable(content);
    return why ? { reason: why } : times(content.count!);
  }
  switch (per.unit) {
    case 'dose':
      return content.unit === 'dose' && content.count !== null ? times(content.count / per.value) : { reason: 'the strength is per dose but the pack does not count doses' };
    case 'ml':
      return content.volumeMl !== null ? times(content.volumeMl / per.value) : { reason: 'the strength is a concentration but the pack volume is unknown' };
    case 'g':
      return content.massG !== null ? times(content.massG / per.value) : { reason: 'the strength is per g but the pack mass is unknown' };
    case 'percent_base': {
      const base = content.volumeMl ?? content.massG;
      return base !== null ? times(base / per.value) : { reason: 'the strength is a percentage but the pack volume or mass is unknown' };
    }
    default:
      return { reason: 'the strength is a release rate per hour' };
  }
}

/** DDDs in the pack for one DDD, or why not. */
function dddsIn(strength: Strength | null, content: PackContent, ddd: { value: number; unit: string }): number | { reason: string } {
  const dddAmount = amountUnit(ddd.unit);
  if (!dddAmount) {
    // A DDD in tablets, doses or ml counts those directly.
    const unit = normalisePackUnit(ddd.unit);
    if (unit?.kind === 'measure') return content.volumeMl !== null && unit.unit === 'ml' ? content.volumeMl / (ddd.value * unit.factor) : { reason: `the DDD is in ${ddd.unit} but the pack volume is unknown` };
    if (unit && content.unit === unit.unit && content.count !== null) return content.count / ddd.value;
    return { reason: `the DDD unit "${ddd.unit}" does not match the pack` };
  }
  if (!strength) return { reason: 'no strength' };
  const amount = packAmount(strength, content);
  if ('reason' in amount) return amount;
  if (amount.unit !== dddAmount.unit) return { reason: `the strength is in ${amount.unit} but the DDD in ${ddd.unit}` };
  return amount.value / (ddd.value * dddAmount.factor);
}

function strengthOf(p: PackInput): Strength | { reason: string } {
  const given = parseStrength(p.strengthValue, p.strengthUnit);
  if (!('reason' in given) || !p.strengthText) return given;
  const written = parseStrengthText(p.strengthText);
  return 'reason' in written ? given : written;
}

/** DDDs in the pack (trying the stored content, then the parsed pack text), or the first reason. */
export function packDdds(p: PackInput): { ddds: number } | { reason: string } {
  const ddds = p.ddd === null ? [] : Array.isArray(p.ddd) ? p.ddd : [p.ddd];
  if (ddds.length === 0) return { reason: 'no DDD for this ATC code and route' };
  const strength = strengthOf(p);
  // Stored units first; the text when they cannot carry the arithmetic. A nested FDA text
  // (`10 VIAL in 1 CARTON > 2 mL in 1 VIAL`) goes first: adapters store its innermost level only.
  const stored = storedContent(p.units, p.unit, p.quantity);
  const described = describedContent(p.description);
  const ordered = p.description?.includes('>') ? [described, stored] : [stored, described];
  const contents = ordered.filter((c): c is PackContent => c !== null);
  if (contents.length === 0) return { reason: 'the pack size is unknown' };
  let reason: string | null = null;
  for (const content of contents) {
    for (const ddd of ddds) {
      const result = dddsIn('reason' in strength ? null : strength, content, ddd);
      if (typeof result === 'number' && Number.isFinite(result) && result > 0) return { ddds: result };
      const why = typeof result === 'number' ? 'the pack holds no substance' : result.reason === 'no strength' && 'reason' in strength ? strength.reason : result.reason;
      reason ??= why;
    }
  }
  return { reason: reason ?? 'the pack size is unknown' };
}

/** Units for the per-unit basis: the stored count, else the parsed pack text's count. */
function unitCount(p: PackInput): number | null {
  if (p.units !== null && p.units > 0) return p.units;
  return parsePackSize(p.description)?.count ?? null;
}

/** The pack's price per DDD and basis. */
export function pricePerDdd(p: PackInput): PackPrice {
  if (p.priceUsd === null) return { basis: 'none', pricePerDddUsd: null, ddds: null, unitPriceUsd: null, packPriceUsd: null, reason: 'no price, or no exchange rate for its currency' };
  const result = packDdds(p);
  if ('ddds' in result) {
    return { basis: 'per_ddd', pricePerDddUsd: p.priceUsd / result.ddds, ddds: result.ddds, unitPriceUsd: null, packPriceUsd: p.priceUsd, reason: null };
  }
  const units = unitCount(p);
  if (units !== null && units > 0) return { basis: 'per_unit', pricePerDddUsd: null, ddds: null, unitPriceUsd: p.priceUsd / units, packPriceUsd: p.priceUsd, reason: result.reason };
  return { basis: 'per_pack', pricePerDddUsd: null, ddds: null, unitPriceUsd: null, packPriceUsd: p.priceUsd, reason: result.reason };
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
