/**
 * Strengths as registers write them, reduced to arithmetic: an amount of substance in one
 * of three WHO DDD dimensions (mass in mg, units in U, mmol), optionally per a volume, a
 * mass, a dose or an hour. Mass is g/mg/µg/mcg/ug/ng in any language; units are IE (DE),
 * UI (FR), U, IU, `[iU]` and `[USP'U]` (FDA), with thousands (`TU`, `kIE`) and millions
 * (`MU`, `Mio. IE`) as in the DDD table. Numbers take French and German decimal commas and
 * thousands spaces (`1 000 UI/ml`, `0,5 mg/dose`).
 */
import { normalisePackUnit } from './pack-units.ts';

/** Dimensions a DDD is given in (WHO units `U`, `TU`, `MU` all fold to U). */
export type AmountUnit = 'mg' | 'U' | 'mmol';

/** What a strength is given per. */
export type PerUnit = 'ml' | 'g' | 'dose' | 'unit' | 'h' | 'percent_base';

export interface Strength {
  /** Amount of substance, in mg, U or mmol. */
  amount: { value: number; unit: AmountUnit };
  /** Absent: per dosage unit (tablet, vial ...). `percent_base`: per 100 ml or 100 g. */
  per?: { value: number; unit: PerUnit };
}

/** A strength that could not be read, and why. */
export interface Unreadable { reason: string }

const MASS: Record<string, number> = {
  kg: 1e6, g: 1000, gr: 1000, gram: 1000, grams: 1000, gramm: 1000, gramme: 1000, grammes: 1000, grammi: 1000, gramos: 1000,
  mg: 1, milligram: 1, milligrams: 1, milligramm: 1, milligramme: 1, milligrammes: 1, miligramos: 1,
  mcg: 0.001, µg: 0.001, μg: 0.001, ug: 0.001, microgram: 0.001, micrograms: 0.001, microgramme: 0.001, microgrammes: 0.001,
  mikrogramm: 0.001, microgrammi: 0.001, microgramos: 0.001, ng: 1e-6, nanogram: 1e-6, nanograms: 1e-6, nanogrammes: 1e-6,
};

const UNITS: Record<string, number> = {
  u: 1, iu: 1, ui: 1, ie: 1, e: 1, unit: 1, units: 1, unite: 1, unites: 1, unita: 1, unidades: 1, einheit: 1, einheiten: 1,
  uspu: 1, usp: 1, tu: 1e3, kiu: 1e3, kie: 1e3, kui: 1e3, tsdie: 1e3, mu: 1e6, miu: 1e6, mui: 1e6, mie: 1e6,
  mioie: 1e6, mioiu: 1e6, mioui: 1e6, miou: 1e6, mioe: 1e6, millionie: 1e6, millionsui: 1e6, millionui: 1e6,
  millionsdui: 1e6, milliondui: 1e6,
};

