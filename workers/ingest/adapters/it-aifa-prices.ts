/**
 * AIFA price lists joined to the register's packs by AIC:
 *
 * - Classe A and Classe H lists: `Prezzo al pubblico €` (kind `public`), for H also `Prezzo
 *   Ex-factory €` (`ex_factory`) and `Prezzo massimo di cessione €` (the ceiling a public
 *   hospital pays, kind `list`); dated by the date in the file name (`..._28-02-2026.csv`).
 *   Class A packs are paid in full by the SSN (rate 100; a regional ticket aside); class H packs
 *   are for hospital use only (availability `hospital_only`).
 * - Lista di trasparenza: `Prezzo riferimento SSN` (`reimbursed`, what the SSN pays for any pack of
 *   the equivalence group) and `Prezzo Pubblico <date>` (`public`, dated by its header), the AIC
 *   written without leading zeros. A public price from this monthly list replaces the class list's.
 *
 * The equivalence group code and the transparency note are kept as product attributes.
 */
import type { PackEntry, Price, ProductEntry } from '../snapshot.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import { parseFrenchNumber } from './common.ts';
import type { DelimitedRow, DelimitedTable } from './delimited-table.ts';
import { columnStartingWith, pickColumn } from './delimited-table.ts';
import {
  EX_FACTORY_PREFIXES, PRICE_LIST_AIC, PRICE_LIST_GROUP, PUBLIC_PRICE_PREFIXES, REFERENCE_PRICE, TRANSFER_PRICE_PREFIXES, italianDate,
} from './it-aifa-files.ts';
import type { AifaRole } from './it-aifa-files.ts';
import { aicOf } from './it-aifa-register.ts';

/** Exclusion reason of a file beside the register naming a pack the register does not hold. */
export const NOT_IN_REGISTER = 'not_in_register';

export type PriceRole = Extract<AifaRole, 'class_a' | 'class_h' | 'transparency'>;

/** A price column: its header key and the kind of price it holds. */
interface PriceColumn { column: string; kind: string }

/** Amount in EUR of a cell (`5,63`, `5,63 €`, `1.234,56`); null when it is no amount. */
export function euro(raw: string): number | null {
  const value = parseFrenchNumber(raw.replace(/€|EUR/gi, ''));
  return value !== null && value >= 0 ? Math.round(value * 100) / 100 : null;
}

function priceColumns(table: DelimitedTable, role: PriceRole): PriceColumn[] {
  const out: PriceColumn[] = [];
  const add = (column: string | undefined, kind: string) => { if (column) out.push({ column, kind }); };
  if (role === 'transparency') add(REFERENCE_PRICE, 'reimbursed');
  add(columnStartingWith(table.header, PUBLIC_PRICE_PREFIXES), 'public');
  add(columnStartingWith(table.header, EX_FACTORY_PREFIXES), 'ex_factory');
  add(columnStartingWith(table.header, TRANSFER_PRICE_PREFIXES), 'list');
  return out;
}

/** The date a price list is valid from: the transparency list's price header, else the file name. */
function listDate(table: DelimitedTable, role: PriceRole, fileName: string): string | undefined {
  if (role === 'transparency') {
    const header = table.headerText.find((h) => /^prezzo pubblico/i.test(h));
    if (header) return italianDate(header);
  }
  return italianDate(fileName.replace(/_/g, ' '));
}

/** A price list checked against the register: its valid rows by AIC, with what they mean. */
export interface PriceList {
  role: PriceRole;
  columns: PriceColumn[];
  validFrom: string | undefined;
  rows: Map<string, DelimitedRow>;
}

function setPrice(pack: PackEntry, price: Price, replace: boolean): void {
  const prices = pack.prices ?? [];
  const at = prices.findIndex((p) => p.kind === price.kind);
  if (at < 0) prices.push(price);
  else if (replace) prices[at] = price;
  pack.prices = prices;
}

/** The prices of a row, or the problem that makes it unusable. */
function pricesOf(row: DelimitedRow, list: Omit<PriceList, 'rows'>): Price[] | string {
  const prices: Price[] = [];
  for (const { column, kind } of list.columns) {
    const raw = row.get(column);
    if (raw === '') continue;
    const amount = euro(raw);
    if (amount === null) return `price "${raw}" is not an amount in EUR`;
    prices.push(list.validFrom ? { amount, currency: 'EUR', kind, valid_from: list.validFrom } : { amount, currency: 'EUR', kind });
  }
  return prices;
}

function addValue(attributes: Record<string, string | number | boolean>, name: string, value: string, separator: string): void {
  if (value === '') return;
  const values = new Set(String(attributes[name] ?? '').split(separator).filter(Boolean));
  values.add(value);
  attributes[name] = [...values].sort().join(separator);
}

/**
 * Reads one price list into its file's tally: a short row, a row with an invalid AIC or an
 * unreadable price is malformed; a row of a pack the register lacks (`inRegister`) is excluded (`not_in_register`: the
 * list outlives packs the register has revoked), as is a second row of one AIC (`duplicate`). The
 * others are kept by AIC for `applyPriceRow`.
 */
export function readPriceList(table: DelimitedTable, role: PriceRole, fileName: string, inRegister: (aic: string) => boolean, tally: RowTally): PriceList {
  const aicColumn = pickColumn(table.header, PRICE_LIST_AIC)!;
  const list: PriceList = { role, columns: priceColumns(table, role), validFrom: listDate(table, role, fileName), rows: new Map() };
  for (const row of table.rows) {
    // A short row (a file cut off) may lack its prices: never read it as a pack without them.
    if (!table.workbook && row.width < table.header.length) { tally.malformedRow(row.line, `row has ${row.width} fields, the header ${table.header.length}`); continue; }
    const raw = row.get(aicColumn);
    const aic = aicOf(raw);
    if (!aic) { tally.malformedRow(row.line, `AIC "${raw}" is not a valid AIC`); continue; }
    if (!inRegister(aic)) { tally.exclude(NOT_IN_REGISTER); continue; }
    if (list.rows.has(aic)) { tally.exclude(EXCLUDED.duplicate); continue; }
    const prices = pricesOf(row, list);
    if (typeof prices === 'string') { tally.malformedRow(row.line, prices); continue; }
    tally.keep();
    list.rows.set(aic, row);
  }
  return list;
}

/** Sets the prices, rate or availability, group, class and note a checked list row gives its pack. */
export function applyPriceRow(list: PriceList, row: DelimitedRow, target: { product: ProductEntry; pack: PackEntry }): void {
  const prices = pricesOf(row, list) as Price[];
  for (const price of prices) setPrice(target.pack, price, list.role === 'transparency');
  if (list.role === 'class_a') target.pack.reimbursement_rate_percent = 100;
  if (list.role === 'class_h') target.pack.availability = 'hospital_only';
  const attributes = target.product.attributes ?? {};
  // Groups and notes belong to packs (each pack size has its group): the product lists its packs' values.
  addValue(attributes, 'gruppo_equivalenza', row.get(PRICE_LIST_GROUP), ', ');
  if (list.role !== 'transparency') addValue(attributes, 'classe_rimborsabilita', list.role === 'class_a' ? 'A' : 'H', ', ');
  if (list.role === 'transparency') addValue(attributes, 'nota_trasparenza', row.get('nota'), ' | ');
  if (Object.keys(attributes).length > 0) target.product.attributes = attributes;
}
