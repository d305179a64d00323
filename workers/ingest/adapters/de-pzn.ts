/**
 * German lists that carry PZNs, read by their header row: the Festbetrag overview
 * ("Festbetragsarzneimittel nach § 35 SGB V", published by the BfArM for the GKV-Spitzenverband:
 * Stufe, Festbetragsgruppe, Wirkstoff, Wirkstoffmenge 1 and 2, Packungsgröße, Darreichungsform,
 * Preis, Festbetrag, Differenz, Arzneimittelname, PZN, Stand) and price lists with the same kind
 * of columns but no Festbetrag (the GKV's list of co-payment-exempt medicines: PZN,
 * Arzneimittelname, Hersteller, Preis (AVP) ...), as CSV (`;`, `,` or tab, UTF-8 or
 * Windows-1252, German decimal commas) or xlsx (title rows above the header are skipped).
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
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, Price, ProductEntry, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import {
  FileRejectedError, ProblemLog, decodeUtf8OrLatin, isoFromDayFirst, parseFrenchNumber, provisionalNameKey,
} from './common.ts';
import type { InputFile } from './common.ts';
import { headerKey, sheetTable } from './sheet-table.ts';

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
  name: ['arzneimittelname', 'arzneimittel', 'handelsname', 'präparat', 'praeparat', 'bezeichnung', 'produktname', 'artikelname'],
  substance: ['wirkstoff', 'wirkstoffe', 'wirkstoffname', 'wirkstoffbezeichnung'],
  strength1: ['wirkstoffmenge 1', 'wirkstoffmenge1', 'wirkstoffmenge', 'wirkstärke', 'wirkstaerke'],
  strength2: ['wirkstoffmenge 2', 'wirkstoffmenge2'],
  size: ['packungsgröße', 'packungsgroesse', 'packungsgrösse', 'pckg.-größe', 'menge'],
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

interface Table {
  header: string[];
  rows: Array<{ line: number; get(column: string): string }>;
}

const normaliseHeader = headerKey;

/** Splits delimited text with quotes (`"a;b"`, doubled quotes), keeping each record's first line number. */
export function parseDelimited(text: string, separator: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0]!.trim() !== '') records.push({ line: start, fields });
    fields = []; field = ''; start = line;
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\n') line += 1;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') { field += '"'; i += 1; } else quoted = false;
    } else if (ch === '"' && field.trim() === '') { quoted = true; field = ''; } else if (ch === separator) { fields.push(field); field = ''; } else if (ch === '\n') end();
    else if (ch !== '\r') field += ch;
  }
  end();
  return records;
}

function csvTable(file: InputFile): Table {
  const text = decodeUtf8OrLatin(file.content);
  const counts = [';', '\t', ','].map((sep) => [sep, (text.slice(0, 4000).match(new RegExp(sep === '\t' ? '\\t' : sep, 'g')) ?? []).length] as const);
  const separator = counts.sort((a, b) => b[1] - a[1])[0]![0];
  const records = parseDelimited(text, separator);
  const at = records.slice(0, 40).findIndex((r) => r.fields.some((f) => COLUMNS.pzn.includes(normaliseHeader(f) as never)));
  if (at < 0) throw new FileRejectedError(file.name, 'no header row with a PZN column in the first rows');
  const header = records[at]!.fields.map(normaliseHeader);
  return {
    header,
    rows: records.slice(at + 1).map((r) => ({ line: r.line, get: (column: string) => (r.fields[header.indexOf(column)] ?? '').trim() })),
  };
}

async function readTable(file: InputFile): Promise<Table> {
  const zip = file.content[0] === 0x50 && file.content[1] === 0x4b;
  if (!zip) return csvTable(file);
  const sheet = await sheetTable(file.name, file.content, (keys) => COLUMNS.pzn.some((c) => keys.includes(c)), 'a PZN column');
  return { header: sheet.header, rows: sheet.rows };
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

/** Adds one list row; returns an error message when the row cannot be used. */
function addRow(row: Row, ctx: Context): string | null {
  const rawPzn = row.get('pzn');
  if (rawPzn === '') return 'no PZN';
  const pzn = pznOf(rawPzn);
  if (!pzn) return `PZN "${rawPzn}" is not a valid PZN (check digit)`;
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
  const form = row.get('form');
  const size = row.get('size');
  const units = parseFrenchNumber(size);
  const pack: PackEntry = {
    key: pzn,
    description: [size, form].filter(Boolean).join(' ') || name,
    identifiers: [{ system: 'pzn', code: pzn }],
    prices,
  };
  if (units !== null && units > 0) pack.units = units;
  if (form !== '') pack.unit = form;
  const strength = [row.get('strength1'), row.get('strength2')].filter((s) => s !== '' && s !== '0').join('/');
  const key = [name, strength, form].join('|').toUpperCase();
  let product = ctx.products.get(key);
  if (!product) {
    const substance = row.get('substance');
    const ingredients = substance === '' ? [] : [{ unii: provisionalNameKey(substance) }];
    if (substance !== '' && !ctx.substances.has(provisionalNameKey(substance))) {
      ctx.substances.set(provisionalNameKey(substance), { unii: provisionalNameKey(substance), name: substance, names: { de: substance }, provisional: true });
    }
    product = { key, country: 'DE', product_name: name, brand: name, identifiers: [], ingredients, packs: [] };
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
  const table = await readTable(file);
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
