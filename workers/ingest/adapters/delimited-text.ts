/**
 * The text layer every delimited register list is read through: bytes to text (byte-order
 * marks, UTF-16 as Excel's "Unicode text" saves, UTF-8 or else Windows-1252), the separator a
 * list uses (`;`, tab or `,`), and fields split with quotes (separators, doubled quotes and line
 * breaks inside quoted fields), each record keeping the line it starts on for problem reports.
 * The tables above it (header row, cells by column name) are in delimited-table.ts; common.ts
 * re-exports the decoders and `parseCsv` for the adapters that read a file their own way.
 */

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

/**
 * Delimited text with quotes, character by character: quoted fields may hold the delimiter,
 * doubled quotes and line breaks (a quoted CR is kept). The delimiter is a comma unless given.
 */
export function parseCsv(text: string, delimiter = ',', options: SplitOptions = {}): CsvRecord[] {
  const loose = options.looseBlanks === true;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    fields.push(field);
    if (fields.length > 1 || (loose ? fields[0]!.trim() : fields[0]) !== '') records.push({ line: start, fields });
    fields = []; field = ''; start = line;
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (ch === '\n') line += 1;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') { field += '"'; i += 1; } else quoted = false;
    } else if (ch === '"' && (loose ? field.trim() : field) === '') { quoted = true; field = ''; } else if (ch === delimiter) { fields.push(field); field = ''; } else if (ch === '\n') end();
    else if (ch !== '\r') field += ch;
  }
  end();
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
 * ends inside a quoted field (the AIFA H list's `"Codice⏎AIC"` header) is joined with the next.
 * Line ends are dropped before joining, so a quoted line break reads as LF alone.
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
