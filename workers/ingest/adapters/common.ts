/**
 * Small text helpers shared by the register adapters: decoding, line and CSV splitting,
 * national number and date formats, provisional keys. Hand-written because the formats are
 * simple and each adapter needs exact line numbers for its problem reports.
 */
import { packUnits } from '../../../vocabulary/pack-size.ts';
import { PROVISIONAL_NAME_PREFIX } from '../snapshot.ts';
import type { RowProblem } from '../snapshot.ts';
import { decodeWindows1252 } from './delimited-text.ts';

// The decoders and the quote-aware splitter live with the delimited-list readers; re-exported
// here for the adapters that read a file their own way.
export { decodeText, decodeUtf8OrLatin, decodeWindows1252, parseCsv } from './delimited-text.ts';
export type { CsvRecord } from './delimited-text.ts';

/** One input file of an adapter, as the CLI reads it. */
export interface InputFile {
  name: string;
  /** The bytes (for a file on disk loaded on first use: line-stream.ts `fileInput`). */
  content: Buffer;
  /** Where the file lies on disk, when it does: streaming adapters read it from there in blocks. */
  path?: string;
}

/** Thrown when a file's structure (header, root element, column layout) is not the expected one. */
export class FileRejectedError extends Error {
  readonly file: string;

  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'FileRejectedError';
    this.file = file;
  }
}

/** Collects row problems; each adapter reports through one of these. */
export class ProblemLog {
  readonly problems: RowProblem[] = [];

  add(file: string, line: number, message: string): void {
    this.problems.push({ file, line, message });
  }
}

/** A line of text with its 1-based line number. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Splits on LF or CRLF, keeping 1-based numbers; blank lines are dropped. */
export function numberedLines(text: string): NumberedLine[] {
  const out: NumberedLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() !== '') out.push({ line: i + 1, text: raw });
  });
  return out;
}

/** Splits a tab-separated line; the registers here never quote fields. */
export function tabFields(text: string): string[] {
  return text.split('\t').map((f) => f.trim());
}

/**
 * French number: comma decimal, spaces (incl. no-break) or dots or extra commas as thousands
 * separators (`1,23`, `1 234,56`, `1.234,56`, and BDPM's `1,234,56`). Null when not a number.
 */
export function parseFrenchNumber(raw: string): number | null {
  let s = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (s === '') return null;
  const lastComma = s.lastIndexOf(',');
  if (lastComma >= 0) s = `${s.slice(0, lastComma).replace(/[.,]/g, '')}.${s.slice(lastComma + 1)}`;
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

/** Plain decimal with a dot (`0.8`, `125.8359`); null when not a finite number. */
export function parseDecimal(raw: string): number | null {
  const s = raw.trim();
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : null;
}

function isoDate(year: string, month: string, day: string): string | null {
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  // Rejects 31/02 and the like, which Date would otherwise roll over.
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

/** `DD/MM/YYYY` (BDPM) or `DD.MM.YYYY` (SL) to ISO `YYYY-MM-DD`; null when invalid. */
export function isoFromDayFirst(raw: string): string | null {
  const m = /^(\d{2})[./](\d{2})[./](\d{4})$/.exec(raw.trim());
  return m ? isoDate(m[3]!, m[2]!, m[1]!) : null;
}

/** `YYYYMMDD` (FDA) to ISO `YYYY-MM-DD`; null when invalid. */
export function isoFromCompact(raw: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(raw.trim());
  return m ? isoDate(m[1]!, m[2]!, m[3]!) : null;
}

/** Provisional substance or class key from a name: trimmed, single-spaced, upper case. */
export function provisionalNameKey(name: string): string {
  return PROVISIONAL_NAME_PREFIX + name.trim().replace(/\s+/g, ' ').toUpperCase();
}

/**
 * Units and unit of a pack text in the register's own words (`100 TABLET in 1 BOTTLE`, `12 Stk`,
 * `4 x 112 Kapsel(n)` → 448, `Durchstf 10 ml` → 10 ml, `plaquette(s) ... de 28 comprimé(s)`),
 * read by the catalogue's pack-size grammar (vocabulary/pack-size.ts).
 */
export function leadingQuantity(description: string): { units: number; unit: string } | null {
  return packUnits(description);
}

/** Finds a file by exact or case-insensitive base name. */
export function findFile(files: InputFile[], name: string): InputFile | undefined {
  const base = (n: string): string => n.split(/[\\/]/).pop()!.toLowerCase();
  return files.find((f) => base(f.name) === name.toLowerCase());
}

/** A data row of a tab-separated file with a header line. */
export interface TsvRow {
  line: number;
  /** True when the row has as many fields as the header. */
  complete: boolean;
  get(column: string): string;
}

/** A tab-separated header: column positions by upper-cased name, and the number of columns. */
export interface TsvHeader {
  index: ReadonlyMap<string, number>;
  width: number;
}

/** Reads a tab-separated header line; a header lacking `required` rejects the file. */
export function tsvHeader(file: string, header: string | undefined, required: readonly string[]): TsvHeader {
  const names = header !== undefined ? tabFields(header).map((n) => n.toUpperCase()) : [];
  const missing = required.filter((c) => !names.includes(c));
  if (missing.length > 0) throw new FileRejectedError(file, `unexpected header: missing ${missing.join(', ')}`);
  return { index: new Map(names.map((n, i) => [n, i])), width: names.length };
}

/** One data line of a tab-separated file, read through its header. */
export function tsvRow(header: TsvHeader, line: number, raw: string): TsvRow {
  const values = raw.split('\t');
  return {
    line,
    complete: values.length === header.width,
    get: (column: string) => (values[header.index.get(column) ?? -1] ?? '').trim(),
  };
}

/** Tab-separated file whose first line names the columns; a header lacking `required` rejects the file. */
export function parseHeaderedTsv(file: string, text: string, required: readonly string[]): TsvRow[] {
  const [header, ...body] = numberedLines(text);
  const columns = tsvHeader(file, header?.text, required);
  return body.map(({ line, text: raw }) => tsvRow(columns, line, raw));
}

/** A malformed row detected deep inside a row parser: caught by the adapter, reported, skipped. */
export class RowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RowError';
  }
}

/**
 * Calls `onLine` for every non-blank line of `content` (LF or CRLF) with its 1-based number,
 * without decoding the whole file: register files of a gigabyte (RxNorm RXNSAT.RRF, openFDA)
 * would exceed V8's string limit as one string. Lines are UTF-8; a line that is not valid
 * UTF-8 is read as Windows-1252 (older US exports mix them). A UTF-8 byte-order mark is skipped.
 */
export function forEachLine(content: Buffer, onLine: (text: string, line: number) => void): void {
  let start = content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  for (let line = 1; start < content.length; line += 1) {
    const newline = content.indexOf(0x0a, start);
    const stop = newline < 0 ? content.length : newline;
    const end = stop > start && content[stop - 1] === 0x0d ? stop - 1 : stop;
    if (end > start) {
      let text = content.toString('utf8', start, end);
      // Invalid UTF-8 decodes to U+FFFD: such a line is Windows-1252.
      if (text.includes('\ufffd')) text = decodeWindows1252(content.subarray(start, end));
      if (text.trim() !== '') onLine(text, line);
    }
    start = stop + 1;
  }
}
