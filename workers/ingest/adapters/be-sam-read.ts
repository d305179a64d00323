/**
 * Reading helpers for the Belgian SAM v2 export (FAMHP authentic source): every entity (AMP,
 * AMPP, DMPP, component, ingredient) keeps its facts in dated `Data` slices (`from`, optional
 * `to`), and texts come in four languages (`Fr`, `Nl`, `De`, `En` of the core namespace).
 */
import { attrOf, childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** Namespace of the export documents (root `ExportActualMedicines`, `ExportReimbursements` ...). */
export const SAM_EXPORT_NS = 'urn:be:fgov:ehealth:samws:v2:export';

/** The four languages of SAM texts, in the order a display name prefers them. */
export const SAM_LANGUAGES = ['nl', 'fr', 'de', 'en'] as const;
export type SamLanguage = (typeof SAM_LANGUAGES)[number];

/** A `Data` slice with its validity. */
export interface Slice {
  data: XmlElement;
  from: string;
  to: string;
}

/** Every `Data` slice of an entity, oldest first. */
export function slices(entity: XmlElement | undefined): Slice[] {
  return childrenOf(entity, 'Data')
    .map((data) => ({ data, from: attrOf(data, 'from').slice(0, 10), to: attrOf(data, 'to').slice(0, 10) }))
    .sort((a, b) => a.from.localeCompare(b.from));
}

/**
 * The slice valid on `day` (ISO date), else the latest one: an entity whose validity ended
 * still says what it last was (a revoked AMP keeps its name).
 */
export function currentSlice(entity: XmlElement | undefined, day: string): Slice | undefined {
  const all = slices(entity);
  return all.filter((s) => s.from <= day && (s.to === '' || s.to >= day)).at(-1) ?? all.at(-1);
}

/** The texts of a multilingual element by language (`Name` → { nl: …, fr: … }); empty ones left out. */
export function texts(element: XmlElement | undefined): Partial<Record<SamLanguage, string>> {
  const out: Partial<Record<SamLanguage, string>> = {};
  for (const lang of SAM_LANGUAGES) {
    const value = textOf(element, lang.charAt(0).toUpperCase() + lang.slice(1)).replace(/\s+/g, ' ');
    if (value !== '') out[lang] = value;
  }
  return out;
}

/** The first text of a multilingual element in `order` ('' when it has none). */
export function firstText(element: XmlElement | undefined, order: readonly SamLanguage[] = SAM_LANGUAGES): string {
  const all = texts(element);
  for (const lang of order) if (all[lang]) return all[lang];
  return '';
}

/** `true`/`false` element text as a boolean; undefined when absent. */
export function flag(element: XmlElement | undefined, name: string): boolean | undefined {
  const value = textOf(element, name).toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** An amount in EUR (`3.2`, `12.50`); null when absent or not a non-negative number. */
export function euro(element: XmlElement | undefined, name: string): number | null {
  const raw = textOf(element, name);
  if (!/^\d+(\.\d+)?$/.test(raw)) return null;
  return Math.round(Number(raw) * 100) / 100;
}

export { attrOf, childOf, childrenOf, textOf };
