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
import { normalisePzn } from '../../../vocabulary/codes.ts';
import { parsePackSize } from '../../../vocabulary/pack-size.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, Ingredient, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import {
  FileRejectedError, isoFromDayFirst, parseFrenchNumber, provisionalNameKey,
} from './common.ts';
import type { InputFile } from './common.ts';
import { combinationInText, doseFormInText, normSizeInText, splitPackText, strengthInText, strengthParts } from './de-product-text.ts';
import type { TextIngredient } from './de-product-text.ts';
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
    'artikelbezeichnung', 'produktbezeichnung', 'arzneimittelbezeichnung', 'handelsbezeichnung', 'name', 'artikel', 'langname',
  ],
  substance: ['wirkstoff', 'wirkstoffe', 'wirkstoffname', 'wirkstoffbezeichnung'],
  strength1: ['wirkstoffmenge 1', 'wirkstoffmenge1', 'wirkstoffmenge', 'wirkstärke', 'wirkstaerke'],
  strength2: ['wirkstoffmenge 2', 'wirkstoffmenge2'],
  size: ['packungsgröße', 'packungsgroesse', 'packungsgrösse', 'pckg.-größe', 'menge', 'packungsinhalt', 'inhalt', 'menge der packungsgröße'],
  sizeUnit: ['einheit', 'packungseinheit', 'mengeneinheit', 'einheit der packungsgröße'],
  normSize: ['normgröße', 'normgroesse', 'n-größe', 'ng', 'packungsgrößenkennzeichen'],
  form: ['darreichungsform', 'df', 'darreichung'],
  price: ['preis', 'avp', 'apothekenverkaufspreis', 'preis (avp)', 'avp (eur)', 'apo-vk'],
  /** The pharmacy retail price before VAT (ABDA-style exports such as de.oddb.org's products.csv). */
  netPrice: ['avk_netto', 'avk netto'],
  /** The VAT class of the net price: 0 none, 1 the full rate, 2 the reduced rate. */
  vat: ['mehrwertsteuersatz', 'mwst-satz', 'mwst'],
  prescription: ['verschreibungspflicht', 'rezeptpflicht'],
  festbetrag: ['festbetrag', 'fb', 'festbetrag (eur)'],
  holder: ['hersteller', 'anbieter', 'pharmazeutischer unternehmer', 'pu', 'firmenname_anbieter'],
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
  festbetrag: boolean;
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  /** Each PZN kept. */
  packKeys: Set<string>;
}

/** A row left out on purpose (a PZN listed again), as opposed to a malformed row's message. */
type Excluded = { excluded: string };

function standOf(row: Row): string | undefined {
  const raw = row.get('stand');
  return isoFromDayFirst(raw) ?? (/^\d{4}-\d{2}-\d{2}/.test(raw) ? raw.slice(0, 10) : undefined);
}

/** `6X0.5 ml` → 3 ml, `40X5X20 ml` → 4000 ml: a size of multiplied parts, or null. */
function multipartSize(text: string): { units: number; unit: string } | null {
  const m = /^(\d+(?:[.,]\d+)?(?:\s*[xX×]\s*\d+(?:[.,]\d+)?)+)\s*(\p{L}+\.?)$/u.exec(text.trim());
  if (!m) return null;
  const units = m[1]!.split(/\s*[xX×]\s*/).reduce((product, n) => product * Number(n.replace(',', '.')), 1);
  return { units: Math.round(units * 1000) / 1000, unit: m[2]! };
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
  // A size of several parts (`5X10` with unit `St`, `6X0.5 ml`, `40X5X20 ml`) is read with its
  // unit, described as written, and counts the product of its parts (3 ml, 50 St, 4000 ml).
  const written = sizeText !== '' && row.get('sizeUnit') !== '' ? `${sizeText} ${row.get('sizeUnit')}` : sizeText || split.pack;
  const parts = multipartSize(written ?? '');
  if (parts) return { product, description: [written, form, norm].filter(Boolean).join(' '), units: parts.units, unit: parts.unit, strength, form };
  const size = parsePackSize(written);
  if (!size) return { product, description: [sizeText, form, norm].filter(Boolean).join(' ') || name, strength, form };
  const description = [`${size.count} ${size.label}`, form, norm].filter(Boolean).join(' ');
  return { product, description, units: size.count, unit: size.label, strength, form };
}

/** German VAT by the class an ABDA-style export gives (0 none, 1 full, 2 reduced): the rates since 1 January 2007. */
const VAT_PERCENT: Readonly<Record<string, number>> = { 0: 0, 1: 19, 2: 7 };

/**
 * The prices of a row, or why one cannot be read: the Festbetrag as `reimbursed`, the AVP as
 * `public`. A list giving the AVP before VAT (`AVK_netto` with its `Mehrwertsteuersatz` class)
 * has the VAT added, so every `public` price of the source is what the patient pays; a net
 * price of 0 is no price (articles without one, such as devices).
 */
