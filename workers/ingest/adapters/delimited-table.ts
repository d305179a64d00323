/**
 * A register list read as a table, whatever the publisher saved it as: an xlsx workbook (first
 * worksheet) or delimited text in UTF-8, UTF-16 (Excel's "Unicode text", with its byte-order
 * mark) or Windows-1252, separated by `;`, tab or `,`. The header row is found among the first
 * rows by the columns it names, so title rows above it are skipped; row numbers are the file's
 * own lines (or spreadsheet rows) for problem reports. The Nordic lists (Fimea, Kela, TLV) come
 * in every one of these shapes depending on the release and the export button pressed.
 */
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import type { InputFile } from './common.ts';
import { parseDelimited } from './de-pzn.ts';
import { headerKey, sheetTable } from './sheet-table.ts';

/** A data row below the header: its line and its cells by header key. */
export interface DelimitedRow {
  line: number;
  /** Number of cells the row has (a short or long row is usually malformed). */
  width: number;
  /** The trimmed cell under a header key (see `headerKey`); '' when absent. */
 * A delimited text file (`;`, tab or `,`) read as a table through its header row, the way the
 * Italian AIFA lists and the Portuguese Infomed exports are published: UTF-8 or Windows-1252
 * (decided per file), CRLF or LF, fields quoted with doubled quotes inside, title lines above
 * the header skipped. Rows keep their first line number for problem reports; cells are read by
 * header key (`headerKey`: lower case, single spaces), so header wording that differs only in
 * case between releases (`codice_aic` / `CODICE_AIC`) reads the same.
 */
import { FileRejectedError, decodeUtf8OrLatin, parseCsv } from './common.ts';
import type { CsvRecord } from './common.ts';
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
  rows: DelimitedRow[];
  /** True when the file was a workbook (its rows have no fixed width to check). */
  workbook: boolean;
}

// A report puts its header within its first rows; further down is data, not a header.
const HEADER_SEARCH_ROWS = 40;

/**
 * Text of a delimited file: a UTF-16 or UTF-8 byte-order mark decides; without one, valid
 * UTF-8 is UTF-8 and anything else Windows-1252 (Fimea writes "Windows ANSI").
 */
export function decodeListText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content[0] === 0xfe && content[1] === 0xff) return new TextDecoder('utf-16be').decode(content.subarray(2));
  const body = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? content.subarray(3) : content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

/** The separator used most in the first lines: `;`, tab or `,`. */
function sniffSeparator(text: string): string {
  const head = text.slice(0, 4000);
  const counts = [';', '\t', ','].map((sep) => [sep, head.split(sep).length] as const);
  return counts.sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * Records of the text with their first line. Without any quote character each line is one
 * record and a plain split serves (the registers' usual case, and far lighter on memory than
 * the quote-aware scanner).
 */
function splitRecords(text: string, separator: string): Array<{ line: number; fields: string[] }> {
  if (text.includes('"')) return parseDelimited(text, separator);
  const out: Array<{ line: number; fields: string[] }> = [];
  text.split('\n').forEach((raw, i) => {
    const fields = raw.replace(/\r$/, '').split(separator);
    if (fields.length > 1 || fields[0]!.trim() !== '') out.push({ line: i + 1, fields });
  });
  return out;
}

function textTable(file: InputFile, isHeader: (keys: string[]) => boolean, what: string): DelimitedTable {
  const text = decodeListText(file.content);
  const records = splitRecords(text, sniffSeparator(text));
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
  /** Header cells as written (for headers that carry a date, like `Prezzo Pubblico 15 settembre 2026`). */
  headerText: string[];
  rows: DelimitedRow[];
}

// Publishers put a title or a note of a line or two above the header; further down is data.
const HEADER_SEARCH_LINES = 20;

/** The separator used most in the first lines: `;` for AIFA and Infarmed, tab or `,` for re-saved copies. */
export function detectSeparator(text: string): string {
  const head = text.slice(0, 4000);
  const count = (sep: string) => head.split(sep).length - 1;
  return [';', '\t', ','].map((sep) => [sep, count(sep)] as const).sort((a, b) => b[1] - a[1])[0]![0];
}

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

/** True when `text` ends inside a quoted field (a quoted line break follows), read as `parseCsv` reads it. */
function endsQuoted(text: string, separator: string): boolean {
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') i += 1;
        else quoted = false;
      }
    } else if (ch === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else fieldStart = ch === separator;
  }
  return quoted;
}

/**
 * The records of a delimited text, as `parseCsv` reads them but line by line: a line without a
 * quote is split plainly (a register of 80 MB in seconds instead of a minute), and a line that
 * ends inside a quoted field (the H list's `"Codice⏎AIC"` header) is joined with the next.
 */
export function delimitedRecords(text: string, separator: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const lines = text.split('\n');
  let pending: string | null = null;
  let start = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const raw = lines[i]!;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (pending === null) { pending = line; start = i + 1; } else pending += `\n${line}`;
    if (pending.includes('"') && endsQuoted(pending, separator) && i < lines.length - 1) continue;
    if (pending.trim() !== '') records.push({ line: start, fields: splitLine(pending, separator) });
    pending = null;
  }
  return records;
}

/** Fields of one line: a plain split unless the line quotes a field (most lines of a register do not). */
export function splitLine(text: string, separator: string): string[] {
  return text.includes('"') ? (parseCsv(text, separator)[0]?.fields ?? []) : text.split(separator);
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
/** The first header key starting with one of `prefixes` (dated headers such as `prezzo pubblico 15 settembre 2026`). */
export function columnStartingWith(header: readonly string[], prefixes: readonly string[]): string | undefined {
  return header.find((h) => prefixes.some((p) => h.startsWith(p)));
}
