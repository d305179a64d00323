/**
 * US FDA drug shortages as openFDA publishes them (`drug/shortages`: the API answer or the bulk
 * download, `{ "meta": {...}, "results": [...] }`). A shortage is published as one record per
 * presentation: the records of one shortage share `generic_name`, `company_name` and
 * `initial_posting_date` and each names its package by `package_ndc` (dashed; a record that
 * lists several packages separates them by commas, or gives an array). Every NDC becomes one
 * supply row keyed by its 11-digit form, which is how the NDC registers key their packs.
 *
 * One NDC can be named by several records (40 of the 1,640 in the download of 2026-06-19,
 * mostly a `To Be Discontinued` record beside a later current shortage). For each NDC the
 * record updated last states its state (then the one that began last, then the worse: the
 * rule of the French notices, supply-rows.ts `supersedes`; records equal on all three leave
 * the one read first, so a rerun on the same file gives the same rows). The report counts
 * records, not NDCs, so `read = kept + malformed + excluded` holds per record: a record is
 * kept when it states the state of at least one of its NDCs (even if another of its NDCs is
 * stated by a later record); otherwise `duplicate` when each of its NDCs is stated identically
 * by the kept record, else `superseded`.
 *
 * Status: `Resolved` → available; `To Be Discontinued` → discontinued; `Current` by the
 * record's `availability` (`Available` → available, `Limited Availability` → limited,
 * `Unavailable` → unavailable; anything else, such as `This presentation is temporally on backorder.`,
 * or not stated → limited, since the shortage is current).
 * Dates: `MM/DD/YYYY`, `YYYYMMDD` or ISO. openFDA publishes no expected end.
 */
import { ndc11FromDashed } from '../../../vocabulary/ndc-codes.ts';
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { assignLoadedRoles, requireRole } from './file-roles.ts';
import { forEachArrayElement } from './json-stream.ts';
import { isoDateOrNull, rowKey, SUPERSEDED, supersedes, textOrNull } from './supply-rows.ts';
import type { DatedSupplyRow, SupplyParse, SupplyRow } from './supply-rows.ts';

export const US_FDA_SHORTAGES_FILE = 'drug-shortages-0001-of-0001.json';

/** `availability` as the FDA writes it, compared lower-cased without a final full stop (`Unavailable.`); `Avaliable` is its own spelling in published records. */
const AVAILABILITY: Readonly<Record<string, SupplyStatus>> = {
  available: 'available', avaliable: 'available', 'limited availability': 'limited', unavailable: 'unavailable',
};

/** `MM/DD/YYYY`, `YYYYMMDD` or `YYYY-MM-DD` as ISO; null when absent, 'bad' when unreadable. */
function fdaDate(value: unknown): string | null | 'bad' {
  const raw = textOrNull(value);
  if (raw === null) return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(raw);
  const iso = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : raw;
  return isoDateOrNull(iso) ?? 'bad';
}

function statusOf(status: string, availability: string | null): SupplyStatus | null {
  switch (status.toLowerCase()) {
    case 'resolved': return 'available';
    case 'to be discontinued': return 'discontinued';
    case 'current': return availability ? AVAILABILITY[availability.toLowerCase().replace(/[\s.]+$/, '')] ?? 'limited' : 'limited';
    default: return null;
  }
}

/** The 11-digit NDCs a record names; a string when one cannot be read. */
function ndcsOf(value: unknown): string[] | string {
  const printed = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' ? v.split(/[,;\s]+/) : [])).filter(Boolean);
  if (printed.length === 0) return 'package_ndc is missing';
  const out: string[] = [];
  for (const ndc of printed) {
    const ndc11 = /^\d{11}$/.test(ndc) ? ndc : ndc11FromDashed(ndc);
    if (!ndc11) return `package_ndc "${ndc}" is not a 4-4-2, 5-3-2 or 5-4-1 NDC`;
    if (!out.includes(ndc11)) out.push(ndc11);
  }
  return out;
}

