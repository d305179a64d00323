/**
 * A register list read as a table through its header row, the header found among the first
 * records by the columns it names (a predicate over header keys), so title and note lines above
 * it are skipped. Cells are read by header key (`headerKey`: lower case, single spaces), so
 * header wording that differs only in case or spacing between releases (`codice_aic` /
 * `CODICE_AIC`) reads the same; row numbers are the file's own lines (or spreadsheet rows) for
 * problem reports. Two readers share this:
 * - `delimitedTable` (the Italian AIFA lists, the Portuguese Infomed export): UTF-8 or
 *   Windows-1252, read line by line as the AIFA stream reads the register, header within the
 *   first 20 lines;
 * - `readDelimitedTable` (the Nordic lists: Fimea, Kela, TLV): an xlsx workbook or text in
 *   UTF-8, UTF-16 or Windows-1252, blanks before a quote allowed, header within the first 40.
 * `csvTable` reads the CSV of a report also published as xlsx (the EMA's) into the workbook's
 * own table shape (sheet-table.ts), so one reader serves both.
 * The text below both (decoding, separators, quoted fields) is delimited-text.ts.
 */
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { decodeDelimitedText, decodeUtf8OrLatin, delimitedRecords, detectSeparator, isZip, parseCsv, splitRecords } from './delimited-text.ts';
import type { CsvRecord } from './delimited-text.ts';
import { HEADER_SEARCH_ROWS, headerKey, rowsTable, sheetTable } from './sheet-table.ts';
import type { SheetTable } from './sheet-table.ts';

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
  /**
   * Header cells as written, blanks folded (for headers that carry a date, like `Prezzo
   * Pubblico 15 settembre 2026`); the header keys for a workbook.
   */
  headerText: string[];
  rows: DelimitedRow[];
  /** True when the file was a workbook (its rows have no fixed width to check). */
  workbook: boolean;
}

/** A header predicate over header keys. */
export type IsHeader = (keys: string[]) => boolean;

/** Reads a text file as a table (`delimitedTable`, `listTextTable`). */
export type TextTableReader = (file: InputFile, isHeader: IsHeader, what: string) => DelimitedTable;

/** AIFA and Infarmed put a title or a note of a line or two above the header (the AIFA stream looks as deep). */
export const AIFA_HEADER_SEARCH_LINES = 20;
// A report's CSV export is comma separated unless saved under a continental locale.
const CSV_SEPARATORS = [',', ';', '\t'] as const;

/** Position of each header key (the first, when a key repeats). */
export function columnIndex(header: readonly string[]): ReadonlyMap<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => { if (name !== '' && !index.has(name)) index.set(name, i); });
  return index;
}

/** A row of fields read through a header's column index. */
export function delimitedRow(index: ReadonlyMap<string, number>, line: number, fields: readonly string[]): DelimitedRow {
  return {
    line,
    width: fields.length,
    // Callers pass header keys already; folding is only the fallback (it costs per cell).
    get: (column) => (fields[index.get(column) ?? index.get(headerKey(column)) ?? -1] ?? '').trim(),
  };
}

/** A header record's cells as written (blanks folded, for dated headers) and as header keys. */
export function headerCells(fields: readonly string[]): { headerText: string[]; header: string[] } {
  const headerText = fields.map((f) => f.replace(/\s+/g, ' ').trim());
  return { headerText, header: headerText.map(headerKey) };
}

/**
 * The data row of a record below the header, or null for a record of empty fields: the `;;;;`
 * a spreadsheet export ends with is no data and not malformed.
 */
export function dataRow(index: ReadonlyMap<string, number>, line: number, fields: readonly string[]): DelimitedRow | null {
  return fields.some((f) => f.trim() !== '') ? delimitedRow(index, line, fields) : null;
}

/** Index of the first of the first `searchDepth` records whose header keys satisfy `isHeader`, or -1. */
export function headerRecord(records: readonly CsvRecord[], isHeader: IsHeader, searchDepth: number): number {
  return records.slice(0, searchDepth).findIndex((r) => isHeader(r.fields.map(headerKey)));
}

/**
 * The table below the first of the first `searchDepth` records whose header keys satisfy
 * `isHeader`; the file is rejected when none does. Records of empty fields are left out (`dataRow`).
 */
