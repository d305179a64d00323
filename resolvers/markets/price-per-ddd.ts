/**
 * Price per defined daily dose of one pack: price ÷ (amount of substance in the pack ÷ DDD).
 *
 * The amount is the strength times what the pack holds: a strength per dosage unit (20 mg
 * per tablet) times the count of units; a concentration (5 mg/ml, 500 mg/5 ml, 1 000 UI/ml,
 * 1 %) times the pack's volume or mass; a strength per dose (0,5 mg/dose) times the doses.
 * What the pack holds comes from the stored `units`/`unit`, else the stored total quantity,
 * else the register's own pack text parsed with the catalogue's pack-size grammar. Mass,
 * units (IE/UI/IU ↔ DDD U/TU/MU) and mmol convert; a DDD in tablets or ml counts those.
 * A strength per unit that the product name gives per ml (`Inj Lös 100 IE/ml`) counts per
 * ml; a salt's mass counts as its moiety's (the caller's `moietyFactor`, salt-base.ts).
 * Only a true normalisation yields a value; otherwise the basis says how far it got —
 * `per_unit` (price and unit count), `per_pack` (a price only), `none` (no price, or no
 * rate for its currency) — and `reason` gives the code of why (reasons.ts).
 */
import { normalisePackUnit, parsePackSize } from '../../vocabulary/pack-size.ts';
import { unitKind } from '../../vocabulary/pack-units.ts';
import type { PackUnit } from '../../vocabulary/pack-size.ts';
import { amountUnit, parseStrength, parseStrengthText } from '../../vocabulary/strength.ts';
import type { AmountUnit, Strength } from '../../vocabulary/strength.ts';
import type { ReasonCode } from './reasons.ts';

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
  /**
   * Product name, read with the pack text for the concentration a strength per unit leaves
   * out (`Inj Lös 100 IE/ml` beside a strength of `100 IE` in a 10 ml vial is 1 000 IE, not 100 IE).
   */
  name?: string | null;
  /**
   * Mass of moiety per mass of the strength's substance (1 for a base, 0.78 for metoprolol
   * tartrate), or why it is unknown; applies to mass DDDs only. Absent: 1.
   */
  moietyFactor?: number | { reason: ReasonCode };
  /** Price already in USD, or null. */
  priceUsd: number | null;
  /** DDDs of the product's route, tried in turn. */
  ddd: { value: number; unit: string } | Array<{ value: number; unit: string }> | null;
  /** Why `ddd` is empty (no DDD for the code, the route unknown ...). Absent: `no_ddd`. */
  dddReason?: ReasonCode;
}

export interface PackPrice {
  basis: Basis;
  pricePerDddUsd: number | null;
  /** Defined daily doses in the pack, when normalisable. */
  ddds: number | null;
  unitPriceUsd: number | null;
  packPriceUsd: number | null;
  /** Why the pack did not reach `per_ddd` (null when it did). */
  reason: ReasonCode | null;
}

/** What a pack holds, as far as known. */
export interface PackContent {
  count: number | null;
  unit: PackUnit | null;
  /** Whole volume in ml or mass in g. */
  volumeMl: number | null;
  massG: number | null;
}

type Amount = { value: number; unit: AmountUnit } | { reason: ReasonCode };

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

function countable(content: PackContent): ReasonCode | null {
  if (content.count === null) return 'pack_count_unknown';
  if (content.unit === null) return 'pack_unit_unknown';
  return DOSAGE_KINDS.has(unitKind(content.unit)) ? null : 'pack_counts_containers';
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
      return content.unit === 'dose' && content.count !== null ? times(content.count / per.value) : { reason: 'pack_doses_unknown' };
    case 'ml':
      return content.volumeMl !== null ? times(content.volumeMl / per.value) : { reason: 'pack_volume_unknown' };
    case 'g':
      return content.massG !== null ? times(content.massG / per.value) : { reason: 'pack_mass_unknown' };
    case 'percent_base': {
      const base = content.volumeMl ?? content.massG;
      return base !== null ? times(base / per.value) : { reason: 'pack_volume_unknown' };
    }
    default:
      return { reason: 'strength_release_rate' };
  }
}

