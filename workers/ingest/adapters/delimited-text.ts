/**
 * The text layer every delimited register list is read through: bytes to text (byte-order
 * marks, UTF-16 as Excel's "Unicode text" saves, UTF-8 or else Windows-1252), the separator a
 * list uses (`;`, tab or `,`), and fields split with quotes (separators, doubled quotes and line
 * breaks inside quoted fields), each record keeping the line it starts on for problem reports.
 * The tables above it (header row, cells by column name) are in delimited-table.ts; common.ts
 * re-exports the decoders and `parseCsv` for the adapters that read a file their own way.
 * Quoted fields are read by csv-parse, not by a scanner of drugref's own.
 */
import { parse } from 'csv-parse/sync';

/**
 * Windows-1252 characters of bytes 0x80-0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ);
 * the five unassigned bytes keep their C1 code point, as the WHATWG encoding standard says.
 */
const CP1252_C1 = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f'
  + '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Windows-1252 text. Node 20's TextDecoder('windows-1252') decodes like Latin-1 and leaves
 * 0x80-0x9F as C1 controls (’ and Œ would vanish), so that range is mapped here. Single-byte,
 * so a large file can be decoded chunk by chunk.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => CP1252_C1.charAt(c.charCodeAt(0) - 0x80));
}

function hasUtf8Bom(content: Uint8Array): boolean {
  return content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
}

function stripBom(content: Buffer): Buffer {
  return hasUtf8Bom(content) ? content.subarray(3) : content;
}

/** Decodes a file; a UTF-8 byte-order mark always wins over the declared encoding. */
export function decodeText(content: Buffer, encoding: 'utf-8' | 'windows-1252' = 'utf-8'): string {
  const body = stripBom(content);
  if (body !== content || encoding === 'utf-8') return new TextDecoder('utf-8').decode(body);
  return decodeWindows1252(body);
}

/** UTF-8 when the bytes are valid UTF-8, otherwise Windows-1252 (older US exports use it). */
export function decodeUtf8OrLatin(content: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(stripBom(content));
  } catch {
    return decodeWindows1252(content);
  }
}

/**
 * Text of a delimited list as saved by a spreadsheet or a register's export: a UTF-16 or UTF-8
 * byte-order mark decides; without one, valid UTF-8 is UTF-8 and anything else Windows-1252
 * (Fimea writes "Windows ANSI", the EMA's report comes as Excel "Unicode text" too).
 */
export function decodeDelimitedText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content[0] === 0xfe && content[1] === 0xff) return new TextDecoder('utf-16be').decode(content.subarray(2));
  const body = stripBom(content);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

/** True when the bytes are a zip container (an xlsx workbook), not text. */
export function isZip(content: Buffer): boolean {
  return content.length >= 4 && content[0] === 0x50 && content[1] === 0x4b && content[2] === 0x03 && content[3] === 0x04;
}

