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
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, FileReport, SourceInfo, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
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

const NEITHER = 'header is neither the UNII Records layout (UNII, Display Name or PT, RN ...) nor the UNII Names layout (Name, TYPE, UNII, Display Name)';

function layoutOf(header: string): Layout | null {
  const names = tabFields(header).map((n) => n.toUpperCase());
  const index = new Map(names.map((n, i) => [n, i]));
  if (!index.has('DISPLAY NAME') && index.has('PT')) index.set('DISPLAY NAME', index.get('PT')!);
  const has = (c: string): boolean => index.has(c);
  if (has('NAME') && has('TYPE') && has('UNII') && has('DISPLAY NAME')) return { role: 'names', index, width: names.length };
  return has('UNII') && has('DISPLAY NAME') ? { role: 'records', index, width: names.length } : null;
}

interface State {
  substances: Map<string, SubstanceEntry>;
  /** UNIIs a Records row has described: the Records list has one row per UNII. */
  recorded: Set<string>;
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
  state.recorded.add(unii);
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

/** One data row of a file of `layout`, counted in `tally`. */
function readRow(layout: Layout, text: string, line: number, state: State, tally: RowTally): void {
  const values = text.split('\t');
  const { index } = layout;
  const get = (c: string): string => (values[index.get(c) ?? -1] ?? '').trim();
  const unii = normaliseIdentifier('unii', get('UNII'));
  const problem = values.length !== layout.width ? 'wrong number of tab-separated fields'
    : !unii ? `UNII "${get('UNII')}" is not a valid UNII (check character)`
      : get('DISPLAY NAME') === '' ? 'Display Name is empty' : null;
  if (problem) { tally.malformedRow(line, problem); return; }
  // The Names list has many rows per UNII on purpose; a Records row repeating a UNII is a duplicate.
  if (layout.role === 'records' && state.recorded.has(unii!)) { tally.exclude(EXCLUDED.duplicate); return; }
  if (layout.role === 'records') recordRow(get, state, unii!);
  else nameRow(get, state, unii!);
  tally.keep();
}

/** Reads one file, its role from its header (so dated and renamed exports work); returns its report. */
function readFile(file: InputFile, state: State): FileReport {
  let layout: Layout | null | undefined;
  const tally = new RowTally(file.name, state.log.problems);
  forEachLine(file.content, (text, line) => {
    if (layout === undefined) layout = layoutOf(text);
    else if (layout !== null) readRow(layout, text, line, state, tally);
  });
  if (layout === undefined) throw new FileRejectedError(file.name, 'empty file: no header line');
  // Another member of the download (a readme, a legal notice) is named, not refused.
  if (layout === null) return unusedFile(file.name, `${NEITHER}: a member this adapter does not read`);
  return tally.report(layout.role === 'names' ? 'UNII names' : 'UNII records');
}

/**
 * Parses UNII Records and/or Names files into substances. Each row is kept, malformed
 * (reported with its line and why) or, for a Records row repeating a UNII, excluded as a duplicate.
 */
export function parseUsUnii(files: InputFile[]): AdapterResult {
  if (files.length === 0) throw new FileRejectedError(UNII_RECORDS_FILE, 'no file given: expected UNII_Records_*.txt and/or UNII_Names_*.txt');
  const state: State = { substances: new Map(), recorded: new Set(), log: new ProblemLog() };
  const reports = files.map((f) => readFile(f, state));
  if (reports.every((r) => r.role === 'unused')) throw new FileRejectedError(files[0]!.name, NEITHER);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: UNII_SOURCE, substances: [...state.substances.values()] },
    problems: state.log.problems,
    files: reports,
  };
}
