/**
 * Austrian BASG register of distribution restrictions (`VertriebseinschraenkungenASP.xml`,
 * root `VEASP`): one `Packung` per pack with attributes `PZN`, `Zulassungsnummer` and the
 * dates (`Datum_Meldung`, `Beginn_Vertriebseinschraenkung`, `Datum_voraussichtliche_Wiederbelieferung`,
 * `Datum_letzte_Aenderung`), and elements `Status`, `Grund`, `Bezeichnung_Arzneispezialitaet`.
 *
 * A pack is keyed by its PZN. Where the PZN is empty the restriction is the authorisation's:
 * it is kept under the Zulassungsnummer (national) or under each EU pack number of an EU range
 * (`EU/1/17/1219/001-004`), so it reaches the product rather than one pack.
 */
import { euNumberRange, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { SupplyStatus } from '../../../vocabulary/supply.ts';
import { EXCLUDED, RowTally } from '../row-outcome.ts';
import type { FileReport, RowProblem } from '../row-outcome.ts';
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { assignLoadedRoles, requireRole, rootElement } from './file-roles.ts';
import { attrOf, streamRecords, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';
import { isoDateOrNull, rowKey, textOrNull } from './supply-rows.ts';
import type { SupplyParse, SupplyRow } from './supply-rows.ts';

export const AT_BASG_SUPPLY_FILE = 'VertriebseinschraenkungenASP.xml';

/** The register's status words (compared lower case) on the common scale. */
const STATUS: Readonly<Record<string, SupplyStatus>> = {
  'verfügbar': 'available',
  'eingeschränkt verfügbar': 'limited',
  // Supplied under §4 (1) of the supply regulation (units released from stocks held back): limited.
  'verfügbar gemäß §4 (1)': 'limited',
  'nicht verfügbar': 'unavailable',
};

type Read = { rows: SupplyRow[] } | { malformed: string };

function date(record: XmlElement, name: string): string | null | 'bad' {
  const raw = attrOf(record, name);
  if (raw === '') return null;
  return isoDateOrNull(raw) ?? 'bad';
}

/** The codes a restriction is kept under: the pack's PZN, else its authorisation's number(s). */
function codesOf(pzn: string, zulassung: string): Array<Pick<SupplyRow, 'system' | 'code'>> | string {
  if (pzn !== '') {
    const code = normaliseIdentifier('at_pzn', pzn);
    return code ? [{ system: 'at_pzn', code }] : `PZN "${pzn}" is not a valid Austrian PZN`;
  }
  const range = euNumberRange(zulassung);
  if (range) return range.map((code) => ({ system: 'eu_number' as const, code }));
  const eu = normaliseIdentifier('eu_number', zulassung);
  if (eu) return [{ system: 'eu_number', code: eu }];
  const national = normaliseIdentifier('at_zulassungsnummer', zulassung);
  return national ? [{ system: 'at_zulassungsnummer', code: national }] : 'neither a PZN nor a readable Zulassungsnummer';
}

function readPackung(record: XmlElement): Read {
  const rawStatus = textOf(record, 'Status');
  const status = STATUS[rawStatus.toLowerCase().replace(/\s+/g, ' ')];
  if (!status) return { malformed: `Status "${rawStatus}" is none of verfügbar, eingeschränkt verfügbar, nicht verfügbar` };
  const dates = {
    reported: date(record, 'Datum_Meldung'), start: date(record, 'Beginn_Vertriebseinschraenkung'),
    back: date(record, 'Datum_voraussichtliche_Wiederbelieferung'), changed: date(record, 'Datum_letzte_Aenderung'),
  };
  const bad = Object.entries(dates).find(([, v]) => v === 'bad');
  if (bad) return { malformed: `a date is not YYYY-MM-DD (${bad[0]})` };
  const d = dates as Record<keyof typeof dates, string | null>;
  const zulassung = attrOf(record, 'Zulassungsnummer');
  const codes = codesOf(attrOf(record, 'PZN'), zulassung);
  if (typeof codes === 'string') return { malformed: codes };
  // A restriction that ended says since when the pack is available again: its last change.
  const since = status === 'available' ? d.changed : d.start ?? d.reported;
  const row = {
    status, reason: textOrNull(textOf(record, 'Grund')), since, expectedUntil: status === 'available' ? null : d.back,
    record: {
      name: textOf(record, 'Bezeichnung_Arzneispezialitaet'), status: rawStatus, zulassungsnummer: zulassung,
      ...(d.reported ? { reported_on: d.reported } : {}), ...(d.changed ? { changed_on: d.changed } : {}),
    },
  };
  return { rows: codes.map((c) => ({ ...c, ...row })) };
}

function readFile(file: InputFile, problems: RowProblem[]): { rows: SupplyRow[]; report: FileReport } {
  const tally = new RowTally(file.name, problems);
  const rows: SupplyRow[] = [];
  const seen = new Set<string>();
  streamRecords(file.name, file.content, {
    roots: ['VEASP'],
    records: ['Packungen/Packung'],
    onRecord(_path, record, line) {
      const read = readPackung(record);
      if ('malformed' in read) return tally.malformedRow(line, read.malformed);
      const fresh = read.rows.filter((r) => !seen.has(rowKey(r)));
      if (fresh.length === 0) return tally.exclude(EXCLUDED.duplicate);
      for (const r of fresh) seen.add(rowKey(r));
      rows.push(...fresh);
      tally.keep();
    },
  });
  return { rows, report: tally.report('restrictions') };
}

export async function parseAtBasgSupply(files: InputFile[]): Promise<SupplyParse> {
  const roles = assignLoadedRoles(files, [{ role: 'restrictions', names: [AT_BASG_SUPPLY_FILE], recognise: (text) => (rootElement(text) === 'VEASP' ? 2 : 0) }]);
  const file = requireRole(roles, 'restrictions', AT_BASG_SUPPLY_FILE);
  if (file.content.length === 0) throw new FileRejectedError(file.name, 'empty file');
  const problems: RowProblem[] = [];
  const { rows, report } = readFile(file, problems);
  return {
    source: {
      id: 'at-basg-supply', name: 'BASG Vertriebseinschränkungen', country: 'AT', refresh_interval_hours: 24,
      licence: 'BASG public register; reuse as the BASG states on basg.gv.at (Datenbereitstellung Vertriebseinschränkungen)', url: 'https://medicineshortage.basg.gv.at/vertriebseinschraenkungen',
    },
    rows, problems, files: [report, ...roles.unused], partial: false,
  };
}