/** The separator used most in the first lines: `;`, tab or `,` (the first of them on a tie). */
export function detectSeparator(text: string): string {
  const head = text.slice(0, 4000);
  const count = (sep: string) => head.split(sep).length - 1;
  return [';', '\t', ','].map((sep) => [sep, count(sep)] as const).sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * `;` when the first line holds more semicolons than commas, else `,`: for a file whose first
 * line is its header (the Swiss SL group lists, Spain's billing list), where a comma inside a
 * quoted header name must not outvote the semicolons.
 */
export function firstLineSeparator(text: string): ';' | ',' {
  const end = text.indexOf('\n');
  const first = end < 0 ? text : text.slice(0, end);
  return first.split(';').length > first.split(',').length ? ';' : ',';
}

/** A delimited record: its fields and the line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** How blanks count when splitting. */
export interface SplitOptions {
  /**
   * Blanks are no content (the German and Nordic lists): a quote after blanks still opens a
   * quoted field (`1; "a;b"`), and a line of blanks is no record. Otherwise strictly RFC 4180:
   * only a quote first in its field opens one, and only an empty line is skipped.
   */
  looseBlanks?: boolean;
}

/** Record ends csv-parse splits on: CRLF or LF (a lone CR stays in its field, as Excel writes one in a cell). */
const RECORD_DELIMITERS = ['\r\n', '\n'];

/** One record as csv-parse gives it with `info`: its fields and the UTF-8 byte offset after it. */
interface ParsedRecord { record: string[]; info: { bytes: number } }

function parseWithInfo(text: string, delimiter: string, loose: boolean): ParsedRecord[] {
  const options = {
    delimiter, record_delimiter: RECORD_DELIMITERS, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, info: true,
    // Blanks are no content: a quote after them opens a field, and blanks after a closing quote end it.
    ...(loose ? { ltrim: true, rtrim: true } : {}),
  } as const;
  try {
    return parse(text, options) as unknown as ParsedRecord[];
  } catch (error) {
    // A quote left open at the end (a cut file): its field runs to the end, as the register wrote it.
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED') return parse(`${text}"`, options) as unknown as ParsedRecord[];
    throw error;
  }
}

/** LF, CR, and with loose blanks also space and tab: what may precede a record's first field. */
function skippable(byte: number, loose: boolean): boolean {
  return byte === 0x0a || byte === 0x0d || (loose && (byte === 0x20 || byte === 0x09));
}

/**
 * Delimited text with quotes (csv-parse): quoted fields may hold the delimiter, doubled quotes
 * and line breaks (a quoted CR is kept); a quote inside an unquoted field is literal (`5" tablet`),
 * rows may differ in width. Each record keeps the 1-based line it starts on, counted from the
 * byte offsets csv-parse reports (its own line count counts a quoted CRLF twice). The delimiter
 * is a comma unless given. Blank lines are no record; in strict mode a line of blanks is one.
 */
export function parseCsv(text: string, delimiter = ',', options: SplitOptions = {}): CsvRecord[] {
  const loose = options.looseBlanks === true;
  const bytes = Buffer.from(text, 'utf8');
  const records: CsvRecord[] = [];
  let at = 0;
  let line = 1;
  for (const { record, info } of parseWithInfo(text, delimiter, loose)) {
    // Skip the empty lines csv-parse passed over (with loose blanks, lines of blanks too), counting them.
    while (at < info.bytes && skippable(bytes[at]!, loose)) { if (bytes[at] === 0x0a) line += 1; at += 1; }
    const start = line;
    for (; at < info.bytes; at += 1) if (bytes[at] === 0x0a) line += 1;
    // csv-parse yields a line of blanks as one field; with loose blanks that is no record.
    if (loose && record.length === 1 && record[0]!.trim() === '') continue;
    records.push({ line: start, fields: record });
  }
  return records;
}

/**
 * Records of a whole text: without any quote character each line is one record and a plain
 * split serves (the registers' usual case, and far lighter on memory than the quote-aware
 * scanner); with quotes, `parseCsv` with blanks counting as no content.
 */
export function splitRecords(text: string, separator: string): CsvRecord[] {
  if (text.includes('"')) return parseCsv(text, separator, { looseBlanks: true });
  const out: CsvRecord[] = [];
  text.split('\n').forEach((raw, i) => {
    const fields = raw.replace(/\r$/, '').split(separator);
    if (fields.length > 1 || fields[0]!.trim() !== '') out.push({ line: i + 1, fields });
  });
  return out;
}

/**
 * The records of a delimited text as `parseCsv` reads them, with a quoted CRLF read as LF (the
 * AIFA H list's `"Codice⏎AIC"` header reads the same whatever line ends the file was saved with)
 * and lines of blanks skipped.
 */
export function delimitedRecords(text: string, separator: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  for (const r of parseCsv(text, separator)) {
    if (r.fields.length === 1 && r.fields[0]!.trim() === '') continue;
    records.push({ line: r.line, fields: r.fields.map((f) => (f.includes('\r\n') ? f.replace(/\r\n/g, '\n') : f)) });
  }
  return records;
}

/**
 * Fields of many one-record lines at once: lines without a quote split plainly, the others
 * parsed by csv-parse in one call (a call per line costs far more than its parsing). A line
 * that would not parse as one record on its own (a quote left open) is split alone.
 */
export function splitLines(lines: readonly string[], separator: string): string[][] {
  const out: string[][] = lines.map((text) => (text.includes('"') ? [] : text.split(separator)));
  const quoted = lines.flatMap((text, i) => (text.includes('"') ? [i] : []));
  if (quoted.length === 0) return out;
  let records: string[][] = [];
  try {
    records = parse(quoted.map((i) => lines[i]).join('\n'), { delimiter: separator, relax_quotes: true, relax_column_count: true }) as string[][];
  } catch {
    // A quote left open runs to the end of the batch: each line is split alone below.
  }
  // No quoted line is empty, so as many records as lines means one record per line.
  const oneEach = records.length === quoted.length;
  quoted.forEach((i, k) => { out[i] = oneEach ? records[k]! : splitLine(lines[i]!, separator); });
  return out;
}

/** Fields of one line: a plain split unless the line quotes a field (most lines of a register do not). */
export function splitLine(text: string, separator: string): string[] {
  if (!text.includes('"')) return text.split(separator);
  // One record: no line numbers to count, so csv-parse is called without `info` (the AIFA stream calls this per line).
  const options = { delimiter: separator, relax_quotes: true, relax_column_count: true } as const;
  try {
    return (parse(text, options) as string[][])[0] ?? [];
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED') return (parse(`${text}"`, options) as string[][])[0] ?? [];
    throw error;
  }
}