function fold(unit: string): string {
  return unit.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[\s.[\]'’]/g, '');
}

/**
 * An amount unit (`mg`, `µg`, `UI`, `Mio. IE`, `TU`, `mmol`) → its dimension and factor;
 * null when it is none (`ml`, `%`, `tablet`). Also reads the DDD table's units.
 */
export function amountUnit(unit: string): { unit: AmountUnit; factor: number } | null {
  const key = fold(unit);
  // The micro sign (U+00B5) and the Greek mu (U+03BC) are both written.
  const mass = MASS[key] ?? MASS[key.replace(/^μ/, 'µ')];
  if (mass !== undefined) return { unit: 'mg', factor: mass };
  const units = UNITS[key];
  if (units !== undefined) return { unit: 'U', factor: units };
  if (key === 'mmol') return { unit: 'mmol', factor: 1 };
  if (key === 'mol') return { unit: 'mmol', factor: 1000 };
  return null;
}

/**
 * A number as registers print it: `0,5`, `2.5`, `1 000` and `1'000` (thousands), `1.000.000`,
 * `1.234,5`; null when it is not one. One comma alone is a decimal comma (FR, DE).
 */
export function parseLocaleNumber(raw: string): number | null {
  let s = raw.trim().replace(/[\u00a0\u202f]/g, ' ');
  if (/^\d{1,3}(?:[ '’]\d{3})+(?:[.,]\d+)?$/.test(s)) s = s.replace(/[ '’]/g, '');
  if (/^\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?$/.test(s) || (s.includes('.') && s.includes(',') && s.lastIndexOf(',') > s.lastIndexOf('.'))) {
    s = s.replace(/\./g, '');
  }
  if (/^\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?$/.test(s) || (s.includes('.') && s.includes(','))) s = s.replace(/,/g, '');
  s = s.replace(',', '.');
  return /^\d+(?:\.\d+)?$/.test(s) ? Number(s) : null;
}

/** The denominator of `mg/5 ml`, `UI/ml`, `mcg/dose`, `mg/1`, `µg/h`, `mg/24 h`, `mg/g`. */
function readPer(raw: string): Strength['per'] | Unreadable | undefined {
  const text = raw.trim();
  if (text === '' || text === '1') return undefined;
  const m = /^(\d[\d\s.,']*)?\s*(.*)$/.exec(text)!;
  const value = m[1] ? parseLocaleNumber(m[1]) : 1;
  const word = m[2]!.trim();
  if (value === null || value <= 0) return { reason: `cannot read the denominator "${raw}"` };
  if (word === '') return value === 1 ? undefined : { reason: `cannot read the denominator "${raw}"` };
  if (/^(h|hr|hrs|hours?|heures?|std|stunden?|ore)$/i.test(word)) return { value, unit: 'h' };
  const unit = normalisePackUnit(word);
  if (unit?.kind === 'measure') return { value: value * unit.factor, unit: unit.unit === 'ml' ? 'ml' : 'g' };
  if (unit?.unit === 'dose') return { value, unit: 'dose' };
  if (unit) return value === 1 ? { value: 1, unit: 'unit' } : { reason: `strength is per ${value} ${word}` };
  return { reason: `cannot read the denominator "${raw}"` };
}

/**
 * A strength from a value and its unit (`20`, `mg`; `250`, `mg/5mL`; `100`, `[iU]/mL`;
 * `1`, `%`), or the reason it cannot take part in arithmetic.
 */
export function parseStrength(value: number | null | undefined, unit: string | null | undefined): Strength | Unreadable {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return { reason: 'no strength value' };
  if (!unit || unit.trim() === '') return { reason: 'no strength unit' };
  const text = unit.trim();
  if (text === '%' || /^%\s*(w\/[vw]|m\/[vm])?$/i.test(text)) {
    // w/v and w/w percentages: g per 100 ml or per 100 g.
    return { amount: { value: value * 1000, unit: 'mg' }, per: { value: 100, unit: 'percent_base' } };
  }
  const slash = text.indexOf('/');
  const numerator = slash < 0 ? text : text.slice(0, slash);
  const amount = amountUnit(numerator);
  if (!amount) return { reason: `strength unit "${numerator.trim()}" is not a mass, units or mmol` };
  const per = slash < 0 ? undefined : readPer(text.slice(slash + 1));
  if (per && 'reason' in per) return per;
  const strength: Strength = { amount: { value: value * amount.factor, unit: amount.unit } };
  if (per) strength.per = per;
  return strength;
}

/**
 * A strength written out (`1 000 UI/ml`, `0,5 mg/dose`, `500 mg/5 ml`, `20 mg`), also with its
 * reference in words as the BDPM writes it (`5 mg pour 1 ml`, `1 000 mg pour un comprimé`).
 */
export function parseStrengthText(text: string | null | undefined): Strength | Unreadable {
  const written = (text ?? '').replace(/\s+(?:pour|per|pro|par|je)\s+(?:(?:un|une|one|ein|eine|1)\s+)?/i, '/');
  const m = /^\s*(\d[\d\s\u00a0\u202f.,'’]*)\s*(\D.*)$/.exec(written);
  if (!m) return { reason: 'no strength text' };
  return parseStrength(parseLocaleNumber(m[1]!), m[2]!);
}
