/**
 * The WHO DDD route (`O`, `P`, `R`, `TD`, ...) of a product as registers describe it: the
 * route in any language or case (`ORAL`, `orale`, `zum Einnehmen`, `intraveineuse`), else
 * the dose form, else the pack unit, else the only route the ATC code has a DDD for. The
 * Swiss SL states no route at all, so without these fallbacks no Swiss pack reached a DDD.
 */
import type { PackUnit } from '../catalogue/pack-units.ts';

/** Routes and forms with no systemic DDD (skin, eye, ear): recognised, so no DDD is guessed. */
const LOCAL = 'local';

const ROUTE_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/sublingu|sublingal/, 'SL'],
  [/transderm|transdermi/, 'TD'],
  [/inhal|pulmon|respirat/, 'Inhal'],
  [/nasal|nasale/, 'N'],
  [/rect|rekt/, 'R'],
  [/vagin/, 'V'],
  [/parenter|intraven|endoven|intramusc|subcut|sous.cutan|sottocut|subkutan|\binj|infus|perfus|\bi\.?[vm]\.?\b|\bs\.?c\.?\b/, 'P'],
  [/oral|per os|einnehm|bucc|\bp\.?o\.?\b|orale/, 'O'],
  // After P and TD, which own `sous-cutanée`, `subkutan` and `transdermal`.
  [/cutan|dermal|topi|kutan|ophthalm|ophtalm|ocul|okul|auricul|otic|conjonct|intravitr/, LOCAL],
];

const FORM_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/creme|cream|crema|salbe|pommade|ointment|unguent|\bgel\b|augen|collyre|eye|ophthalm|ohren|shampoo|lotion/, LOCAL],
  [/sublingu|lingual/, 'SL'],
  [/transderm|pflaster|patch|cerott|dispositif/, 'TD'],
  [/inhal|aerosol|turbuhaler|diskus/, 'Inhal'],
  [/nasenspray|nasal/, 'N'],
  [/supp|zapf|rectal|rektal/, 'R'],
  [/vagin|ovul|pessar/, 'V'],
  [/inj|infus|perfus|iniett|durchst|ampul|ampoul|fiala|vial|spritze|syringe|seringue|\bpen\b|stylo/, 'P'],
  [/tabl|compr|tablet|kaps|caps|gelul|sirup|sirop|syrup|drag|granul|sachet|beutel|lutsch|lozenge|oral|suspens|trinkl|tropfen|gouttes buvables|buvable/, 'O'],
];

const UNIT_ROUTE: Partial<Record<PackUnit, string>> = {
  tablet: 'O', capsule: 'O', sachet: 'O', lozenge: 'O', suppository: 'R', pessary: 'V', patch: 'TD',
  vial: 'P', ampoule: 'P', syringe: 'P', pen: 'P', cartridge: 'P', inhaler: 'Inhal',
};

function plain(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function byWords(text: string | null, table: ReadonlyArray<[RegExp, string]>): string[] {
  if (!text) return [];
  return text.split(/[;,/]| and | et | und /).map(plain)
    .map((part) => table.find(([re]) => re.test(part))?.[1]).filter((r): r is string => r !== undefined);
}

/** The WHO route codes to try for a product, best first, among those with a DDD. */
export function whoRoutes(route: string | null, doseForm: string | null, unit: PackUnit | null, available: readonly string[]): string[] {
  const has = (r: string): boolean => available.includes(r);
  // A route or form that is recognised decides, even when its DDD is missing.
  const fromRoute = byWords(route, ROUTE_WORDS);
  if (fromRoute.length) return [...new Set(fromRoute.filter(has))];
  const fromForm = byWords(doseForm, FORM_WORDS);
  if (fromForm.length) return [...new Set(fromForm.filter(has))];
  const fromUnit = unit ? UNIT_ROUTE[unit] : undefined;
  if (fromUnit) return has(fromUnit) ? [fromUnit] : [];
  const distinct = [...new Set(available)];
  return distinct.length === 1 ? distinct : [];
}
