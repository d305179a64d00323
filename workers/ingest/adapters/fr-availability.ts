/**
 * The ANSM availability list (`CIS_CIP_Dispo_Spec.txt`, the shortage notices the BDPM
 * publishes), read one way for both its readers: fr-ansm-supply makes supply rows of it and
 * fr-bdpm the availability of a pack or a medicine. Tab separated, no header, no quotes,
 * Latin-1 with CRLF in the releases seen (UTF-8 accepted). Eight fields: CIS, CIP13 (mostly
 * empty: the notice is the whole medicine's), status code, status label, start date, update
 * date, date supply came back, link to the ANSM notice.
 *
 * A notice naming a CIP13 is the pack's; one without is the medicine's (its CIS). The file
 * keeps older notices of a code beside its current one: the notice updated last states the
 * code's state (then the one begun last, then the worse: supply-rows.ts `supersedes`), the
 * others are `superseded`, an identical line `duplicate`.
 */
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import type { NumberedLine } from './common.ts';
import { CIS, bdpmDate, rowFields } from './fr-bdpm-rows.ts';
import { SUPERSEDED, rowKey, supersedes, textOrNull } from './supply-rows.ts';
import type { DatedSupplyRow } from './supply-rows.ts';

const STATUS: Readonly<Record<string, { status: SupplyStatus; label: string }>> = {
  1: { status: 'unavailable', label: 'rupture de stock' },
  2: { status: 'limited', label: "tension d'approvisionnement" },
  3: { status: 'discontinued', label: 'arrêt de commercialisation' },
  4: { status: 'available', label: 'remise à disposition' },
};

const FIELDS = 8;

/** One line of the list as a supply row, with its update date and its text (to tell repeats). */
export interface Notice extends DatedSupplyRow {
  line: string;
}

/** A date field: ISO, null when empty, 'bad' when unreadable. */
function dayFirst(raw: string): string | null | 'bad' {
  return raw === '' ? null : bdpmDate(raw) ?? 'bad';
}

function readNotice(text: string): Notice | string {
  const fields = rowFields(text, FIELDS, true);
  if (fields.length < FIELDS - 1 || fields.length > FIELDS) return `expected ${FIELDS} tab-separated fields, got ${fields.length}`;
  const [cis = '', cip13 = '', code = '', label = '', start = '', update = '', back = '', link = ''] = fields;
  if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
  if (cip13 !== '' && !/^\d{13}$/.test(cip13)) return `CIP13 "${cip13}" is not 13 digits`;
  const known = STATUS[code];
  if (!known || label === '') return `status "${code}" "${label}" is not 1 to 4 with a label`;
  const spoken = Object.entries(STATUS).find(([, s]) => s.label === label.normalize('NFC').toLowerCase());
  if (spoken && spoken[0] !== code) return `status code ${code} contradicts its label "${label}"`;
  const raw = { start, update, back };
  const dates = { start: dayFirst(start), update: dayFirst(update), back: dayFirst(back) };
  const bad = (Object.keys(dates) as Array<keyof typeof dates>).find((k) => dates[k] === 'bad');
  if (bad) return `${bad} date "${raw[bad]}" is not DD/MM/YYYY`;
  const d = dates as Record<keyof typeof dates, string | null>;
  const record = {
    cis, status: label, status_code: Number(code),
    ...(d.update ? { updated_on: d.update } : {}), ...(d.back ? { back_on: d.back } : {}), ...(textOrNull(link) ? { ansm_url: link } : {}),
  };
  const since = known.status === 'available' ? d.back ?? d.start : d.start;
  const key = cip13 !== '' ? { system: 'cip13' as const, code: cip13 } : { system: 'cis' as const, code: cis };
  return { row: { ...key, status: known.status, reason: null, since, expectedUntil: null, record }, updated: d.update ?? '', line: fields.join('\t') };
}

/**
 * Each code's current notice, in the order codes first appear; every line is counted on
 * `tally` (kept, malformed, `duplicate` or `superseded`).
 */
export function currentNotices(lines: readonly NumberedLine[], tally: RowTally): Map<string, Notice> {
  const byKey = new Map<string, Notice>();
  for (const { line, text } of lines) {
    const notice = readNotice(text);
    if (typeof notice === 'string') { tally.malformedRow(line, notice); continue; }
    const key = rowKey(notice.row);
    const kept = byKey.get(key);
    if (!kept) { byKey.set(key, notice); tally.keep(); continue; }
    if (kept.line === notice.line) { tally.exclude(EXCLUDED.duplicate); continue; }
    if (!supersedes(notice, kept)) { tally.exclude(SUPERSEDED); continue; }
    byKey.set(key, notice);
    tally.unkeep({ excluded: SUPERSEDED });
    tally.keep();
  }
  return byKey;
}
