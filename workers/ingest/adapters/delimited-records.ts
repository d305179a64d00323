/**
 * A delimited text file (`;`, tab or `,`) read as a table through its header row, the way the
 * Italian AIFA lists and the Portuguese Infomed exports are published: UTF-8 or Windows-1252
 * (decided per file), CRLF or LF, fields quoted with doubled quotes inside, title lines above
 * the header skipped. Rows keep their first line number for problem reports; cells are read by
 * header key (`headerKey`: lower case, single spaces), so header wording that differs only in
 * case between releases (`codice_aic` / `CODICE_AIC`) reads the same.
 */
import { FileRejectedError } from './common.ts';
import { decodeUtf8OrLatin, delimitedRecords, detectSeparator } from './delimited-text.ts';
import type { InputFile } from './common.ts';
import { headerKey } from './sheet-table.ts';

/** A data row below the header. */
export interface DelimitedRow {
  line: number;
  /** Number of fields the row has (a row with fewer than the header is malformed). */
  width: number;
  /** The trimmed cell under a header key, '' when absent. */
  get(column: string): string;
}

export interface DelimitedTable {
  /** Header keys in column order. */
  header: string[];
  /** Header cells as written (for headers that carry a date, like `Prezzo Pubblico 15 settembre 2026`). */
  headerText: string[];
  rows: DelimitedRow[];
}

// Publishers put a title or a note of a line or two above the header; further down is data.
const HEADER_SEARCH_LINES = 20;

export { delimitedRecords, detectSeparator, splitLine } from './delimited-text.ts';

/**
 * The table of a delimited file below the first line whose header keys satisfy `isHeader`;
 * the file is rejected when no line in the first lines does.
 */
export function delimitedTable(file: InputFile, isHeader: (keys: string[]) => boolean, what: string): DelimitedTable {
  const text = decodeUtf8OrLatin(file.content);
  const records = delimitedRecords(text, detectSeparator(text));
  const at = records.slice(0, HEADER_SEARCH_LINES).findIndex((r) => isHeader(r.fields.map(headerKey)));
  if (at < 0) throw new FileRejectedError(file.name, `no header row naming ${what} in the first ${HEADER_SEARCH_LINES} lines`);
  const headerText = records[at]!.fields.map((f) => f.replace(/\s+/g, ' ').trim());
  const header = headerText.map(headerKey);
  const index = columnIndex(header);
  const rows = records.slice(at + 1)
    .filter((r) => r.fields.some((f) => f.trim() !== ''))
    .map((r) => delimitedRow(index, r.line, r.fields));
  return { header, headerText, rows };
}

/** Position of each header key (the first, when a key repeats). */
export function columnIndex(header: readonly string[]): ReadonlyMap<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => { if (name !== '' && !index.has(name)) index.set(name, i); });
  return index;
}

/** A row of fields read through a header's column index. */
export function delimitedRow(index: ReadonlyMap<string, number>, line: number, fields: readonly string[]): DelimitedRow {
  return { line, width: fields.length, get: (column) => (fields[index.get(column) ?? -1] ?? '').trim() };
}

/** The first of `names` (header keys) the table has, or undefined. */
export function pickColumn(header: readonly string[], names: readonly string[]): string | undefined {
  return names.find((n) => header.includes(n));
}

/** The first header key starting with one of `prefixes` (dated headers such as `prezzo pubblico 15 settembre 2026`). */
export function columnStartingWith(header: readonly string[], prefixes: readonly string[]): string | undefined {
  return header.find((h) => prefixes.some((p) => h.startsWith(p)));
}
