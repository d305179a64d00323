/**
 * Reading helpers for SAM v2 content in its two layouts. The export (FAMHP authentic source)
 * keeps each entity's facts (AMP, AMPP, DMPP, component, ingredient) in dated `Data` slices
 * (`from`, optional `to`), names attributes in camel case (`code`, `ctiExtended`) and writes
 * texts as `Fr`, `Nl`, `De`, `En` children. The DICS web service (protocol v5) answers with the
 * slice valid on its search date: facts directly under the entity, validity as `StartDate` /
 * `EndDate`, attributes in Pascal case (`Code`, `CtiExtended`) and texts as
 * `<Text xml:lang="nl">`. The helpers read both, so one builder serves both layouts.
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

/** An attribute in either layout: `code` in the export, `Code` in a DICS answer. */
export function attr(element: XmlElement | undefined, name: string): string {
  return attrOf(element, name) || attrOf(element, name.charAt(0).toUpperCase() + name.slice(1));
}

/**
 * Every `Data` slice of an entity, oldest first. An entity without `Data` children (a DICS
 * answer) is its own one slice, valid from its `StartDate` to its `EndDate`.
 */
export function slices(entity: XmlElement | undefined): Slice[] {
  const data = childrenOf(entity, 'Data');
  if (entity && data.length === 0) return [{ data: entity, from: attrOf(entity, 'StartDate').slice(0, 10), to: attrOf(entity, 'EndDate').slice(0, 10) }];
  return data
    .map((d) => ({ data: d, from: attrOf(d, 'from').slice(0, 10), to: attrOf(d, 'to').slice(0, 10) }))
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
  const tagged = childrenOf(element, 'Text');
  for (const lang of SAM_LANGUAGES) {
    const raw = tagged.find((t) => attrOf(t, 'lang') === lang)?.text ?? textOf(element, lang.charAt(0).toUpperCase() + lang.slice(1));
    const value = raw.replace(/\s+/g, ' ').trim();
    if (value !== '') out[lang] = value;
  }
  return out;
}

/** The first text of a multilingual element in `order` ('' when it has none). */
export function firstText(element: XmlElement | undefined, order: readonly SamLanguage[] = SAM_LANGUAGES): string {
  const all = texts(element);
  for (const lang of order) if (all[lang]) return all[lang];
  // A text in no language (a DICS `PackDisplayValue`) is its own text.
  return element && element.children.length === 0 ? element.text.replace(/\s+/g, ' ').trim() : '';
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