function pricesOf(row: Row, pzn: string): Price[] | string {
  const prices: Price[] = [];
  const validFrom = standOf(row);
  const add = (amount: number, kind: string) => prices.push(validFrom ? { amount, currency: 'EUR', kind, valid_from: validFrom } : { amount, currency: 'EUR', kind });
  for (const [field, kind] of [['festbetrag', 'reimbursed'], ['price', 'public']] as Array<[Field, string]>) {
    const raw = row.get(field);
    if (raw === '') continue;
    const amount = euro(raw);
    if (amount === null) return `PZN ${pzn}: ${field === 'festbetrag' ? 'Festbetrag' : 'Preis'} "${raw}" is not an amount in EUR`;
    add(amount, kind);
  }
  const net = row.get('netPrice');
  if (net !== '' && row.get('price') === '') {
    const amount = euro(net);
    const vat = VAT_PERCENT[row.get('vat')];
    if (amount === null) return `PZN ${pzn}: AVK_netto "${net}" is not an amount in EUR`;
    if (vat === undefined) return `PZN ${pzn}: Mehrwertsteuersatz "${row.get('vat')}" is not a VAT class (0, 1 or 2)`;
    if (amount > 0) add(Math.round(amount * (100 + vat)) / 100, 'public');
  }
  return prices;
}

/**
 * The ingredients of a row: its Wirkstoff column, with the Wirkstärke column's strength for a
 * single substance; a combination written out (`Allopurinol 100 mg + Benzbromaron 20 mg`, in
 * the Wirkstoff column or the name) gives each substance its own strength. Substances are
 * provisional, keyed by name.
 */
function ingredientsOf(row: Row, productName: string, ctx: Context): Ingredient[] {
  const column = row.get('substance');
  const strength = row.get('strength1');
  const named: TextIngredient[] = combinationInText(column) ?? (column === '' ? combinationInText(productName) : null)
    ?? (column === '' ? [] : [{ name: column, strength: strength || null, ...(strengthParts(strength) ?? {}) }]);
  return named.map((n) => {
    const unii = provisionalNameKey(n.name);
    if (!ctx.substances.has(unii)) ctx.substances.set(unii, { unii, name: n.name, names: { de: n.name }, provisional: true });
    return {
      unii,
      ...(n.value !== undefined ? { strength_value: n.value } : {}), ...(n.unit ? { strength_unit: n.unit } : {}), ...(n.strength ? { strength_text: n.strength } : {}),
    };
  });
}

/** Adds one list row; returns null when kept, an error message when malformed, or why it was left out. */
function addRow(row: Row, ctx: Context): string | Excluded | null {
  const rawPzn = row.get('pzn');
  if (rawPzn === '') return 'no PZN';
  const pzn = pznOf(rawPzn);
  // A footer line (`3 Artikel`) has no PZN at all; a number with a wrong check digit is a misprint.
  if (!pzn) return /\d{5,}/.test(rawPzn) ? `PZN "${rawPzn}" is not a valid PZN (check digit)` : `"${rawPzn}" is not a PZN (a footer or note line?)`;
  // The same PZN again: the first row is kept, this one left out as a duplicate.
  if (ctx.packKeys.has(pzn)) return { excluded: EXCLUDED.duplicate };
  const name = row.get('name');
  if (name === '') return `PZN ${pzn}: no Arzneimittelname`;
  const prices = pricesOf(row, pzn);
  if (typeof prices === 'string') return prices;
  if (ctx.festbetrag && !prices.some((p) => p.kind === 'reimbursed')) return `PZN ${pzn}: no Festbetrag`;
  const facts = packFacts(row, name);
  const pack: PackEntry = { key: pzn, description: facts.description, identifiers: [{ system: 'pzn', code: pzn }], prices };
  if (facts.units !== undefined) pack.units = facts.units;
  if (facts.unit !== undefined) pack.unit = facts.unit;
  const { strength, form, product: productName } = facts;
  const key = [productName, strength, form].join('|').toUpperCase();
  let product = ctx.products.get(key);
  if (!product) {
    product = { key, country: 'DE', product_name: productName, brand: productName, identifiers: [], ingredients: ingredientsOf(row, productName, ctx), packs: [] };
    if (form !== '') product.dose_form = form;
    if (row.get('prescription') !== '') product.dispensing_category = row.get('prescription');
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
  if (!festbetrag && !column('price') && !column('netPrice')) throw new FileRejectedError(file.name, 'unexpected header: neither a Festbetrag nor a Preis (AVP) column');
  const tally = new RowTally(file.name);
  const ctx: Context = { file: file.name, festbetrag, products: new Map(), substances: new Map(), packKeys: new Set() };
  for (const r of table.rows) {
    const row: Row = { line: r.line, get: (field) => { const c = column(field); return c ? r.get(c) : ''; } };
    const outcome = r.problem ?? addRow(row, ctx);
    if (outcome === null) tally.keep();
    else if (typeof outcome === 'string') tally.malformedRow(r.line, outcome);
    else tally.exclude(outcome.excluded);
  }
  // Page footers and titles the list repeats on every page are lines, not rows of data.
  for (let i = 0; i < (table.notData ?? 0); i += 1) tally.exclude(EXCLUDED.notData);
  // An empty list would delete every stored pack of the source on ingest: refuse it instead.
  if (ctx.packKeys.size === 0) throw new FileRejectedError(file.name, 'no usable PZN rows below the header');
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: festbetrag ? DE_FESTBETRAG_SOURCE : DE_PZN_SOURCE,
      substances: [...ctx.substances.values()],
      products: [...ctx.products.values()],
    },
    problems: tally.problems,
    files: [tally.report(festbetrag ? 'Festbetragsarzneimittel' : 'Preisliste (AVP)')],
  };
}
