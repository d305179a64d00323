/**
 * German lists that carry PZNs, read by their header row: the Festbetrag overview
 * ("Festbetragsarzneimittel nach § 35 SGB V", published by the BfArM for the GKV-Spitzenverband:
 * Stufe, Festbetragsgruppe, Wirkstoff, Wirkstoffmenge 1 and 2, Packungsgröße, Darreichungsform,
 * Preis, Festbetrag, Differenz, Arzneimittelname, PZN, Stand) and price lists with the same kind
 * of columns but no Festbetrag (the GKV's list of co-payment-exempt medicines: PZN,
 * Arzneimittelname, Hersteller, Preis (AVP) ...), as CSV (`;`, `,` or tab, UTF-8 or
 * Windows-1252, German decimal commas), fixed-width text or xlsx (title rows above the header
 * are skipped; de-pzn-table.ts). The name column may be headed Arzneimittelname, Handelsname,
 * Bezeichnung, Artikelname ...
 * - A list without size, strength or dose-form columns has them read from the product text
 *   (`Ibuprofen 400 mg Filmtabletten 30 St N1`: de-product-text.ts and the catalogue's pack
 *   grammar); the pack part is cut off the product name so one product keeps its pack sizes.
 *
 * - Pack keyed by its PZN: old 7-digit PZNs (and numbers an export cut of their leading zeros)
 *   are padded to PZN8 and check-digit verified; a bad check digit is a row problem.
 * - Prices in EUR: the Festbetrag as kind `reimbursed`, the pharmacy retail price (AVP) as
 *   `public`, dated by the list's Stand where it gives one.
 * - Product: packs of one name, strength and dose form; the substance (Wirkstoff) as a
 *   provisional substance keyed by name; Festbetragsgruppe and Stufe as attributes.
 * - Source `de-festbetrag` for a Festbetrag list, `de-pzn` for a price list, so loading one
 *   never deletes the other's rows (the merge step links packs sharing a PZN).
 */
import { normalisePzn } from '../../../resolvers/catalogue/codes.ts';
import { parsePackSize } from '../../../resolvers/catalogue/pack-size.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import {
  FileRejectedError, ProblemLog, isoFromDayFirst, parseFrenchNumber, provisionalNameKey,
} from './common.ts';
import type { InputFile } from './common.ts';
import { doseFormInText, normSizeInText, splitPackText, strengthInText } from './de-product-text.ts';
import { readPznTable } from './de-pzn-table.ts';

export const DE_FESTBETRAG_SOURCE: SourceInfo = {
  id: 'de-festbetrag',
  name: 'GKV Arzneimittel-Festbeträge (BfArM Festbetragsarzneimittel)',
  country: 'DE',
  // Festbeträge change on the 1st and 15th of a month; a month without a sync is stale.
  refresh_interval_hours: 24 * 31,
  licence: 'Amtliches Werk (§ 5 UrhG), published by the BfArM for the GKV-Spitzenverband',
  url: 'https://www.bfarm.de/DE/Arzneimittel/Arzneimittelinformationen/Festbetraege-und-Zuzahlungen/_node.html',
};

export const DE_PZN_SOURCE: SourceInfo = {
  id: 'de-pzn',
  name: 'German PZN price list (AVP)',
  country: 'DE',
  refresh_interval_hours: 24 * 31,
  url: 'https://www.gkv-spitzenverband.de/',
};

