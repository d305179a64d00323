/**
 * A report published as CSV as well as xlsx (the EMA's medicines report) read as the same
 * table: the text decoded (UTF-16 with its byte-order mark, as Excel's "Unicode text" saves;
 * UTF-8 with or without one; otherwise Windows-1252), the separator taken from the header line
 * (comma, semicolon or tab: exports saved under a continental locale use `;`), title lines
 * above the header skipped exactly as in the workbook. Quoted fields may hold separators and
 * line breaks (the report's "Species\n(veterinary)" headers do).
 */
import { FileRejectedError, decodeUtf8OrLatin, parseCsv } from './common.ts';
import { rowsTable } from './sheet-table.ts';
import type { SheetTable } from './sheet-table.ts';

const SEPARATORS = [',', ';', '\t'] as const;

/** True when the bytes are a zip container (an xlsx workbook), not text. */
export function isZip(content: Buffer): boolean {
  return content.length >= 4 && content[0] === 0x50 && content[1] === 0x4b && content[2] === 0x03 && content[3] === 0x04;
}

/** The text of a CSV export: UTF-16 by its byte-order mark, else UTF-8 (BOM dropped), else Windows-1252. */
export function decodeCsvText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return new TextDecoder('utf-16le').decode(content.subarray(2));
  if (content[0] === 0xfe && content[1] === 0xff) return new TextDecoder('utf-16be').decode(content.subarray(2));
  return decodeUtf8OrLatin(content);
}

/**
 * The CSV as a table below the first record whose header keys satisfy `isHeader`, trying each
 * separator and keeping the one whose header splits into the most columns; rejected when none
 * finds the header.
 */
export function csvTable(file: string, content: Buffer, isHeader: (keys: string[]) => boolean, what: string): SheetTable {
  const text = decodeCsvText(content);
  let best: SheetTable | null = null;
  for (const separator of SEPARATORS) {
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
