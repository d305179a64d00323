/**
 * Product and pack names in each register's language and style: dose-form terms from the
 * curated EDQM-style vocabulary, decimal commas where the language uses them, upper-case
 * brands in France, "EFG" after Spanish generics and dm+d-style strengths in the UK.
 */
import type { Jurisdiction } from '../../workers/ingest/snapshot.ts';
import type { CuratedDoseForm } from './curated.ts';

const DECIMAL_POINT = new Set(['en', 'us']);

function formatNumber(value: number, lang: string): string {
  const text = String(value);
  return DECIMAL_POINT.has(lang) ? text : text.replace('.', ',');
}

function formatUnit(unit: string, lang: string): string {
  if (DECIMAL_POINT.has(lang)) return unit;
  return unit.replace(/^mcg/, 'µg').replace('/dose', lang === 'de' ? '/Dosis' : '/dose');
}

/** "500 mg", "875 mg/125 mg", "2,5 mg"; GB writes "500mg" as dm+d does. */
export function formatStrength(values: number[], unit: string, lang: string, country: Jurisdiction): string {
  const sep = country === 'GB' ? '' : ' ';
  const u = formatUnit(unit, lang);
  return values.map((v) => `${formatNumber(v, lang)}${sep}${u}`).join('/');
}

export function productName(
  country: Jurisdiction, lang: string, brand: string, strength: string, form: CuratedDoseForm, generic: boolean,
): string {
  const formName = form.names[lang] ?? form.names.en ?? '';
  switch (country) {
    case 'FR':
    case 'BE':
      return `${brand} ${strength}, ${formName}`;
    case 'ES':
      return `${brand} ${strength} ${formName}${generic ? ' EFG' : ''}`;
    default:
      return `${brand} ${strength} ${formName}`;
  }
}

const PIECES: Record<string, string> = {
  de: 'Stück', fr: 'unité(s)', it: 'unità', es: 'unidades', pt: 'unidades', nl: 'stuks',
  da: 'stk.', sv: 'st', nb: 'stk', fi: 'kpl', en: 'x', us: 'in 1',
};
const DOSES: Record<string, string> = {
  de: 'Dosen', fr: 'doses', it: 'dosi', es: 'dosis', pt: 'doses', nl: 'doses',
  da: 'doser', sv: 'doser', nb: 'doser', fi: 'annosta', en: 'doses', us: 'actuations',
};

/** Pack description, e.g. "Sortis 20 mg Filmtabletten, 100 Stück" or "... , 200 doses". */
export function packDescription(product: string, units: number, unit: string, lang: string): string {
  if (unit === 'ml' || unit === 'g') return `${product}, ${formatNumber(units, lang)} ${unit}`;
  if (unit === 'doses') return `${product}, ${units} ${DOSES[lang] ?? 'doses'}`;
  if (lang === 'en') return `${product}, ${units} ${unit}`;
  if (lang === 'us') return `${units} ${unit} in 1 ${unit === 'tablets' || unit === 'capsules' ? 'bottle' : 'carton'}, ${product}`;
  return `${product}, ${units} ${PIECES[lang] ?? ''}`.trimEnd();
}