/** Header names (compared lower case, single-spaced) of each field. */
const COLUMNS = {
  pzn: ['pzn', 'pharmazentralnummer', 'pzn8'],
  name: [
    'arzneimittelname', 'arzneimittel', 'handelsname', 'präparat', 'praeparat', 'präparatename', 'bezeichnung', 'produktname', 'artikelname',
    'artikelbezeichnung', 'produktbezeichnung', 'arzneimittelbezeichnung', 'handelsbezeichnung', 'name', 'artikel',
  ],
  substance: ['wirkstoff', 'wirkstoffe', 'wirkstoffname', 'wirkstoffbezeichnung'],
  strength1: ['wirkstoffmenge 1', 'wirkstoffmenge1', 'wirkstoffmenge', 'wirkstärke', 'wirkstaerke'],
  strength2: ['wirkstoffmenge 2', 'wirkstoffmenge2'],
  size: ['packungsgröße', 'packungsgroesse', 'packungsgrösse', 'pckg.-größe', 'menge', 'packungsinhalt', 'inhalt'],
  sizeUnit: ['einheit', 'packungseinheit', 'mengeneinheit'],
  normSize: ['normgröße', 'normgroesse', 'n-größe', 'ng', 'packungsgrößenkennzeichen'],
  form: ['darreichungsform', 'df'],
  price: ['preis', 'avp', 'apothekenverkaufspreis', 'preis (avp)', 'avp (eur)', 'apo-vk'],
  festbetrag: ['festbetrag', 'fb', 'festbetrag (eur)'],
  holder: ['hersteller', 'anbieter', 'pharmazeutischer unternehmer', 'pu'],
  group: ['festbetragsgruppe', 'gruppe'],
  stufe: ['stufe', 'festbetragsstufe'],
  stand: ['stand', 'gültig ab', 'gueltig ab'],
} as const;
type Field = keyof typeof COLUMNS;

interface Row {
  line: number;
  get(field: Field): string;
}

/** PZN of a cell: digits only, leading zeros an export dropped restored, check digit verified; null when invalid. */
export function pznOf(raw: string): string | null {
  const digits = raw.replace(/^PZN[\s-]?/i, '').replace(/[\s.]/g, '').replace(/,0+$/, '');
  if (!/^\d{1,8}$/.test(digits)) return null;
  return normalisePzn(digits.padStart(8, '0'));
}

function euro(raw: string): number | null {
  const value = parseFrenchNumber(raw.replace(/€|EUR/gi, ''));
  return value !== null && value >= 0 ? Math.round(value * 100) / 100 : null;
}

interface Context {
  file: string;
  log: ProblemLog;
  festbetrag: boolean;
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  packKeys: Set<string>;
}

function standOf(row: Row): string | undefined {
  const raw = row.get('stand');
  return isoFromDayFirst(raw) ?? (/^\d{4}-\d{2}-\d{2}/.test(raw) ? raw.slice(0, 10) : undefined);
}

interface PackFacts { product: string; description: string; units?: number; unit?: string; strength: string; form: string }

/**
 * Product name, size, strength and dose form of a row: from the list's columns where it has
 * them, else read from the product text (`Ibuprofen 400 mg Filmtabletten 30 St N1`), whose pack
 * part is then cut off the product name so the pack sizes of one product stay one product. A
 * size column holds a number (`20`) or a text (`5X10 St`); the Normgröße (N1-N3) goes into the
 * pack description.
 */
function packFacts(row: Row, name: string): PackFacts {
  const sizeText = row.get('size');
  const split = sizeText === '' ? splitPackText(name) : { product: name, pack: null };
  const product = split.product;
  const form = row.get('form') || doseFormInText(product) || '';
  const strength = [row.get('strength1'), row.get('strength2')].filter((v) => v !== '' && v !== '0').join('/') || strengthInText(product) || '';
  const norm = row.get('normSize') || normSizeInText(split.pack ?? sizeText) || '';
  const number = parseFrenchNumber(sizeText);
  if (number !== null && number > 0) {
    // A bare count: its unit is the list's unit column (`St`, `ml`), else the dose form it names.
    const unit = row.get('sizeUnit') || form;
    return { product, description: [sizeText, row.get('sizeUnit'), form, norm].filter(Boolean).join(' '), units: number, ...(unit ? { unit } : {}), strength, form };
  }
  const size = parsePackSize(sizeText || split.pack);
  if (!size) return { product, description: [sizeText, form, norm].filter(Boolean).join(' ') || name, strength, form };
  const description = [`${size.count} ${size.label}`, form, norm].filter(Boolean).join(' ');
  return { product, description, units: size.count, unit: size.label, strength, form };
}

