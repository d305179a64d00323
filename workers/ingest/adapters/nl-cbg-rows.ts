/**
 * One row of the CBG-MEB Geneesmiddeleninformatiebank export (`metadata.csv`, pipe separated)
 * as a product: the registration number (RVG/RVH, or the EU number of a centrally authorised
 * product), the name, holder, dose form, route, ATC code, active substances (`#` separated,
 * Dutch names) with the strength of the POTENTIE column, the afleverstatus (UR, UA, UAD, AV)
 * and the registration date. The file lists registrations, not packs: products carry no packs.
 */
import { normaliseCbgMebId, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Identifier, Ingredient, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { isoFromDayFirst, provisionalNameKey } from './common.ts';
import { splitStrengths, strengthFields } from './strength-text.ts';

/** A row read through the header: `get` takes a column name in its normalised form. */
export interface NlRow {
  line: number;
  get(column: string): string;
}

/** Substances named so far, keyed by their provisional key. */
export type NlSubstances = Map<string, SubstanceEntry>;

/**
 * Column names without case, spaces or underscores: releases wrote `WERKZAMESTOFFEN` and
 * `WERKZAME_STOFFEN`, `FARMACEUTISCHEVORM` and `Farmaceutische vorm`.
 */
export function columnKey(raw: string): string {
  return raw.replace(/^\ufeff/, '').toUpperCase().replace(/[^A-Z]/g, '');
}

/** The register escapes a `;` inside a field as `$SEMICOLON$` (several routes, several statuses). */
function unescape(raw: string): string {
  return raw.replace(/\$SEMICOLON\$/g, ';').trim();
}

/** Dispensing statuses of the Geneesmiddelenwet, by code. */
const AFLEVERSTATUS = new Set(['UR', 'UA', 'UAD', 'AV']);

/**
 * The statuses as the export spells them out in words (`Uitsluitend recept`, `Algemene verkoop
 * [conform voorwaarden CBG AV-lijst …]`), longest first so `… apotheek of drogist` is not read as `… apotheek`.
 */
const AFLEVERSTATUS_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^uitsluitend recept/i, 'UR'],
  [/^uitsluitend apotheek of drogist/i, 'UAD'],
  [/^uitsluitend apotheek/i, 'UA'],
  [/^algemene verkoop/i, 'AV'],
];

/** Codes of an afleverstatus as written (`UR`, `UR - Uitsluitend recept`, `UA;UAD`, `Uitsluitend recept`). */
function dispensingCodes(raw: string): string[] {
  return raw.split(';').map((part) => {
    const text = part.trim();
    const worded = AFLEVERSTATUS_WORDS.find(([words]) => words.test(text));
    return worded ? worded[1] : text.split(/[\s-]/)[0]!.toUpperCase();
  }).filter((c) => AFLEVERSTATUS.has(c));
}

/** ISO date of `2010-03-01`, `01-03-2010`, `01/03/2010` or `2010/03/01` (releases differ); null otherwise. */
export function nlDate(raw: string): string | null {
  const text = raw.trim().slice(0, 10);
  const iso = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(text);
  if (iso) return isoFromDayFirst(`${iso[3]}/${iso[2]}/${iso[1]}`);
  return isoFromDayFirst(text.replace(/-/g, '/'));
}

interface Registration {
  key: string;
  identifiers: Identifier[];
  /** The registration a parallel import refers to (`RVG 110481//18220` → 18220). */
  reference?: string;
}

