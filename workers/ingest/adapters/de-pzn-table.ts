/**
 * The table of a German PZN list, whatever file it came as: delimited text (`;`, `,` or tab,
 * UTF-8 or Windows-1252, quoted fields), a fixed-width text list (columns aligned with spaces
 * under a header line, as report and mainframe exports print them), or an xlsx workbook. In
 * every form the header is the first row (within the first 40) that names a PZN column, so title
 * rows above it are skipped; cells are read by header name.
 */
import { FileRejectedError } from './common.ts';
import { gkvTextTable } from './de-pzn-gkv-text.ts';
import type { InputFile } from './common.ts';
import { columnIndex, delimitedRow, headerRecord } from './delimited-table.ts';
import type { IsHeader } from './delimited-table.ts';
import { decodeUtf8OrLatin, detectSeparator, isZip, parseCsv } from './delimited-text.ts';
import { HEADER_SEARCH_ROWS, headerKey, sheetTable } from './sheet-table.ts';

export interface Table {
  header: string[];
  /** `problem`: why a line below the header cannot be a row (the adapter reports it as malformed). */
  rows: Array<{ line: number; get(column: string): string; problem?: string }>;
  /** How the file was read, for the file report. */
  layout: 'delimited' | 'fixed-width' | 'xlsx' | 'gkv-text';
  /** Lines below the header that are no rows (page footers and titles the list repeats on each page). */
  notData?: number;
}

function delimitedTable(text: string, isHeader: IsHeader): Table | null {
  const records = parseCsv(text, detectSeparator(text), { looseBlanks: true });
  const at = headerRecord(records, (keys) => keys.length > 1 && isHeader(keys), HEADER_SEARCH_ROWS);
  if (at < 0) return null;
  const header = records[at]!.fields.map(headerKey);
  const index = columnIndex(header);
  // A row of bare separators stays a row: the list reports it ("no PZN") rather than dropping it.
  return { header, layout: 'delimited', rows: records.slice(at + 1).map((r) => delimitedRow(index, r.line, r.fields)) };
}

/** Start offsets of the header's column titles: runs of text separated by two or more spaces (or a tab). */
export function columnStarts(headerLine: string): Array<{ start: number; title: string }> {
  const out: Array<{ start: number; title: string }> = [];
  for (const m of headerLine.replace(/\t/g, '  ').matchAll(/\S+(?: \S+)*/g)) out.push({ start: m.index, title: m[0] });
  return out;
}

/** Where a cell ends at boundary `b`: a token straddling it (a right-aligned amount under its title) belongs to the column on the right. */
function cutAt(text: string, b: number): number {
  if (b <= 0 || b >= text.length || text[b - 1] === ' ' || text[b] === ' ') return b;
  let s = b;
  while (s > 0 && text[s - 1] !== ' ') s -= 1;
  return s;
}

/**
 * A fixed-width list: the header line's titles mark where each column starts; a cell runs to
 * the next column's start, except that a value straddling that start (an amount aligned to the
 * right edge of its column) goes to the next column whole.
 */
function fixedWidthTable(text: string, isHeader: (keys: string[]) => boolean): Table | null {
  const lines = text.split(/\r?\n/);
  const at = lines.slice(0, HEADER_SEARCH_ROWS).findIndex((l) => {
    const cols = columnStarts(l);
    return cols.length > 1 && isHeader(cols.map((c) => headerKey(c.title)));
  });
  if (at < 0) return null;
  const cols = columnStarts(lines[at]!);
  const header = cols.map((c) => headerKey(c.title));
  const rows: Table['rows'] = [];
  lines.slice(at + 1).forEach((raw, i) => {
    const text = raw.replace(/\t/g, '  ');
    // Rulers under the header (`----  -----`) and blank lines are no rows.
    if (text.trim() === '' || /^[\s=-]+$/.test(text)) return;
    const bounds = cols.map((c) => cutAt(text, c.start));
    const cells = cols.map((_, j) => text.slice(bounds[j], bounds[j + 1] ?? text.length).trim());
    rows.push({ line: at + i + 2, get: (column: string) => cells[header.indexOf(column)] ?? '' });
  });
  return { header, rows, layout: 'fixed-width' };
}

/** The list's table; rejected when no header naming a PZN column is found. */
export async function readPznTable(file: InputFile, isHeader: (keys: string[]) => boolean): Promise<Table> {
  if (isZip(file.content)) {
    const sheet = await sheetTable(file.name, file.content, isHeader, 'a PZN column');
    return { header: sheet.header, rows: sheet.rows, layout: 'xlsx' };
  }
  const text = decodeUtf8OrLatin(file.content);
  // The GKV list's text is recognised first: its header's titles do not stand over its columns.
  const table = gkvTextTable(text) ?? delimitedTable(text, isHeader) ?? fixedWidthTable(text, isHeader);
  if (!table) throw new FileRejectedError(file.name, 'no header row with a PZN column in the first rows');
  return table;
}