/** Adds one list row; returns an error message when the row cannot be used. */
function addRow(row: Row, ctx: Context): string | null {
  const rawPzn = row.get('pzn');
  if (rawPzn === '') return 'no PZN';
  const pzn = pznOf(rawPzn);
  // A footer line (`3 Artikel`) has no PZN at all; a number with a wrong check digit is a misprint.
  if (!pzn) return /\d{5,}/.test(rawPzn) ? `PZN "${rawPzn}" is not a valid PZN (check digit)` : `"${rawPzn}" is not a PZN (a footer or note line?)`;
  if (ctx.packKeys.has(pzn)) return `PZN ${pzn} is listed twice (the first row is kept)`;
  const name = row.get('name');
  if (name === '') return `PZN ${pzn}: no Arzneimittelname`;
  const prices: Price[] = [];
  const validFrom = standOf(row);
  for (const [field, kind] of [['festbetrag', 'reimbursed'], ['price', 'public']] as Array<[Field, string]>) {
    const raw = row.get(field);
    if (raw === '') continue;
    const amount = euro(raw);
    if (amount === null) return `PZN ${pzn}: ${field === 'festbetrag' ? 'Festbetrag' : 'Preis'} "${raw}" is not an amount in EUR`;
    prices.push(validFrom ? { amount, currency: 'EUR', kind, valid_from: validFrom } : { amount, currency: 'EUR', kind });
  }
  if (ctx.festbetrag && !prices.some((p) => p.kind === 'reimbursed')) return `PZN ${pzn}: no Festbetrag`;
  const facts = packFacts(row, name);
  const pack: PackEntry = { key: pzn, description: facts.description, identifiers: [{ system: 'pzn', code: pzn }], prices };
  if (facts.units !== undefined) pack.units = facts.units;
  if (facts.unit !== undefined) pack.unit = facts.unit;
  const { strength, form, product: productName } = facts;
  const key = [productName, strength, form].join('|').toUpperCase();
  let product = ctx.products.get(key);
  if (!product) {
    const substance = row.get('substance');
    const ingredients = substance === '' ? [] : [{ unii: provisionalNameKey(substance) }];
    if (substance !== '' && !ctx.substances.has(provisionalNameKey(substance))) {
      ctx.substances.set(provisionalNameKey(substance), { unii: provisionalNameKey(substance), name: substance, names: { de: substance }, provisional: true });
    }
    product = { key, country: 'DE', product_name: productName, brand: productName, identifiers: [], ingredients, packs: [] };
    if (form !== '') product.dose_form = form;
    if (row.get('holder') !== '') product.holder = row.get('holder');
    const attributes: Record<string, string> = {};
    if (row.get('group') !== '') attributes.festbetragsgruppe = row.get('group');
    if (row.get('stufe') !== '') attributes.festbetragsstufe = row.get('stufe');
    if (strength !== '') attributes.wirkstoffmenge = strength;
    if (Object.keys(attributes).length > 0) product.attributes = attributes;
    ctx.products.set(key, product);
  }
  product.packs.push(pack);
  ctx.packKeys.add(pzn);
  return null;
}

/** Parses a German PZN list (Festbetrag overview or price list); rows that cannot be used are reported and skipped. */
export async function parseDePzn(file: InputFile): Promise<AdapterResult> {
  const table = await readPznTable(file, (keys) => COLUMNS.pzn.some((c) => keys.includes(c)));
  const column = (field: Field): string | undefined => COLUMNS[field].find((c) => table.header.includes(c));
  if (!column('name')) throw new FileRejectedError(file.name, 'unexpected header: no Arzneimittelname (or Handelsname) column');
  const festbetrag = column('festbetrag') !== undefined;
  if (!festbetrag && !column('price')) throw new FileRejectedError(file.name, 'unexpected header: neither a Festbetrag nor a Preis (AVP) column');
  const ctx: Context = { file: file.name, log: new ProblemLog(), festbetrag, products: new Map(), substances: new Map(), packKeys: new Set() };
  let skipped = 0;
  for (const r of table.rows) {
    const row: Row = { line: r.line, get: (field) => { const c = column(field); return c ? r.get(c) : ''; } };
    const problem = addRow(row, ctx);
    if (problem) {
      ctx.log.add(file.name, r.line, problem);
      skipped += 1;
    }
  }
  // An empty list would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable PZN rows below the header');
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: festbetrag ? DE_FESTBETRAG_SOURCE : DE_PZN_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()],
    },
    problems: ctx.log.problems,
    files: [{ file: file.name, role: festbetrag ? 'Festbetragsarzneimittel' : 'Preisliste (AVP)', read: table.rows.length, kept: table.rows.length - skipped, skipped }],
  };
}
