/**
 * A strength as the Dutch and Irish registers write it beside a substance (`500 mg`,
 * `0,5 mg/ml`, `100 IE/ml`, `1 000 mg`): the leading number (decimal comma or point, spaced
 * thousands) and the unit that follows, with the text kept as written for display.
 */
import { parseLocaleNumber } from '../../../vocabulary/strength.ts';
import type { Ingredient } from '../snapshot.ts';

/** Value, unit and text of a written strength; only the text when no number leads it. */
export function strengthFields(text: string): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  const written = text.trim().replace(/\s+/g, ' ');
  if (written === '') return {};
  const m = /^(\d[\d\s.,]*?)\s*([a-zA-Zµμ%][^\s]*(?:\s*\/\s*\d*[.,]?\d*\s*[a-zA-Z]+)?)$/.exec(written);
  const value = m ? parseLocaleNumber(m[1]!) : null;
  if (!m || value === null) return { strength_text: written };
  return { strength_value: value, strength_unit: m[2]!.replace(/\s+/g, ''), strength_text: written };
}

/**
 * The strengths of several substances written in one field (`875 mg/125 mg`, `5 mg + 1000 mg`):
 * split where a separator is followed by a number, and only used when there is one part per
 * substance; a concentration such as `100 mg/5 ml` of one substance stays whole.
 */
export function splitStrengths(text: string, substances: number): string[] | null {
  const written = text.trim();
  if (written === '') return null;
  if (substances === 1) return [written];
  const parts = written.split(/\s*(?:\/|\+|;|,\s)\s*(?=\d)/).map((p) => p.trim()).filter(Boolean);
  // A volume is the denominator of a concentration (`100 mg/5 ml`), never a substance's strength.
  const strength = (p: string): boolean => /^\d/.test(p) && /[a-zA-Zµμ%]/.test(p) && !/^\d[\d.,\s]*m?l$/i.test(p);
  return parts.length === substances && parts.every(strength) ? parts : null;
}