/** DDDs in the pack for one DDD, or why not. */
function dddsIn(strength: Strength | null, content: PackContent, ddd: { value: number; unit: string }, moiety: PackInput['moietyFactor']): number | { reason: ReasonCode | 'no_strength' } {
  const dddAmount = amountUnit(ddd.unit);
  if (!dddAmount) {
    // A DDD in tablets, doses or ml counts those directly.
    const unit = normalisePackUnit(ddd.unit);
    if (unit?.kind === 'measure') return content.volumeMl !== null && unit.unit === 'ml' ? content.volumeMl / (ddd.value * unit.factor) : { reason: 'ddd_unit_mismatch' };
    if (unit && content.unit === unit.unit && content.count !== null) return content.count / ddd.value;
    return { reason: 'ddd_unit_mismatch' };
  }
  if (!strength) return { reason: 'no_strength' };
  const amount = packAmount(strength, content);
  if ('reason' in amount) return amount;
  if (amount.unit !== dddAmount.unit) return { reason: 'dimension_mismatch' };
  // A salt's mass counts as its moiety's (WHO DDDs are of the moiety); units and mmol do not change.
  const factor = amount.unit !== 'mg' || moiety === undefined ? 1 : moiety;
  if (typeof factor !== 'number') return factor;
  return (amount.value * factor) / (ddd.value * dddAmount.factor);
}

/** `100 IE/ml`, `40 mg/0,4 ml`, `250mg/5ml` in a name: amount per volume or mass. */
const CONCENTRATION = /(\d[\d'’.,]*)\s*([\p{L}µ.]+)\s*\/\s*(\d+(?:[.,]\d+)?\s*)?(ml|g)\b/giu;

/**
 * A strength per unit with the concentration the product name or the pack text gives it: a
 * register that stores `100 IE` for `Inj Lös 100 IE/ml` in a 10 ml vial means 100 IE per ml,
 * and so does a Swiss pack text `Inj Susp 100 E/ml Durchstf 10 ml` beside a product name
 * without the concentration (1 000 U in the vial, not 100).
 */
function withNamedConcentration(strength: Strength, ...texts: Array<string | null | undefined>): Strength {
  const text = texts.filter(Boolean).join(' ');
  if (strength.per || !text) return strength;
  for (const m of text.matchAll(CONCENTRATION)) {
    const named = parseStrengthText(m[0]);
    if ('reason' in named || !named.per) continue;
    const same = named.amount.unit === strength.amount.unit && Math.abs(named.amount.value - strength.amount.value) < 1e-9 * strength.amount.value;
    if (same) return named;
  }
  return strength;
}

function strengthOf(p: PackInput): Strength | { reason: ReasonCode } {
  const given = parseStrength(p.strengthValue, p.strengthUnit);
  const read = !('reason' in given) || !p.strengthText ? given : parseStrengthText(p.strengthText);
  const strength = 'reason' in read ? given : read;
  if (!('reason' in strength)) return withNamedConcentration(strength, p.name, p.description);
  const missing = (p.strengthValue === null || p.strengthValue === undefined) && !p.strengthText;
  return { reason: missing ? 'strength_missing' : 'strength_unreadable' };
}

/** DDDs in the pack (trying the stored content, then the parsed pack text), or the first reason. */
export function packDdds(p: PackInput): { ddds: number } | { reason: ReasonCode } {
  const ddds = p.ddd === null ? [] : Array.isArray(p.ddd) ? p.ddd : [p.ddd];
  if (ddds.length === 0) return { reason: p.dddReason ?? 'no_ddd' };
  const strength = strengthOf(p);
  // Stored units first; the text when they cannot carry the arithmetic. A nested FDA text
  // (`10 VIAL in 1 CARTON > 2 mL in 1 VIAL`) goes first: adapters store its innermost level only.
  const stored = storedContent(p.units, p.unit, p.quantity);
  const described = describedContent(p.description);
  const ordered = p.description?.includes('>') ? [described, stored] : [stored, described];
  const contents = ordered.filter((c): c is PackContent => c !== null);
  if (contents.length === 0) return { reason: 'pack_size_unknown' };
  let reason: ReasonCode | null = null;
  for (const content of contents) {
    for (const ddd of ddds) {
      const result = dddsIn('reason' in strength ? null : strength, content, ddd, p.moietyFactor);
      if (typeof result === 'number' && Number.isFinite(result) && result > 0) return { ddds: result };
      const why = typeof result === 'number' ? 'empty_pack' : result.reason === 'no_strength' ? ('reason' in strength ? strength.reason : 'strength_missing') : result.reason;
      reason ??= why;
    }
  }
  return { reason: reason ?? 'pack_size_unknown' };
}

/** Units for the per-unit basis: the stored count, else the parsed pack text's count. */
function unitCount(p: PackInput): number | null {
  if (p.units !== null && p.units > 0) return p.units;
  return parsePackSize(p.description)?.count ?? null;
}

/** The pack's price per DDD and basis. */
export function pricePerDdd(p: PackInput): PackPrice {
  if (p.priceUsd === null) return { basis: 'none', pricePerDddUsd: null, ddds: null, unitPriceUsd: null, packPriceUsd: null, reason: 'no_price' };
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
