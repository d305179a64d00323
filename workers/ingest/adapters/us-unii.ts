/**
 * FDA Global Substance Registration System UNII lists (`UNII_Data.zip`): `UNII_Records_*.txt`
 * (one row per UNII: `UNII`, `Display Name` — `PT` in older files —, `RN`, ..., `RXCUI`, ...,
 * `MF`, `INCHIKEY`, `SMILES`, `INGREDIENT_TYPE` ...) and/or `UNII_Names_*.txt` (one row per
 * name: `Name`, `TYPE`, `UNII`, `Display Name`). Tab separated with a header; each file's role
 * comes from its header, and a header that is neither rejects the file.
 *
 * Produces substances only, keyed by real UNIIs (check character verified): the display name as
 * `name`, RxCUI, formula, InChIKey and SMILES, and `moiety_unii` from an active-moiety column
 * where the export carries one. From the names list only the register names are kept, not the
 * thousands of codes and systematic names: a name tagged `[INN]`, `[USAN]`, `[BAN]`, `[JAN]` (or
 * several at once, `[USAN:INN]`) and the INN's Latin, French and Spanish forms, under `names.inn`, `usan`, `ban`, `jan`, `la`,
 * `fr`, `es` (tag removed). These are what cross-register linking by name needs.
 *
 * A global vocabulary (country null). Substances are keyed globally and the first source to
 * hold a UNII keeps it, so ingest this list before the product registers that name UNIIs.
 */
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, forEachLine, tabFields } from './common.ts';
import type { InputFile } from './common.ts';

export const UNII_RECORDS_FILE = 'UNII_Records.txt';
export const UNII_NAMES_FILE = 'UNII_Names.txt';

export const UNII_SOURCE: SourceInfo = {
  id: 'us-unii',
  name: 'FDA GSRS Unique Ingredient Identifiers (UNII names and records)',
  country: null,
  refresh_interval_hours: 24 * 35,
  licence: 'Public domain (US government work)',
  url: 'https://precision.fda.gov/uniisearch/archive',
};

/** Name tags of the names list → key in `names`. */
const NAME_TAGS: Readonly<Record<string, string>> = {
  INN: 'inn', USAN: 'usan', BAN: 'ban', JAN: 'jan',
  'INN-LATIN': 'la', 'INN-FRENCH': 'fr', 'INN-SPANISH': 'es',
};
const TAGGED = /^(.*?)\s*\[([^\]]+)\]\s*$/;
/** Active-moiety columns of the records file, in the spellings the exports have used. */
const MOIETY_COLUMNS = ['ACTIVE_MOIETY_UNII', 'ACTIVE MOIETY UNII', 'ACTIVE MOIETY'];

type Role = 'records' | 'names';
interface Layout {
  role: Role;
  index: Map<string, number>;
  width: number;
}

function layoutOf(file: string, header: string): Layout {
  const names = tabFields(header).map((n) => n.toUpperCase());
  const index = new Map(names.map((n, i) => [n, i]));
  if (!index.has('DISPLAY NAME') && index.has('PT')) index.set('DISPLAY NAME', index.get('PT')!);
  const has = (c: string): boolean => index.has(c);
  if (has('NAME') && has('TYPE') && has('UNII') && has('DISPLAY NAME')) return { role: 'names', index, width: names.length };
  if (has('UNII') && has('DISPLAY NAME')) return { role: 'records', index, width: names.length };
  throw new FileRejectedError(file, 'header is neither the UNII Records layout (UNII, Display Name or PT, RN ...) nor the UNII Names layout (Name, TYPE, UNII, Display Name)');
}

interface State {
  substances: Map<string, SubstanceEntry>;
  log: ProblemLog;
}

function entryFor(state: State, unii: string, name: string): SubstanceEntry {
  let entry = state.substances.get(unii);
  if (!entry) {
    entry = { unii, name };
    state.substances.set(unii, entry);
  }
  return entry;
}

function recordRow(get: (c: string) => string, state: State, unii: string): void {
  const entry = entryFor(state, unii, get('DISPLAY NAME'));
  entry.name = get('DISPLAY NAME');
  const rxcui = normaliseIdentifier('rxcui', get('RXCUI'));
  if (rxcui) entry.rxcui = rxcui;
  if (get('MF')) entry.formula = get('MF');
  if (get('INCHIKEY')) entry.inchikey = get('INCHIKEY');
  if (get('SMILES')) entry.smiles = get('SMILES');
  const moiety = MOIETY_COLUMNS.map((c) => normaliseIdentifier('unii', get(c))).find((u) => u);
  // A substance that is its own moiety needs no link (the engine defaults moiety to itself).
  if (moiety && moiety !== unii) entry.moiety_unii = moiety;
}

function nameRow(get: (c: string) => string, state: State, unii: string): void {
  const entry = entryFor(state, unii, get('DISPLAY NAME'));
  const m = TAGGED.exec(get('NAME'));
  if (!m || m[1]!.trim() === '') return;
  // A name may carry several tags at once (`ENTACAPONE [USAN:INN]`).
  const keys = m[2]!.split(/[:,]/).map((tag) => NAME_TAGS[tag.trim().toUpperCase()]).filter((k): k is string => k !== undefined);
  for (const key of keys) {
    entry.names ??= {};
    // The first name of each kind wins: the list repeats a name under several types.
    entry.names[key] ??= m[1]!.trim();
  }
}

/** Reads one file; returns its report. */
function readFile(file: InputFile, state: State): FileReport {
  let layout: Layout | undefined;
  const report: FileReport = { file: file.name, role: '', read: 0, kept: 0, skipped: 0 };
  forEachLine(file.content, (text, line) => {
    if (!layout) {
      layout = layoutOf(file.name, text);
      report.role = layout.role === 'names' ? 'UNII names' : 'UNII records';
      return;
    }
    report.read += 1;
    const values = text.split('\t');
    const { index } = layout;
    const get = (c: string): string => (values[index.get(c) ?? -1] ?? '').trim();
    const unii = normaliseIdentifier('unii', get('UNII'));
    const problem = values.length !== layout.width ? 'wrong number of tab-separated fields'
      : !unii ? `UNII "${get('UNII')}" is not a valid UNII (check character)`
        : get('DISPLAY NAME') === '' ? 'Display Name is empty' : null;
    if (problem) { state.log.add(file.name, line, problem); report.skipped = (report.skipped ?? 0) + 1; return; }
    if (layout.role === 'records') recordRow(get, state, unii!);
    else nameRow(get, state, unii!);
    report.kept += 1;
  });
  if (!layout) throw new FileRejectedError(file.name, 'empty file: no header line');
  return report;
}

/** Parses UNII Records and/or Names files into substances; malformed rows are reported and skipped. */
export function parseUsUnii(files: InputFile[]): AdapterResult {
  if (files.length === 0) throw new FileRejectedError(UNII_RECORDS_FILE, 'no file given: expected UNII_Records_*.txt and/or UNII_Names_*.txt');
  const state: State = { substances: new Map(), log: new ProblemLog() };
  const reports = files.map((f) => readFile(f, state));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: UNII_SOURCE, substances: [...state.substances.values()] },
    problems: state.log.problems,
    files: reports,
  };
}