/** The product's identity from REGISTRATIENUMMER and SOORT; a message when unreadable. */
function registration(rawNumber: string, rawKind: string): Registration | string {
  const number = rawNumber.replace(/\s+/g, ' ').trim();
  if (number === '') return 'no REGISTRATIENUMMER';
  const eu = normaliseIdentifier('eu_number', number) ?? /^EU\/[12]\/\d{2}\/\d{3,4}/i.exec(number.replace(/\s/g, ''))?.[0]?.toUpperCase();
  if (eu) {
    // A pack-level number (`EU/1/11/691/006`) also names its product, the EMA report's key.
    const product = /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(eu)![0];
    const identifiers: Identifier[] = [{ system: 'eu_number', code: eu }];
    if (product !== eu) identifiers.push({ system: 'eu_number', code: product });
    return { key: eu, identifiers };
  }
  const m = /^(RV[GH])?\s*(\d{1,6})\s*(?:(?:\/\/|=)\s*(?:RV[GH]\s*)?(\d{1,6}))?$/i.exec(number);
  const own = m ? normaliseCbgMebId(m[2]!) : null;
  if (!m || !own) return `REGISTRATIENUMMER "${rawNumber}" is neither an RVG/RVH nor an EU number`;
  const kind = (m[1] ?? rawKind.trim().toUpperCase()).toUpperCase() === 'RVH' ? 'RVH' : 'RVG';
  const out: Registration = { key: `${kind} ${own}`, identifiers: [{ system: 'cbg_meb_id', code: own }] };
  if (m[3]) out.reference = normaliseCbgMebId(m[3])!;
  return out;
}

/** Ingredients from WERKZAMESTOFFEN (`#` separated) with the POTENTIE strengths where they line up. */
function ingredients(row: NlRow, substances: NlSubstances): Ingredient[] {
  const names = row.get('WERKZAMESTOFFEN').split('#').map((n) => n.replace(/\s+/g, ' ').trim())
    .filter((n) => n !== '' && !/^geen/i.test(n));
  const strengths = splitStrengths(unescape(row.get('POTENTIE')), names.length);
  return names.map((name, i) => {
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, names: { nl: name }, provisional: true });
    return { unii: key, ...(strengths ? strengthFields(strengths[i]!) : {}) };
  });
}

/** ATC code of `A10BA02 - metformine` (the register appends the Dutch label); undefined when absent or malformed. */
function atcOf(raw: string): string | undefined {
  const code = raw.split(' - ')[0]!.trim().toUpperCase();
  return /^[A-Z]\d{2}[A-Z]{2}\d{2}$/.test(code) ? code : undefined;
}

/** Facts with no field of their own, kept under their register names. */
function attributes(row: NlRow, reg: Registration): Record<string, string> {
  const out: Record<string, string> = {};
  const keep = (name: string, value: string): void => { if (value !== '') out[name] = value; };
  keep('afleverstatus', unescape(row.get('AFLEVERSTATUS')));
  keep('procedurenummer', row.get('PROCEDURENUMMER'));
  keep('potentie', unescape(row.get('POTENTIE')));
  keep('atc_naam', row.get('ATC').split(' - ').slice(1).join(' - ').trim());
  if (reg.reference) keep('referentie_rvg', reg.reference);
  return out;
}

/** The product of one row, or why the row cannot be used. */
export function readNlProduct(row: NlRow, substances: NlSubstances): ProductEntry | string {
  const reg = registration(row.get('REGISTRATIENUMMER'), row.get('SOORT'));
  if (typeof reg === 'string') return reg;
  const name = row.get('PRODUCTNAAM').replace(/\s+/g, ' ');
  if (name === '') return `${reg.key}: no PRODUCTNAAM`;
  const product: ProductEntry = {
    key: reg.key, country: 'NL', product_name: name, identifiers: reg.identifiers, ingredients: ingredients(row, substances), packs: [],
  };
  const set = <K extends keyof ProductEntry>(field: K, value: ProductEntry[K] | undefined | null | ''): void => {
    if (value !== undefined && value !== null && value !== '') product[field] = value;
  };
  set('atc_code', atcOf(row.get('ATC')));
  set('dose_form', row.get('FARMACEUTISCHEVORM'));
  set('route', unescape(row.get('TOEDIENINGSWEG')));
  set('holder', row.get('HANDELSVERGUNNINGHOUDER'));
  const date = row.get('INSCHRIJVINGSDATUM');
  if (date !== '' && !nlDate(date)) return `${reg.key}: INSCHRIJVINGSDATUM "${date}" is not a date`;
  set('authorised_on', nlDate(date));
  set('dispensing_category', dispensingCodes(unescape(row.get('AFLEVERSTATUS'))).join(';'));
  if (/^(ja|j|yes|y|true|1)$/i.test(row.get('AANVULLENDEMONITORING'))) product.additional_monitoring = true;
  const extra = attributes(row, reg);
  if (Object.keys(extra).length > 0) product.attributes = extra;
  return product;
}
