/**
 * What a German product text says when a PZN list has no columns for it (`Ibuprofen 400 mg
 * Filmtabletten 30 St N1`, `IBUPROFEN AL 400 FTA 50 ST N2`): the strength (`400 mg`, `5 mg/ml`,
 * `1.000 I.E.`), the dose form (a German form word such as `Filmtabletten`, `Brausetabletten`,
 * `Nasenspray`, or an IFA abbreviation such as `FTA`, `BTA`, `HKP`) and the Normgröße (N1 to N3,
 * the statutory pack-size class). The pack size itself is read by the catalogue's pack grammar
 * (vocabulary/pack-size.ts). No substance is taken from a name: a brand (`Aspirin`)
 * would become one.
 */

/** `400 mg`, `5 mg/ml`, `0,5 mg/Hub`, `1.000 I.E.`, `2 %`: the first strength of a text, as written (spaces normalised). */
export function strengthInText(text: string): string | null {
  const m = /(?<![\w,.])(\d{1,3}(?:\.\d{3})+|\d+(?:[.,]\d+)?)\s*(mg|µg|mcg|ug|g|I\.\s?E\.|IE|Mio\.?\s?I\.\s?E\.|%)(?:\s*\/\s*((?:\d+(?:[.,]\d+)?\s*)?(?:ml|g|h|Hub|Dosis|Sprühstoß|24\s?h)))?(?![\p{L}\d])/iu.exec(text);
  if (!m) return null;
  return `${m[1]} ${m[2]!.replace(/\s+/g, '')}${m[3] ? `/${m[3].replace(/\s+/g, '')}` : ''}`;
}

/** German dose-form words, matched as a whole word or the end of a compound (`Retardtabletten`, `Augentropfen`). */
const FORM_WORD = /(?<![\p{L}])(\p{L}*(?:tabletten|tablette|kapseln|kapsel|dragees|tropfen|lösung|loesung|suspension|emulsion|spray|salbe|creme|gel|zäpfchen|suppositorien|pflaster|granulat|pulver|saft|sirup|pastillen|ampullen|konzentrat|aerosol|inhalat))(?![\p{L}])/iu;
/** IFA Darreichungsform abbreviations as lists print them in names (upper case only, so words are not mistaken). */
const IFA_FORMS = new Set(['TAB', 'FTA', 'BTA', 'RTA', 'RET', 'SMT', 'KTA', 'LTA', 'HKP', 'WKP', 'KAP', 'TRO', 'SAF', 'SIR', 'LSG', 'SUS', 'SAL', 'CRE', 'GEL', 'SUP', 'PFL', 'GRA', 'PUL', 'AMP', 'SPR', 'DOS', 'ILO', 'IFK', 'EMU']);

/** The dose form a product text names, as written; null when it names none. */
export function doseFormInText(text: string): string | null {
  const word = FORM_WORD.exec(text);
  if (word) return word[1]!;
  const abbreviation = text.split(/\s+/).find((t) => IFA_FORMS.has(t));
  return abbreviation ?? null;
}

/** The Normgröße (`N1`, `N2`, `N3`) a text gives; null when none. */
export function normSizeInText(text: string): string | null {
  return /(?<![\p{L}\d])(N[123])(?![\p{L}\d])/u.exec(text)?.[1] ?? null;
}

/** A trailing pack quantity (`30 St`, `5X10 St`, `100 ml`, `; 100 g`), with the Normgröße after it. */
const TRAILING_PACK = /[\s,;]+((?:\d+(?:[.,]\d+)?\s*[xX×]\s*)*\d+(?:[.,]\d+)?\s*(?:St(?:ck|ück|k)?|ml|l|g|kg|Btl|Beutel|Amp|Ampullen|Kps|Tbl|Dosen|Hub|Pfl|Pflaster|Sachets)\.?(?:\s+N[123])?)\s*$/iu;

/** A product text cut into the product (`Ibuprofen AbZ 400 mg Filmtabletten`) and its pack (`30 St N1`); pack null when the text ends in none. */
export function splitPackText(text: string): { product: string; pack: string | null } {
  const m = TRAILING_PACK.exec(text);
  if (!m || m.index === 0) return { product: text.trim(), pack: null };
  return { product: text.slice(0, m.index).trim(), pack: m[1]!.trim() };
}

/** One active substance a German text names with its strength (`Allopurinol 100 mg`). */
export interface TextIngredient {
  name: string;
  /** As written (`100 mg`, `1000 I.E.`); null when the text gives none. */
  strength: string | null;
  value?: number;
  unit?: string;
}

/** `100 mg` → 100, `mg`; `1.000 I.E.` → 1000, `I.E.`; `0,5 mg/ml` → 0.5, `mg/ml`. */
export function strengthParts(strength: string): { value: number; unit: string } | null {
  const m = /^(\d{1,3}(?:\.\d{3})+|\d+(?:[.,]\d+)?)\s*(\S.*)$/.exec(strength.trim());
  if (!m) return null;
  const number = /^\d{1,3}(?:\.\d{3})+$/.test(m[1]!) ? m[1]!.replace(/\./g, '') : m[1]!.replace(',', '.');
  const value = Number(number);
  return Number.isFinite(value) && value > 0 ? { value, unit: m[2]!.replace(/\s+/g, '') } : null;
}

/**
 * The substances of a combination as German lists write it (`Allopurinol 100 mg + Benzbromaron
 * 20 mg`), each with its strength. Only a text of at least two `+`-joined parts that each end in
 * a strength counts: a brand name (`Aspirin plus C`) never becomes a substance. Null otherwise.
 */
export function combinationInText(text: string): TextIngredient[] | null {
  const parts = text.split(/\s\+\s/);
  if (parts.length < 2) return null;
  // A product name goes on after the last strength with its dose form (`… Benzbromaron 20 mg Tabletten`).
  const last = parts[parts.length - 1]!.trim();
  const form = doseFormInText(last);
  if (form && last.endsWith(form)) parts[parts.length - 1] = last.slice(0, -form.length);
  const out: TextIngredient[] = [];
  for (const part of parts) {
    // The name, then the strength at the end of the part (`Benzbromaron 20 mg`, `Epoetin alfa 1000 I.E.`).
    const m = /^(\p{L}.*?)\s+(\d[\d.,]*\s*\S+)$/u.exec(part.trim());
    const strength = m ? strengthInText(m[2]!) : null;
    const parsed = strength ? strengthParts(strength) : null;
    if (!m || !strength || !parsed) return null;
    out.push({ name: m[1]!, strength, ...parsed });
  }
  return out;
}