export function recordsTable(file: string, records: readonly CsvRecord[], isHeader: IsHeader, what: string, searchDepth: number): DelimitedTable {
  const at = headerRecord(records, isHeader, searchDepth);
  if (at < 0) throw new FileRejectedError(file, `no header row naming ${what} in the first ${searchDepth} lines`);
  const { headerText, header } = headerCells(records[at]!.fields);
  const index = columnIndex(header);
  const rows: DelimitedRow[] = [];
  for (const r of records.slice(at + 1)) {
    const row = dataRow(index, r.line, r.fields);
    if (row) rows.push(row);
  }
  return { header, headerText, rows, workbook: false };
}

/** An AIFA or Infomed list (UTF-8 or Windows-1252 text) as a table; rejected without a header row. */
export function delimitedTable(file: InputFile, isHeader: IsHeader, what: string): DelimitedTable {
  const text = decodeUtf8OrLatin(file.content);
  return recordsTable(file.name, delimitedRecords(text, detectSeparator(text)), isHeader, what, AIFA_HEADER_SEARCH_LINES);
}

/**
 * A list published as an xlsx workbook or as text, read as one table: a zip container is the
 * workbook (its first worksheet, header within the first 40 rows, rows as wide as the header);
 * anything else goes to `readText`.
 */
export async function readListTable(file: InputFile, isHeader: IsHeader, what: string, readText: TextTableReader): Promise<DelimitedTable> {
  if (!isZip(file.content)) return readText(file, isHeader, what);
  const sheet = await sheetTable(file.name, file.content, isHeader, what);
  return {
    header: sheet.header,
    headerText: sheet.header,
    rows: sheet.rows.map((r) => ({ line: r.line, width: sheet.header.length, get: r.get })),
    workbook: true,
  };
}

/** A Nordic list's text (UTF-8, UTF-16 or Windows-1252; blanks before a quote allowed) as a table. */
export function listTextTable(file: InputFile, isHeader: IsHeader, what: string): DelimitedTable {
  const text = decodeDelimitedText(file.content);
  return recordsTable(file.name, splitRecords(text, detectSeparator(text)), isHeader, what, HEADER_SEARCH_ROWS);
}

/** Reads a Nordic list, workbook or text, as a table; a file with no recognisable header row is rejected. */
export function readDelimitedTable(file: InputFile, isHeader: IsHeader, what: string): Promise<DelimitedTable> {
  return readListTable(file, isHeader, what, listTextTable);
}

/**
 * A report's CSV export as the table its workbook gives (the EMA's medicines report): text
 * decoded as `decodeDelimitedText` does, records split strictly (RFC 4180; the report's quoted
 * headers hold line breaks, "Species\n(veterinary)"), title lines above the header skipped as in
 * the workbook. Each separator (comma, semicolon, tab: an export saved under a continental
 * locale uses `;`) is tried and the one whose header splits into the most columns kept; the
 * file is rejected when none finds the header.
 */
export function csvTable(file: string, content: Buffer, isHeader: IsHeader, what: string): SheetTable {
  const text = decodeDelimitedText(content);
  let best: SheetTable | null = null;
  for (const separator of CSV_SEPARATORS) {
    const rows = parseCsv(text, separator).map((r) => ({ row: r.line, cells: r.fields.map((f) => (f.trim() === '' ? undefined : f)) }));
    let table: SheetTable;
    try {
      table = rowsTable(file, { rows, date1904: false }, isHeader, what);
    } catch (error) {
      if (error instanceof FileRejectedError) continue;
      throw error;
    }
    if (!best || table.header.length > best.header.length) best = table;
  }
  if (!best) throw new FileRejectedError(file, `no header line naming ${what} near the top (comma, semicolon or tab separated)`);
  return best;
}

/** The first of `names` (header keys) the table has, or undefined. */
export function pickColumn(header: readonly string[], names: readonly string[]): string | undefined {
  return names.find((n) => header.includes(n));
}

/** The first header key starting with one of `prefixes` (dated headers such as `prezzo pubblico 15 settembre 2026`). */
export function columnStartingWith(header: readonly string[], prefixes: readonly string[]): string | undefined {
  return header.find((h) => prefixes.some((p) => h.startsWith(p)));
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
