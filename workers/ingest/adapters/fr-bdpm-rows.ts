/**
 * Reading the BDPM export files as rows: every file is tab separated, has no header and no
 * quoting, and comes in its own encoding and line ends (CIS_bdpm and the HAS files
 * Windows-1252 with CRLF, CIS_CIP_bdpm UTF-8 with LF since 2024, CIS_CPD with stray
 * `\r\r\n`), so each file is decoded on its own (UTF-8 when valid, else Windows-1252).
 * Also the small text helpers the BDPM readers share; rows are counted with RowTally (row-outcome.ts).
 */
import { FileRejectedError, decodeUtf8OrLatin, isoFromCompact, isoFromDayFirst, numberedLines, tabFields } from './common.ts';
import type { InputFile, NumberedLine } from './common.ts';

/** A CIS code: the 8-digit specialty code (all BDPM files but HAS_LiensPageCT carry it). */
export const CIS = /^\d{8}$/;

/**
 * A row about a CIS (or a CIP13) this release's CIS_bdpm.txt (or CIS_CIP_bdpm.txt) does not
 * hold: the BDPM files are exported one by one and a few rows name a medicine the main file
 * no longer (or not yet) lists. Excluded, not malformed: the row itself reads.
 */
export const NO_PRODUCT = 'no_product';

/** A row as tab-separated fields, with the line it starts on. */
export interface BdpmRow {
  line: number;
  fields: string[];
}

/**
 * Fields of a line; empty trailing fields beyond `max` are dropped (most CIS_CIP rows end
 * with a tab), and fields beyond `max` are joined back into the last one when `textLast`
 * (a free text that itself holds a tab).
 */
export function rowFields(text: string, max: number, textLast = false): string[] {
  const fields = tabFields(text);
  while (fields.length > max && fields[fields.length - 1] === '') fields.pop();
  if (textLast && fields.length > max) fields.splice(max - 1, fields.length, fields.slice(max - 1).join(' '));
  return fields;
}

/** The decoded non-blank lines of a file. */
export function fileLines(file: InputFile): NumberedLine[] {
  return numberedLines(decodeUtf8OrLatin(file.content));
}

/**
 * Rejects the whole file when its first row does not have the layout's shape (a header
 * line, another BDPM file under this name, a spreadsheet export): one bad first row means
 * the file is not what its name says, unlike a single malformed row further down.
 */
export function checkFirstRow(file: string, lines: NumberedLine[], role: string, fits: (fields: string[]) => boolean, max: number): void {
  const first = lines[0];
  if (!first) throw new FileRejectedError(file, `empty: no ${role} row`);
  if (!fits(rowFields(first.text, max, true))) throw new FileRejectedError(file, `line ${first.line} is not a ${role} row`);
}

/** `DD/MM/YYYY` (BDPM) or `YYYYMMDD` (HAS files) or `YYYY-MM-DD` to ISO; null when invalid. */
export function bdpmDate(raw: string): string | null {
  const s = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return isoFromCompact(s.replace(/-/g, ''));
  return /^\d{8}$/.test(s) ? isoFromCompact(s) : isoFromDayFirst(s);
}

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', eacute: 'é', egrave: 'è', ecirc: 'ê', agrave: 'à',
  acirc: 'â', ccedil: 'ç', ocirc: 'ô', ucirc: 'û', ugrave: 'ù', icirc: 'î', iuml: 'ï', euml: 'ë', rsquo: '’', lsquo: '‘',
  laquo: '«', raquo: '»', hellip: '…', ndash: '–', mdash: '—', deg: '°', micro: 'µ', oelig: 'œ', Eacute: 'É',
};

/**
 * Plain text of the HTML fragments the HAS opinions and ANSM safety notes carry (`<br>`,
 * `<p>`, `<b>`, `<a href>`, entities): tags become spaces, entities characters, runs of
 * white space one space.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&([a-z]+);/gi, (whole, name: string) => ENTITIES[name] ?? whole)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first `href` of an HTML fragment, if any. */
export function firstHref(html: string): string | undefined {
  return /href\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
}

/**
 * Rows of a file whose last column is a free text that may hold line breaks (HAS opinions):
 * a line that does not start with `start` continues the text of the row on the line before.
 * A fragment with no row right before it is returned as a row of its own (the caller reports it).
 */
export function rowsWithContinuations(lines: NumberedLine[], max: number, start: RegExp): BdpmRow[] {
  const rows: BdpmRow[] = [];
  let previous: { row: BdpmRow; lastLine: number } | undefined;
  for (const { line, text } of lines) {
    const adjacent = previous && previous.lastLine === line - 1;
    if (!start.test(text) && adjacent && previous) {
      const fields = previous.row.fields;
      fields[fields.length - 1] = `${fields[fields.length - 1] ?? ''} ${text.trim()}`.trim();
      previous.lastLine = line;
      continue;
    }
    const row = { line, fields: rowFields(text, max, true) };
    rows.push(row);
    previous = { row, lastLine: line };
  }
  return rows;
}
