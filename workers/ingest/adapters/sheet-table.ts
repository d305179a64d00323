/**
 * A worksheet read as a table: the first worksheet of an xlsx file (xlsx.ts), its header row
 * found among the first rows by the columns it names, so title rows above it (report name,
 * generation date) are skipped. Row numbers are the spreadsheet's own, for problem reports.
 */
import { FileRejectedError } from './common.ts';
import { excelDateToIso, readFirstSheet } from './xlsx.ts';
import type { CellValue, Sheet } from './xlsx.ts';

/** A data row below the header: its spreadsheet row number and its cells by header name. */
export interface TableRow {
  line: number;
  /** The cell under a header (a header key, see `headerKey`) as trimmed text; '' when empty or absent. */
  get(column: string): string;
  /** The cell as read (a number for numeric and date cells), undefined when empty or absent. */
  raw(column: string): CellValue;
}

export interface SheetTable {
  /** Header keys of the header row, in column order ('' for an empty header cell). */
  header: string[];
  rows: TableRow[];
  /** The workbook's date system, for `dateCell`. */
  date1904: boolean;
}

/** Header text as compared: lower case, single spaces, no surrounding blanks or trailing colon. */
export function headerKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase().replace(/:$/, '');
}

/** A cell as trimmed text; numbers as JavaScript prints them (integers without a decimal point). */
export function cellText(value: CellValue): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? String(value) : value.trim();
}

/** A report puts its header within its first rows; further down is data, not a header. */
export const HEADER_SEARCH_ROWS = 40;

/** The first worksheet as a table below the first row whose header keys satisfy `isHeader`; rejected when none does. */
export async function sheetTable(file: string, content: Buffer, isHeader: (keys: string[]) => boolean, what: string): Promise<SheetTable> {
  return rowsTable(file, await readFirstSheet(file, content), isHeader, what);
}

/** The same table over rows read some other way (a CSV export of a report): header found as in `sheetTable`. */
export function rowsTable(file: string, sheet: Sheet, isHeader: (keys: string[]) => boolean, what: string): SheetTable {
  const headerRow = sheet.rows.slice(0, HEADER_SEARCH_ROWS).find((r) => isHeader(r.cells.map((c) => headerKey(cellText(c)))));
  if (!headerRow) throw new FileRejectedError(file, `no header row naming ${what} in the first ${HEADER_SEARCH_ROWS} rows`);
  const header = Array.from(headerRow.cells, (c) => headerKey(cellText(c)));
  const index = new Map<string, number>();
  header.forEach((name, i) => { if (name && !index.has(name)) index.set(name, i); });
  const rows = sheet.rows
    .filter((r) => r.row > headerRow.row && r.cells.some((c) => cellText(c) !== ''))
    .map((r): TableRow => {
      const raw = (column: string): CellValue => {
        const i = index.get(headerKey(column));
        return i === undefined ? undefined : r.cells[i];
      };
      return { line: r.row, raw, get: (column) => cellText(raw(column)) };
    });
  return { header, rows, date1904: sheet.date1904 };
}

/** A date cell as ISO: an Excel serial, `DD/MM/YYYY`, `DD.MM.YYYY` or ISO text; '' when empty, null when not a date. */
export function dateCell(value: CellValue, date1904: boolean): string | null {
  if (typeof value === 'number') return excelDateToIso(value, date1904);
  const text = cellText(value);
  if (text === '') return '';
  const dayFirst = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(text);
  if (dayFirst) {
    const iso = `${dayFirst[3]}-${dayFirst[2]!.padStart(2, '0')}-${dayFirst[1]!.padStart(2, '0')}`;
    const date = new Date(`${iso}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
  }
  return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
}
