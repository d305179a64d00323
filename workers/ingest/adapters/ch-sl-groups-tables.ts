/**
 * The two kinds of table the SL group prices come in, told apart by their header: the BAG's
 * group price table (`pharma_group_code`, `price_chf_incl_vat`, no article code) and the
 * manufacturers' article lists (a GTIN or pharmacode column and a group code column: Weleda's
 * `ean … csl`, WALA's `EAN-Code;Pharmacode;…;CSL-Code*;CSL 70.01.`). File names vary
 * (`bag_sl_group_prices.csv`, `weleda_arzneimittel.csv`, dated copies), so they are never used.
 */
import { decodeUtf8OrLatin, parseCsv } from './common.ts';
import type { CsvRecord, InputFile } from './common.ts';
import { firstLineSeparator } from './delimited-text.ts';

export const GROUP_COLUMNS = ['pharma_group_code', 'pharma-gruppen-code', 'group_code'];
export const PRICE_COLUMNS = ['price_chf_incl_vat', 'group_price', 'price', 'preis'];
export const GTIN_COLUMNS = ['ean', 'gtin', 'ean-code', 'ean_code'];
export const PHARMACODE_COLUMNS = ['pharmacode', 'phar', 'pharma-code'];
export const CSL_COLUMNS = ['csl', 'csl-code', 'csl_code', ...GROUP_COLUMNS];

/** A delimited table with its normalised header. */
export interface Table {
  file: string;
  header: string[];
  rows: CsvRecord[];
  /** The trimmed value of the first of `names` the header has, or ''. */
  get(row: CsvRecord, names: readonly string[]): string;
}

/** What a table holds, by its header: group prices, an article list, or neither. */
export type TableRole = 'group prices' | 'articles' | null;

/** Reads a file as a table: UTF-8 (BOM dropped) or Latin-1, `,` or `;` by its first line. */
export function readTable(file: InputFile): Table {
  const text = decodeUtf8OrLatin(file.content).replace(/^\uFEFF/, '');
  const [head, ...rows] = parseCsv(text, firstLineSeparator(text));
  // Header names are trimmed and lower-cased: WALA's list has trailing spaces and stars in them.
  const header = (head?.fields ?? []).map((h) => h.trim().replace(/\*+$/, '').trim().toLowerCase());
  return {
    file: file.name, header, rows,
    get: (row, names) => {
      const index = header.findIndex((h) => names.includes(h));
      return index < 0 ? '' : (row.fields[index] ?? '').trim();
    },
  };
}

/** True when the header has one of `names`. */
export const has = (table: Table, names: readonly string[]): boolean => table.header.some((h) => names.includes(h));

/** The role a table's header shows. */
export function tableRole(table: Table): TableRole {
  const coded = has(table, GTIN_COLUMNS) || has(table, PHARMACODE_COLUMNS);
  if (!coded && has(table, GROUP_COLUMNS) && has(table, PRICE_COLUMNS)) return 'group prices';
  if (coded && has(table, CSL_COLUMNS)) return 'articles';
  return null;
}
