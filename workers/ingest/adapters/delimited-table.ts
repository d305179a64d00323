/**
 * A register list read as a table, whatever the publisher saved it as: an xlsx workbook (first
 * worksheet) or delimited text in UTF-8, UTF-16 (Excel's "Unicode text", with its byte-order
 * mark) or Windows-1252, separated by `;`, tab or `,`. The header row is found among the first
 * rows by the columns it names, so title rows above it are skipped; row numbers are the file's
 * own lines (or spreadsheet rows) for problem reports. The Nordic lists (Fimea, Kela, TLV) come
 * in every one of these shapes depending on the release and the export button pressed.
 */
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { decodeDelimitedText, detectSeparator, splitRecords } from './delimited-text.ts';
import { headerKey, sheetTable } from './sheet-table.ts';

/** A data row below the header: its line and its cells by header key. */
export interface DelimitedRow {
  line: number;
  /** Number of cells the row has (a short or long row is usually malformed). */
  width: number;
  /** The trimmed cell under a header key (see `headerKey`); '' when absent. */
  get(column: string): string;
}

export interface DelimitedTable {
  /** Header keys in column order. */
  header: string[];
  rows: DelimitedRow[];
  /** True when the file was a workbook (its rows have no fixed width to check). */
  workbook: boolean;
}

// A report puts its header within its first rows; further down is data, not a header.
const HEADER_SEARCH_ROWS = 40;

function textTable(file: InputFile, isHeader: (keys: string[]) => boolean, what: string): DelimitedTable {
  const text = decodeDelimitedText(file.content);
  const records = splitRecords(text, detectSeparator(text));
  const at = records.slice(0, HEADER_SEARCH_ROWS).findIndex((r) => isHeader(r.fields.map(headerKey)));
  if (at < 0) throw new FileRejectedError(file.name, `no header row naming ${what} in the first ${HEADER_SEARCH_ROWS} lines`);
  const header = records[at]!.fields.map(headerKey);
  const index = new Map<string, number>();
  header.forEach((name, i) => { if (name && !index.has(name)) index.set(name, i); });
  // Spreadsheet CSV exports end with rows of bare separators (`;;;;`): no data, not malformed.
  const rows = records.slice(at + 1).filter((r) => r.fields.some((f) => f.trim() !== '')).map((r): DelimitedRow => ({
    line: r.line,
    width: r.fields.length,
    // Callers pass header keys already; folding is only the fallback (it costs per cell).
    get: (column) => (r.fields[index.get(column) ?? index.get(headerKey(column)) ?? -1] ?? '').trim(),
  }));
  return { header, rows, workbook: false };
}

/** Reads a list as a table; a file with no recognisable header row is rejected. */
export async function readDelimitedTable(file: InputFile, isHeader: (keys: string[]) => boolean, what: string): Promise<DelimitedTable> {
  const zip = file.content[0] === 0x50 && file.content[1] === 0x4b;
  if (!zip) return textTable(file, isHeader, what);
  const sheet = await sheetTable(file.name, file.content, isHeader, what);
  return {
    header: sheet.header,
    rows: sheet.rows.map((r) => ({ line: r.line, width: sheet.header.length, get: r.get })),
    workbook: true,
  };
}

/** The first of `names` (header keys) the table has, or undefined. */
export function pickColumn(header: readonly string[], names: readonly string[]): string | undefined {
  return names.find((n) => header.includes(n));
}

/**
 * A date as the Nordic lists write it: ISO (`2019-03-01`, also with a time), compact
 * (`20190301`) or day first (`1.3.2019`, `01.03.2019`). '' when empty, null when not a date.
 */
export function listDate(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return '';
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  let parts = m ? [m[1]!, m[2]!, m[3]!] : null;
  if (!parts) {
    m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
    parts = m ? [m[3]!, m[2]!.padStart(2, '0'), m[1]!.padStart(2, '0')] : null;
  }
  if (!parts) return null;
  const iso = parts.join('-');
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}
