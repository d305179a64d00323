/**
 * Equivalence signatures of a product, stored so that "same substance" and "same medicine"
 * across countries are index lookups (`/v1/drugs/{id}/equivalents`):
 * - substance signature: the sorted, distinct active-moiety UNIIs joined with `+`;
 * - medicine signature: `moiety:strength` parts sorted and joined with `+`, then the
 *   normalised dose form and route: `362O9ITL9D:500mg|tablet|oral`.
 * Registers name forms and routes in their own language and abbreviations (`Filmtabl`,
 * `comprimé pelliculé`, `TABLET, FILM COATED`), so both are folded to one English term.
 */

/** One ingredient, already folded to its active moiety. */
export interface MoietyStrength {
  moiety: string;
  value: number | null;
  unit: string | null;
}

const FORM_MODIFIERS: ReadonlyArray<[RegExp, string]> = [
  [/efferv|brause/, 'effervescent'],
  [/orodispers|schmelz/, 'orodispersible'],
  [/gastro.?resist|magensaft|delayed.release/, 'gastro-resistant'],
  [/retard|prolong|extended|sustained|modified.release|\b(er|xr|sr|ret)\b/, 'prolonged-release'],
];

// Order matters: specific forms before the generic words they contain.
const BASE_FORMS: ReadonlyArray<[RegExp, string]> = [
  [/augentropf|collyre|eye drop|ophthalmic|oftalm/, 'eye drops'],
  [/nasenspray|spray nasal|nasal spray/, 'nasal spray'],
  [/inhal|aerosol/, 'inhalation'],
  [/transderm|pflaster|patch|cerott/, 'patch'],
  [/inject|injekt|\binj\b|iniett|infus|perfusion/, 'injection'],
  [/tabl|compr|\bcpr\b|tablet/, 'tablet'],
  [/kaps|caps|gelule/, 'capsule'],
  [/supp|zapf/, 'suppository'],
  [/sirup|sirop|syrup|scirop/, 'syrup'],
  [/susp/, 'suspension'],
  [/granul|\bgran\b/, 'granules'],
  [/creme|cream|crema/, 'cream'],
  [/salbe|pommade|ointment|unguent/, 'ointment'],
  [/\bgel\b/, 'gel'],
  [/tropf|goutte|drops|gocce|\bgtt\b/, 'drops'],
  [/lutsch|pastill|lozenge/, 'lozenge'],
  [/pulver|poudre|powder|polvere|\bplv\b/, 'powder'],
  [/losung|loesung|\blos\b|solution|soluzione|\bsol\b|liquid/, 'solution'],
];

const ROUTES: ReadonlyArray<[RegExp, string]> = [
  [/sublingu/, 'sublingual'],
  [/oral|per os|\bp\.?o\.?\b|einnehmen|buccal/, 'oral'],
  [/intraven|endoven|\bi\.?v\.?\b/, 'intravenous'],
  [/intramusc|\bi\.?m\.?\b/, 'intramuscular'],
  [/subcut|sous.cutan|sottocut|\bs\.?c\.?\b/, 'subcutaneous'],
  [/transderm/, 'transdermal'],
  [/cutan|dermal|topical|kutan|\blokal/, 'cutaneous'],
  [/rectal|rektal/, 'rectal'],
  [/vagin/, 'vaginal'],
  [/nasal/, 'nasal'],
  [/ophtalm|ophthalm|ocul|okul/, 'ophthalmic'],
  [/inhal|pulmon|respirat/, 'inhalation'],
  [/parenter/, 'parenteral'],
];

/** Routes implied by a form when the register states none. */
const ROUTE_OF_FORM: Record<string, string> = {
  tablet: 'oral', capsule: 'oral', syrup: 'oral', granules: 'oral', lozenge: 'oral', suppository: 'rectal',
  cream: 'cutaneous', ointment: 'cutaneous', gel: 'cutaneous', patch: 'transdermal', 'eye drops': 'ophthalmic',
  'nasal spray': 'nasal', inhalation: 'inhalation', injection: 'parenteral',
};

function plain(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Folds a register's dose form to one English term (`Filmtabl` → `tablet`); null when absent. */
export function normaliseDoseForm(raw: string | null | undefined): string | null {
  if (!raw || raw.trim() === '') return null;
  const text = plain(raw);
  const base = BASE_FORMS.find(([re]) => re.test(text))?.[1];
  if (!base) return text.replace(/\s+/g, ' ').trim();
  const modifier = FORM_MODIFIERS.find(([re]) => re.test(text))?.[1];
  return modifier && (base === 'tablet' || base === 'capsule') ? `${modifier} ${base}` : base;
}

/** Folds routes (possibly several, `;` or `,` separated) to sorted English terms; falls back on the form. */
export function normaliseRoute(raw: string | null | undefined, form: string | null): string | null {
  const parts = (raw ?? '').split(/[;,/]/).map((p) => plain(p).trim()).filter(Boolean);
  const routes = new Set(parts.map((p) => ROUTES.find(([re]) => re.test(p))?.[1] ?? p.replace(/\s+/g, ' ')));
  if (routes.size === 0) {
    // `prolonged-release tablet` takes the route of `tablet`.
    return form ? ROUTE_OF_FORM[form] ?? ROUTE_OF_FORM[form.split(' ').pop()!] ?? null : null;
  }
  return [...routes].sort().join(',');
}

/** Strength in a comparable unit: g and µg become mg, `mg/1` becomes `mg`. */
export function normaliseStrength(value: number | null, unit: string | null): string | null {
  if (value === null || !Number.isFinite(value)) return null;
  let u = plain(unit ?? '').replace(/\s+/g, '').replace(/\/1$/, '');
  let v = value;
  const [num = '', per] = u.split('/');
  const factor: Record<string, number> = { g: 1000, mg: 1, mcg: 0.001, µg: 0.001, ug: 0.001, microgrammes: 0.001, microgram: 0.001 };
  if (factor[num] !== undefined) {
    v = value * factor[num]!;
    u = per ? `mg/${per}` : 'mg';
  } else if (['ui', 'ie', 'iu', 'u'].includes(num)) {
    u = per ? `iu/${per}` : 'iu';
  }
  return `${Number(v.toPrecision(10))}${u}`;
}

/** Sorted distinct moieties joined with `+`; null for a product without ingredients. */
export function substanceSignature(ingredients: readonly MoietyStrength[]): string | null {
  const moieties = [...new Set(ingredients.map((i) => i.moiety))].sort();
  return moieties.length > 0 ? moieties.join('+') : null;
}

/** `moiety:strength` parts, dose form and route; null without ingredients. */
export function medicineSignature(ingredients: readonly MoietyStrength[], doseForm: string | null | undefined, route: string | null | undefined): string | null {
  if (ingredients.length === 0) return null;
  const parts = ingredients.map((i) => {
    const strength = normaliseStrength(i.value, i.unit);
    return strength ? `${i.moiety}:${strength}` : i.moiety;
  }).sort();
  const form = normaliseDoseForm(doseForm);
  return `${parts.join('+')}|${form ?? ''}|${normaliseRoute(route, form) ?? ''}`;
}
