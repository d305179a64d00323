/**
 * WHO ATC/DDD index as the widely used flat CSV export (`atc_code,atc_name,ddd,uom,adm_r,note`,
 * one row per code and administration route, `NA` for missing values, RFC 4180 quoting).
 * Rows of one code fold into one AtcEntry whose `ddd` lists one DddEntry per route; the ATC
 * level follows from the code length.
 */
import { atcLevel } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, AtcEntry, DddEntry, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, decodeText, parseCsv, parseDecimal } from './common.ts';
import type { CsvRecord } from './common.ts';

export const WHO_ATC_FILE = 'atc.csv';

export const WHO_ATC_SOURCE: SourceInfo = {
  id: 'who-atc',
  name: 'WHO ATC/DDD Index',
  country: null,
  // WHOCC publishes a new index once a year (January); a year without a sync is stale.
  refresh_interval_hours: 24 * 366,
  licence: 'WHO Collaborating Centre for Drug Statistics Methodology; commercial use needs its permission',
  url: 'https://atcddd.fhi.no/atc_ddd_index/',
};

/** Column names of the export; `note` may be absent in older exports. */
const REQUIRED_COLUMNS = ['atc_code', 'atc_name', 'ddd', 'uom', 'adm_r'] as const;

type ColumnIndex = Record<(typeof REQUIRED_COLUMNS)[number] | 'note', number>;

function columnIndex(file: string, header: CsvRecord | undefined): ColumnIndex {
  const names = (header?.fields ?? []).map((f) => f.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw new FileRejectedError(file, `not a WHO ATC/DDD CSV: header lacks ${missing.join(', ')}`);
  }
  const at = (c: string): number => names.indexOf(c);
  return { atc_code: at('atc_code'), atc_name: at('atc_name'), ddd: at('ddd'), uom: at('uom'), adm_r: at('adm_r'), note: at('note') };
}

/** `NA` and empty cells both mean "no value" in the export. */
function cell(record: CsvRecord, index: number): string {
  const value = index >= 0 ? (record.fields[index] ?? '').trim() : '';
  return value === 'NA' ? '' : value;
}

/** DDD of one row, null when the row has none, or an error message. */
function rowDdd(record: CsvRecord, cols: ColumnIndex): DddEntry | null | string {
  const [raw, unit, route, note] = [cell(record, cols.ddd), cell(record, cols.uom), cell(record, cols.adm_r), cell(record, cols.note)];
  if (raw === '') return null;
  const value = parseDecimal(raw);
  if (value === null || value <= 0) return `DDD "${raw}" is not a positive number`;
  if (unit === '' || route === '') return 'DDD without unit or administration route';
  return note === '' ? { value, unit, route } : { value, unit, route, note };
}

function sameDdd(a: DddEntry, b: DddEntry): boolean {
  return a.value === b.value && a.unit === b.unit && a.route === b.route && a.note === b.note;
}

/** Adds one data row to the entries; returns an error message when the row is malformed. */
function foldRow(entries: Map<string, AtcEntry>, record: CsvRecord, cols: ColumnIndex): string | null {
  if (record.fields.length < REQUIRED_COLUMNS.length) return `expected at least ${REQUIRED_COLUMNS.length} columns, got ${record.fields.length}`;
  const code = cell(record, cols.atc_code).toUpperCase();
  const name = cell(record, cols.atc_name);
  const level = atcLevel(code);
  if (level === null) return `"${code}" is not an ATC code`;
  if (name === '') return `ATC code ${code} has no name`;
  const ddd = rowDdd(record, cols);
  if (typeof ddd === 'string') return `${code}: ${ddd}`;
  const entry = entries.get(code) ?? { code, name, level };
  entries.set(code, entry);
  // One row per route: collect each distinct DDD once.
  if (ddd && !(entry.ddd ?? []).some((d) => sameDdd(d, ddd))) entry.ddd = [...(entry.ddd ?? []), ddd];
  return null;
}

/** Parses the WHO ATC/DDD CSV export into ATC entries; malformed rows are reported and skipped. */
export function parseWhoAtc(file: string, content: Buffer): AdapterResult {
  const records = parseCsv(decodeText(content));
  const cols = columnIndex(file, records[0]);
  const log = new ProblemLog();
  const entries = new Map<string, AtcEntry>();
  for (const record of records.slice(1)) {
    const problem = foldRow(entries, record, cols);
    if (problem) log.add(file, record.line, problem);
  }
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: WHO_ATC_SOURCE, atc: [...entries.values()] },
    problems: log.problems,
  };
}