function readShortage(value: unknown): SupplyRow[] | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an object';
  const r = value as Record<string, unknown>;
  const ndcs = ndcsOf(r.package_ndc);
  if (typeof ndcs === 'string') return ndcs;
  const status = statusOf(textOrNull(r.status) ?? '', textOrNull(r.availability));
  if (!status) return `status "${String(r.status ?? '')}" is none of Current, Resolved, To Be Discontinued`;
  const posted = fdaDate(r.initial_posting_date);
  const discontinued = fdaDate(r.discontinued_date);
  const updated = fdaDate(r.update_date);
  if (posted === 'bad' || discontinued === 'bad' || updated === 'bad') return 'a date is not MM/DD/YYYY, YYYYMMDD or YYYY-MM-DD';
  const since = status === 'discontinued' ? discontinued ?? posted : status === 'available' ? updated ?? posted : posted;
  const record = {
    generic_name: textOrNull(r.generic_name) ?? '', company_name: textOrNull(r.company_name) ?? '', status: textOrNull(r.status) ?? '',
    ...(textOrNull(r.availability) ? { availability: textOrNull(r.availability)! } : {}),
    ...(textOrNull(r.presentation) ? { presentation: textOrNull(r.presentation)! } : {}),
    ...(textOrNull(r.related_info) ? { related_info: textOrNull(r.related_info)! } : {}),
    ...(posted ? { initial_posting_date: posted } : {}), ...(updated ? { update_date: updated } : {}),
  };
  return ndcs.map((code) => ({ system: 'ndc11' as const, code, status, reason: textOrNull(r.shortage_reason), since, expectedUntil: null, record }));
}

function dated(row: SupplyRow): DatedSupplyRow {
  return { row, updated: typeof row.record.update_date === 'string' ? row.record.update_date : '' };
}

/** For each NDC, the row of the record that states its state; in the order NDCs first appear. */
function latestByNdc(records: readonly SupplyRow[][]): Map<string, DatedSupplyRow> {
  const latest = new Map<string, DatedSupplyRow>();
  for (const record of records) {
    for (const row of record) {
      const key = rowKey(row);
      const kept = latest.get(key);
      const next = dated(row);
      if (!kept || supersedes(next, kept)) latest.set(key, next);
    }
  }
  return latest;
}

/** Counts one record: kept, an identical repeat (`duplicate`), or stated anew elsewhere (`superseded`). */
function countRecord(tally: RowTally, record: readonly SupplyRow[], latest: ReadonlyMap<string, DatedSupplyRow>): void {
  const winners = record.map((row) => latest.get(rowKey(row))!.row);
  if (record.some((row, i) => winners[i] === row)) return tally.keep();
  const repeated = record.every((row, i) => JSON.stringify(row) === JSON.stringify(winners[i]));
  tally.exclude(repeated ? EXCLUDED.duplicate : SUPERSEDED);
}

export async function parseUsFdaShortages(files: InputFile[]): Promise<SupplyParse> {
  const roles = assignLoadedRoles(files, [{
    role: 'shortages', names: [US_FDA_SHORTAGES_FILE, 'shortages.json'],
    recognise: (text) => (/"results"\s*:/.test(text) && /"(initial_posting_date|shortage_reason|package_ndc)"\s*:/.test(text) && /"generic_name"\s*:/.test(text) ? 2 : 0),
  }]);
  const file = requireRole(roles, 'shortages', US_FDA_SHORTAGES_FILE);
  const problems: RowProblem[] = [];
  const tally = new RowTally(file.name, problems);
  const records: SupplyRow[][] = [];
  const keys = forEachArrayElement(file.name, file.content, 'results', {
    onElement(value, line) {
      const read = readShortage(value);
      if (typeof read === 'string') return tally.malformedRow(line, read);
      records.push(read);
    },
    onMalformed: (line, message) => tally.malformedRow(line, message),
  });
  if (!keys.includes('results')) throw new FileRejectedError(file.name, 'no "results" array: not an openFDA drug/shortages file');
  const latest = latestByNdc(records);
  for (const record of records) countRecord(tally, record, latest);
  const rows = [...latest.values()].map((d) => d.row);
  return {
    source: {
      id: 'us-fda-shortages', name: 'FDA drug shortages (openFDA)', country: 'US', refresh_interval_hours: 24,
      licence: 'openFDA: public domain (CC0 1.0)', url: 'https://open.fda.gov/apis/drug/drugshortages/',
    },
    rows, problems, files: [tally.report('shortages'), ...roles.unused], partial: false,
  };
}
