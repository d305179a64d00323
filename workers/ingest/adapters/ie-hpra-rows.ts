/**
 * One `Product` of the HPRA human medicines list as a product: the licence number (PA / PPA
 * for parallel imports, TR, HOR, or an EU number), name, holder, dosage form, routes, active
 * substances with strengths, ATC code, licence status, dispensing legal status and marketing
 * status. The list names each fact by element; element names changed between releases
 * (`LicenceNumber`/`PANumber`, `PAHolder`/`LicenceHolder` ...), so each field is read from the
 * first of its known names that the record carries.
 */
import { euNumberRange, normaliseIdentifier, normaliseIePaNumber } from '../../../vocabulary/codes.ts';
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
  status: ['RegistrationStatus', 'LicenceStatus', 'AuthorisationStatus', 'Status'],
  dispensing: ['DispensingLegalStatus', 'LegalStatus', 'SupplyStatus', 'DispensingStatus'],
  marketing: ['MarketInfo', 'MarketingStatus', 'Marketed'],
  date: ['AuthorisedDate', 'LicenceIssued', 'DateOfIssue', 'AuthorisationDate'],
  withdrawn: ['WithdrawalDate'],
  legalBasis: ['LegalBasis'],
} as const;
type Field = keyof typeof FIELDS;

/** What the list writes where it has no value yet (`*** AWAITING VALUE ***`): no value. */
const PLACEHOLDER = /^\*+\s*AWAITING VALUE\s*\*+$/i;

/** The list's registration status codes, in words. */
const STATUS_WORDS: Record<string, string> = { AU: 'authorised', WI: 'withdrawn', TP: 'transfer pending' };

/** The values of a field: the text of each element, or of each child of a wrapper element. */
function values(record: XmlElement, field: Field): string[] {
  for (const name of FIELDS[field]) {
    const found = childrenOf(record, name);
    if (found.length === 0) continue;
    const out = found.flatMap((e) => (e.children.length > 0 ? e.children.map((c) => c.text) : [e.text]))
      .map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t !== '' && !PLACEHOLDER.test(t));
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

/**
 * Identifiers of a licence number as published: PA, PPA, TR and HOR numbers (letter suffix
 * kept) under the HPRA system; an EU number, or each pack of an EU range
 * (`EU/1/20/1422/016-017`), with the product's own EU number after them.
 */
function licenceIds(raw: string): Identifier[] | string {
  const pa = normaliseIePaNumber(raw);
  if (pa) return [{ system: 'ie_pa_number', code: pa }];
  const packs = euNumberRange(raw) ?? [normaliseIdentifier('eu_number', raw)].filter((c): c is string => c !== null);
  if (packs.length === 0) return `licence number "${raw}" is not a PA, PPA, TR, HOR or EU number`;
  const product = /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(packs[0]!)![0];
  return [...packs, ...(packs.includes(product) ? [] : [product])].map((code) => ({ system: 'eu_number', code }));
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
  // `<ATCs>` lists the code at several levels (B05BB, B05BB01): the product's is the level-5 one.
  set('atc_code', values(record, 'atc').map((c) => c.toUpperCase()).find((c) => /^[A-Z]\d{2}[A-Z]{2}\d{2}$/.test(c)));
  set('dose_form', one(record, 'form'));
  set('route', values(record, 'routes').join(';'));
  set('holder', one(record, 'holder'));
  const date = one(record, 'date');
  if (date !== '' && !ieDate(date)) return `${licence}: authorisation date "${date}" is not a date`;
  set('authorised_on', ieDate(date));
  const status = STATUS_WORDS[one(record, 'status').toUpperCase()] ?? one(record, 'status').toLowerCase();
  set('authorisation_status', status);
  const marketing = one(record, 'marketing');
  if (status !== '' || marketing !== '') product.marketing_status = withdrawn(status, marketing) ? 'withdrawn' : 'active';
  set('dispensing_category', one(record, 'dispensing'));
  return withAttributes(product, record, licence, marketing);
}

/** Facts without a field of their own: parallel import, marketing as written, legal basis, withdrawal date. */
function withAttributes(product: ProductEntry, record: XmlElement, licence: string, marketing: string): ProductEntry | string {
  const attributes: Record<string, string | boolean> = {};
  if (licence.startsWith('PPA')) attributes.parallel_import = true;
  if (marketing !== '') attributes.marketing_status = marketing;
  if (one(record, 'legalBasis') !== '') attributes.legal_basis = one(record, 'legalBasis');
  const withdrawn = one(record, 'withdrawn');
  if (withdrawn !== '') {
    const on = ieDate(withdrawn);
    if (!on) return `${licence}: withdrawal date "${withdrawn}" is not a date`;
    attributes.withdrawn_on = on;
    product.marketing_status = 'withdrawn';
  }
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return product;
}
