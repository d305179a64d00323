/**
 * French availability list as the BDPM publishes it (`CIS_CIP_Dispo_Spec.txt`, the ANSM's
 * shortage notices): tab separated, no header, no quotes, Latin-1 with CRLF in the releases
 * seen (UTF-8 accepted). Eight fields: CIS, CIP13 (mostly empty: the notice is the whole
 * medicine's), status code, status label, start date, update date, date supply came back,
 * link to the ANSM notice.
 *
 * A notice naming a CIP13 is kept under the pack's CIP13; one without under the CIS, so it
 * reaches the product (as BASG restrictions without PZN do). The file keeps older notices of
 * a medicine beside its current one: for one code the notice updated last is the medicine's
 * state (then the one that began last, then the worse), the others are `superseded`.
 *
 * Status: 1 rupture de stock → unavailable; 2 tension d'approvisionnement → limited;
 * 3 arrêt de commercialisation → discontinued; 4 remise à disposition → available (since the
 * date supply came back). The list gives no reason and no expected end.
 */
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { RowProblem } from '../row-outcome.ts';
import { FileRejectedError, decodeUtf8OrLatin, numberedLines } from './common.ts';
import type { InputFile } from './common.ts';
import { assignLoadedRoles, requireRole } from './file-roles.ts';
import { recogniseAvailability } from './fr-bdpm-roles.ts';
import { CIS, bdpmDate, rowFields } from './fr-bdpm-rows.ts';
import { SUPERSEDED, supersedes, textOrNull } from './supply-rows.ts';
import type { DatedSupplyRow, SupplyParse } from './supply-rows.ts';

export const FR_ANSM_SUPPLY_FILE = 'CIS_CIP_Dispo_Spec.txt';

const STATUS: Readonly<Record<string, { status: SupplyStatus; label: string }>> = {
  1: { status: 'unavailable', label: 'rupture de stock' },
  2: { status: 'limited', label: "tension d'approvisionnement" },
  3: { status: 'discontinued', label: 'arrêt de commercialisation' },
  4: { status: 'available', label: 'remise à disposition' },
};

const FIELDS = 8;

interface Notice extends DatedSupplyRow {
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

export async function parseFrAnsmSupply(files: InputFile[]): Promise<SupplyParse> {
  const roles = assignLoadedRoles(files, [{
    role: 'availability', names: [FR_ANSM_SUPPLY_FILE],
    // The same file fr-bdpm reads as a pack attribute: recognised by the same rule.
    recognise: recogniseAvailability,
  }]);
  const file = requireRole(roles, 'availability', FR_ANSM_SUPPLY_FILE);
  const lines = numberedLines(decodeUtf8OrLatin(file.content));
  if (lines.length === 0) throw new FileRejectedError(file.name, 'empty: no availability row');
  const problems: RowProblem[] = [];
  const tally = new RowTally(file.name, problems);
  const byKey = new Map<string, Notice>();
  for (const { line, text } of lines) {
    const notice = readNotice(text);
    if (typeof notice === 'string') { tally.malformedRow(line, notice); continue; }
    const key = `${notice.row.system}|${notice.row.code}`;
    const kept = byKey.get(key);
    if (!kept) { byKey.set(key, notice); tally.keep(); continue; }
    if (kept.line === notice.line) { tally.exclude(EXCLUDED.duplicate); continue; }
    if (!supersedes(notice, kept)) { tally.exclude(SUPERSEDED); continue; }
    byKey.set(key, notice);
    tally.unkeep({ excluded: SUPERSEDED });
    tally.keep();
  }
  return {
    source: {
      id: 'fr-ansm-supply', name: 'ANSM disponibilité des médicaments (BDPM)', country: 'FR', refresh_interval_hours: 24,
      licence: 'BDPM open data (Licence Ouverte / Etalab), ANSM named as source', url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement.php',
    },
    rows: [...byKey.values()].map((n) => n.row), problems, files: [tally.report('availability'), ...roles.unused], partial: false,
  };
}
