/**
 * The first worksheet of an .xlsx workbook, read with exceljs, as plain rows: each cell as
 * text or a number, dates as Excel serial numbers of the 1900 system (the registers' columns
 * mix dates stored as dates and as text, so the adapters decide per column), rich text and
 * formula results flattened. A file that is not a readable workbook is rejected, never thrown.
 */
import ExcelJS from 'exceljs';
import { FileRejectedError } from './common.ts';

/** A cell as read: text, a number (dates are serial numbers), or undefined when empty. */
export type CellValue = string | number | undefined;

/** One non-empty worksheet row: its 1-based row number and its cells by 0-based column (A = 0). */
export interface SheetRow {
  row: number;
  cells: CellValue[];
}

export interface Sheet {
  rows: SheetRow[];
  /** Always false: exceljs turns dates of either date system into instants, read back as 1900 serials. */
  date1904: boolean;
}

// Excel's 1900 date system counts 1900-02-29 (which never was), so serials from 61 on are one day late.
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const DAY_MS = 86_400_000;

/** An Excel date serial as an ISO date (`YYYY-MM-DD`), or null for no date (0, negative, not finite). */
export function excelDateToIso(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial) || serial <= 0) return null;
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + Math.floor(serial) * DAY_MS;
  return new Date(ms).toISOString().slice(0, 10);
}

/** A cell value of exceljs as text, a number or undefined. */
function plain(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (value instanceof Date) return (value.getTime() - EPOCH_1900) / DAY_MS;
  if ('richText' in value) return plain(value.richText.map((r) => r.text).join(''));
  if ('result' in value) return plain(value.result as ExcelJS.CellValue);
  if ('text' in value) return plain(value.text as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return undefined;
}

/** Reads the first worksheet of an .xlsx file; a file that is not one (or a truncated one) is rejected. */
export async function readFirstSheet(file: string, content: Buffer): Promise<Sheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch (error) {
    throw new FileRejectedError(file, `not a readable xlsx workbook (${(error as Error).message})`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new FileRejectedError(file, 'the workbook has no worksheet');
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: CellValue[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      cells[column - 1] = plain(cell.value);
    });
    if (cells.some((cell) => cell !== undefined)) rows.push({ row: number, cells });
  });
  return { rows, date1904: false };
}
