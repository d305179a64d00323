/**
 * One `Product` of the HPRA human medicines list as a product: the licence number (PA / PPA
 * for parallel imports, TR, HOR, or an EU number), name, holder, dosage form, routes, active
 * substances with strengths, ATC code, licence status, dispensing legal status and marketing
 * status. The list names each fact by element; element names changed between releases
 * (`LicenceNumber`/`PANumber`, `PAHolder`/`LicenceHolder` ...), so each field is read from the
 * first of its known names that the record carries.
 */
import { normaliseIdentifier, normaliseIePaNumber } from '../../../resolvers/catalogue/codes.ts';
import type { Identifier, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { isoFromDayFirst, provisionalNameKey } from './common.ts';
import { splitStrengths, strengthFields } from './strength-text.ts';
import { childrenOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** Element names of each field, newest first. */
const FIELDS = {
  licence: ['LicenceNumber', 'LicenseNumber', 'PANumber', 'AuthorisationNumber'],
  name: ['ProductName', 'TradeName', 'Name'],
  holder: ['PAHolder', 'LicenceHolder', 'MAHolder', 'AuthorisationHolder'],
  form: ['DosageForm', 'PharmaceuticalForm'],
  routes: ['RoutesOfAdministration', 'RouteOfAdministration', 'Route'],
  substances: ['ActiveSubstances', 'ActiveSubstance', 'ActiveIngredients'],
  strength: ['Strength', 'Strengths'],
  atc: ['ATCCode', 'ATCs', 'ATC', 'AtcCode'],
  status: ['LicenceStatus', 'AuthorisationStatus', 'Status'],
  dispensing: ['DispensingLegalStatus', 'LegalStatus', 'SupplyStatus', 'DispensingStatus'],
  marketing: ['MarketingStatus', 'Marketed'],
  date: ['AuthorisedDate', 'LicenceIssued', 'DateOfIssue', 'AuthorisationDate'],
} as const;
type Field = keyof typeof FIELDS;

/** The values of a field: the text of each element, or of each child of a wrapper element. */
function values(record: XmlElement, field: Field): string[] {
  for (const name of FIELDS[field]) {
    const found = childrenOf(record, name);
    if (found.length === 0) continue;
    const out = found.flatMap((e) => (e.children.length > 0 ? e.children.map((c) => c.text) : [e.text]))
      .map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t !== '');
    return [...new Set(out)];
  }
  return [];
}

const one = (record: XmlElement, field: Field): string => values(record, field)[0] ?? '';

/** ISO date of `2010-05-21`, `2010-05-21T00:00:00` or `21/05/2010`; null otherwise. */
export function ieDate(raw: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  return iso ? isoFromDayFirst(`${iso[3]}/${iso[2]}/${iso[1]}`) : isoFromDayFirst(raw.slice(0, 10));
}

/** Identifiers of a licence number: the lookup system for PA/PPA, EU numbers for central ones, `national` otherwise. */
function licenceIds(raw: string): Identifier[] | string {
  const pa = normaliseIePaNumber(raw);
  if (pa) return [{ system: 'ie_pa_number', code: pa }];
  const eu = normaliseIdentifier('eu_number', raw);
  if (eu) {
    const product = /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(eu)![0];
    return product === eu ? [{ system: 'eu_number', code: eu }] : [{ system: 'eu_number', code: eu }, { system: 'eu_number', code: product }];
  }
  // Traditional herbal (TR) and homeopathic (HOR) registrations share the PA layout.
  if (/^(TR|HOR)\s*\d{1,5}\/\d{1,4}(\/\d{1,4})?$/i.test(raw.trim())) return [{ system: 'national', code: normaliseIdentifier('national', raw)! }];
  return `licence number "${raw}" is not a PA, PPA, TR, HOR or EU number`;
}

/** EDQM unit words the list writes (`milligram(s)`, `unit(s)/millilitre`) as the usual symbols. */
const UNIT_WORDS: Array<[RegExp, string]> = [
  [/milligram\(s\)|milligrams?/gi, 'mg'], [/microgram\(s\)|micrograms?/gi, 'mcg'], [/gram\(s\)|grams?/gi, 'g'],
  [/international unit\(s\)/gi, 'IU'], [/unit\(s\)|units?/gi, 'U'], [/millilitre\(s\)|millilitres?/gi, 'ml'], [/litre\(s\)/gi, 'l'],
];

function withUnitSymbols(fields: ReturnType<typeof strengthFields>): ReturnType<typeof strengthFields> {
  if (!fields.strength_unit) return fields;
  const unit = UNIT_WORDS.reduce((u, [word, symbol]) => u.replace(word, symbol), fields.strength_unit);
  return { ...fields, strength_unit: unit };
}

/** Active substances (English names) with the strengths of the Strength field where they line up. */
function ingredients(record: XmlElement, substances: Map<string, SubstanceEntry>): ProductEntry['ingredients'] {
  const names = values(record, 'substances');
  const strengths = splitStrengths(values(record, 'strength').join(' / '), names.length);
  return names.map((name, i) => {
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { en: name }, provisional: true });
    return { unii: key, ...(strengths ? withUnitSymbols(strengthFields(strengths[i]!)) : {}) };
  });
}

/** Withdrawn for a licence that no longer stands, or a product the holder does not market. */
function withdrawn(status: string, marketing: string): boolean {
  return /withdrawn|revoked|cancel|suspend|expired/i.test(status) || /^(not marketed|no|false)$/i.test(marketing);
}

/** The product of one record, or why it cannot be used. */
export function readIeProduct(record: XmlElement, substances: Map<string, SubstanceEntry>): ProductEntry | string {
  const licence = one(record, 'licence').replace(/\s+/g, '').toUpperCase();
  if (licence === '') return 'no licence number';
  const identifiers = licenceIds(licence);
  if (typeof identifiers === 'string') return identifiers;
  const name = one(record, 'name');
  if (name === '') return `${licence}: no product name`;
  const product: ProductEntry = { key: licence, country: 'IE', product_name: name, identifiers, ingredients: ingredients(record, substances), packs: [] };
  const set = <K extends keyof ProductEntry>(field: K, value: ProductEntry[K] | undefined | null | ''): void => {
    if (value !== undefined && value !== null && value !== '') product[field] = value;
  };
  const atc = one(record, 'atc').toUpperCase();
  set('atc_code', /^[A-Z]\d{2}[A-Z]{2}\d{2}$/.test(atc) ? atc : undefined);
  set('dose_form', one(record, 'form'));
  set('route', values(record, 'routes').join(';'));
  set('holder', one(record, 'holder'));
  const date = one(record, 'date');
  if (date !== '' && !ieDate(date)) return `${licence}: authorisation date "${date}" is not a date`;
  set('authorised_on', ieDate(date));
  const status = one(record, 'status');
  set('authorisation_status', status.toLowerCase());
  const marketing = one(record, 'marketing');
  if (status !== '' || marketing !== '') product.marketing_status = withdrawn(status, marketing) ? 'withdrawn' : 'active';
  set('dispensing_category', one(record, 'dispensing'));
  if (licence.startsWith('PPA')) product.attributes = { parallel_import: true };
  if (marketing !== '') product.attributes = { ...product.attributes, marketing_status: marketing };
  return product;
}
