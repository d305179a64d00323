/**
 * Published interaction data sets in their own formats, turned into the service's interaction
 * file ("drugref-interactions/1", interactions-format.ts) so one loader writes them all:
 *
 * - **EPha.ch** (`matrix.csv`, as oddb2xml and AmiKo read it): `ATC1,Name1,ATC2,Name2,Info,
 *   Mechanismus,Effekt,Massnahmen,Grad`, one row per direction of a pair, grades A (no measures
 *   needed), B (precautions recommended), C (regular monitoring), D (avoid the combination),
 *   X (contraindicated). Both directions become one rule, the more severe grade winning. Only
 *   ATC1, ATC2 and Grad are required: a file without the free-text columns loads with a
 *   description made of the names and the grade.
 * - **DDInter** (`ddinter_downloads_code_<ATC group>.csv`): `DDInterID_A,Drug_A,DDInterID_B,
 *   Drug_B,Level` with Major, Moderate, Minor or Unknown; CC BY-NC-SA 4.0. DDInter names drugs,
 *   not ATC codes, so its names are matched to the catalogue's ATC codes by the loader; the
 *   DDInter ids stay on each rule as cross-references (`ddinter`) of the ATC codes matched. A
 *   set that adds a `Mechanism` (or `Interaction type`) column gives each rule that label.
 *
 * Malformed rows are reported with their file and line and skipped, never fatal: the published
 * EPha file routinely carries a few broken quotes.
 */
import { parseCsv } from './adapters/common.ts';
import type { CsvRecord } from './adapters/common.ts';
import { InteractionFileError, INTERACTIONS_FORMAT } from './interactions-format.ts';
import type { CrossReference, EvidenceLevel, InteractionEntry, InteractionFile, Severity } from './interactions-format.ts';
import type { RowProblem } from './snapshot.ts';

export type InteractionFormat = 'drugref-interactions/1' | 'epha-csv' | 'ddinter-csv' | 'fest-xml';

/** A file as read from disk: its name (for problem reports) and text. */
export interface TextFile {
  name: string;
  text: string;
}

const EPHA_COLUMNS = ['ATC1', 'Name1', 'ATC2', 'Name2', 'Info', 'Mechanismus', 'Effekt', 'Massnahmen', 'Grad'] as const;
/** The EPha columns without which no rule can be made; the names and texts may be absent. */
const EPHA_REQUIRED = ['ATC1', 'ATC2', 'Grad'] as const;
const DDINTER_COLUMNS = ['DDInterID_A', 'Drug_A', 'DDInterID_B', 'Drug_B', 'Level'] as const;
/** Headers a DDInter-shaped set may name its interaction type by, first found wins. */
const DDINTER_TYPE_COLUMNS = ['mechanism', 'interaction type', 'interaction_type', 'type'];

/** EPha grades on the service's severity scale: A and B/C differ in the measures, not in the harm. */
export const EPHA_SEVERITY: Readonly<Record<string, Severity>> = { A: 'minor', B: 'moderate', C: 'moderate', D: 'major', X: 'contraindicated' };
/** What EPha's grades mean (their own wording, for the rule description). */
export const EPHA_GRADES: Readonly<Record<string, string>> = {
  A: 'Keine Massnahmen erforderlich', B: 'Vorsichtsmassnahmen empfohlen', C: 'Regelmässige Überwachung', D: 'Kombination vermeiden', X: 'Kontraindiziert',
};
/** DDInter levels on the service's scale; Unknown (a listed interaction DDInter did not grade) counts as minor, evidence suspected. */
export const DDINTER_SEVERITY: Readonly<Record<string, Severity>> = { major: 'major', moderate: 'moderate', minor: 'minor', unknown: 'minor' };

// Neither set grades the evidence: a curated, referenced listing counts as probable; an ungraded DDInter entry as suspected.
const LISTED: EvidenceLevel = 'probable';
const UNGRADED: EvidenceLevel = 'suspected';

const SEVERITY_RANK: Record<Severity, number> = { contraindicated: 4, major: 3, moderate: 2, minor: 1 };

/** ATC code of any level, upper case. */
const ATC_ANY = /^[A-Z](\d{2}([A-Z]([A-Z](\d{2})?)?)?)?$/;

export const EPHA_SOURCE = {
  id: 'epha-interactions',
  name: 'EPha.ch drug interactions',
  // EPha updates the matrix continuously; a month without a load is stale.
  refresh_interval_hours: 24 * 31,
  url: 'https://epha.ch',
} as const;

export const DDINTER_SOURCE = {
  id: 'ddinter',
  name: 'DDInter drug-drug interaction database',
  // DDInter publishes new releases rarely (1.0 in 2022, 2.0 in 2024).
  refresh_interval_hours: 24 * 366,
  url: 'https://ddinter2.scbdd.com',
} as const;

export const DDINTER_LICENCE = {
  id: 'CC-BY-NC-SA-4.0',
  name: 'Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International',
  url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
  commercial: false,
} as const;

export const DDINTER_ATTRIBUTION = 'DDInter: Xiong G. et al., "DDInter: an online drug-drug interaction database towards improving clinical '
  + 'decision-making and patient safety", Nucleic Acids Research 50 (D1), 2022; data from ddinter.scbdd.com under CC BY-NC-SA 4.0';

const header = (record: CsvRecord | undefined): string[] => (record?.fields ?? []).map((f) => f.trim().replace(/^\uFEFF/, ''));

/** The format of a file, from its first characters (JSON) or its CSV header; null when unknown. */
export function detectInteractionFormat(text: string): InteractionFormat | null {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) return 'drugref-interactions/1';
  // Norway's FEST M30 document carries DMP's interaction catalogue (interactions-fest.ts).
  if (body.startsWith('<')) return /<(?:[\w.-]+:)?FEST[\s>]/.test(body.slice(0, 4096)) ? 'fest-xml' : null;
  const first = header(parseCsv(body.split(/\r?\n/, 1)[0] ?? '')[0]).map((f) => f.toLowerCase());
  const has = (cols: readonly string[]) => cols.every((c) => first.includes(c.toLowerCase()));
  if (has(EPHA_REQUIRED)) return 'epha-csv';
  if (has(DDINTER_COLUMNS)) return 'ddinter-csv';
  return null;
}

/** A converted data set: the interaction file to load and the rows that could not be used. */
export interface ConvertedSet {
  file: InteractionFile;
  problems: RowProblem[];
  /** Data rows read, rules made, and rows folded into another row's rule (the other direction, a duplicate). */
  rows: { read: number; rules: number; merged: number };
}

/** Columns of a CSV by header name (case-insensitive); a name in `required` that is missing refuses the file, others are -1. */
function columns(file: TextFile, records: CsvRecord[], names: readonly string[], required: readonly string[] = names): Record<string, number> {
  const cols = header(records[0]).map((c) => c.toLowerCase());
  const out: Record<string, number> = {};
  for (const name of names) {
    const i = cols.indexOf(name.toLowerCase());
    if (i < 0 && required.includes(name)) throw new InteractionFileError(`${file.name}: header lacks ${name}`);
    out[name] = i;
  }
  return out;
}

/** Keeps one entry per sorted pair: the more severe one, the first on a tie. */
class PairSet {
  private readonly byKey = new Map<string, InteractionEntry>();
  merged = 0;

  add(a: string, b: string, entry: Omit<InteractionEntry, 'a' | 'b' | 'key'>): void {
    const [x, y] = a <= b ? [a, b] : [b, a];
    const key = `${x}~${y}`;
    const current = this.byKey.get(key);
    if (current) {
      this.merged += 1;
      if (SEVERITY_RANK[entry.severity] <= SEVERITY_RANK[current.severity]) return;
    }
    this.byKey.set(key, { key, a: x, b: y, ...entry });
  }

  entries(): InteractionEntry[] {
    return [...this.byKey.values()];
  }
}

function sentence(text: string): string {
  const t = text.trim();
  return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * An EPha rule's description: Info and Effekt with the grade; for a file without those columns,
 * the two names (else the codes) with the grade. Null when the file has the texts but the row none.
 */
function ephaDescription(get: (name: (typeof EPHA_COLUMNS)[number]) => string, grade: string, hasTexts: boolean): string | null {
  const suffix = `(EPha ${grade}: ${EPHA_GRADES[grade]})`;
  const info = get('Info');
  const effect = get('Effekt');
  if (!hasTexts) return `${get('Name1') || get('ATC1').toUpperCase()} and ${get('Name2') || get('ATC2').toUpperCase()}: interaction listed by EPha ${suffix}`;
  if (info === '' && effect === '') return null;
  return [sentence(info), effect && effect.replace(/\.$/, '').toLowerCase() !== info.replace(/\.$/, '').toLowerCase() ? sentence(effect) : '']
    .filter(Boolean).join(' ') + ` ${suffix}`;
}

/**
 * EPha's matrix CSV as an interaction file. Open rows carry Info and Effekt as the description;
 * with `licensed`, Mechanismus and Massnahmen become a licensed row for operators who hold
 * EPha's texts under a commercial agreement (the open tier has no such columns).
 */
export function readEphaCsv(files: readonly TextFile[], options: { licensed?: boolean } = {}): ConvertedSet {
  const problems: RowProblem[] = [];
  const pairs = new PairSet();
  let read = 0;
  for (const file of files) {
    const records = parseCsv(file.text.replace(/^\uFEFF/, ''));
    const col = columns(file, records, EPHA_COLUMNS, EPHA_REQUIRED);
    const width = header(records[0]).length;
    for (const record of records.slice(1)) {
      read += 1;
      const get = (name: (typeof EPHA_COLUMNS)[number]) => (col[name]! < 0 ? '' : (record.fields[col[name]!] ?? '').trim());
      const problem = (message: string) => problems.push({ file: file.name, line: record.line, message });
      if (record.fields.length !== width) { problem(`expected ${width} fields, got ${record.fields.length}`); continue; }
      const [a, b] = [get('ATC1').toUpperCase(), get('ATC2').toUpperCase()];
      const bad = [a, b].find((code) => !ATC_ANY.test(code));
      if (bad !== undefined) { problem(`"${bad}" is not an ATC code`); continue; }
      if (a === b) { problem(`ATC1 and ATC2 are the same code ${a}`); continue; }
      const grade = get('Grad').toUpperCase();
      const severity = EPHA_SEVERITY[grade];
      if (!severity) { problem(`grade "${get('Grad')}" is not one of A, B, C, D, X`); continue; }
      const description = ephaDescription(get, grade, col.Info! >= 0 || col.Effekt! >= 0);
      if (description === null) { problem('no Info and no Effekt text'); continue; }
      const [mechanism, management] = [get('Mechanismus'), get('Massnahmen')];
      pairs.add(a, b, {
        severity,
        evidence: LISTED,
        description,
        ...(options.licensed && mechanism && management ? { licensed: { mechanism, management } } : {}),
      });
    }
  }
  const file: InteractionFile = {
    format: INTERACTIONS_FORMAT,
    source: { ...EPHA_SOURCE },
    licences: {
      'epha-open': { name: 'EPha.ch interaction data, terms as published by EPha.ch', url: 'https://epha.ch', commercial: false },
      ...(options.licensed ? { 'epha-commercial': { name: 'EPha.ch interaction texts under the operator\'s commercial agreement with EPha.ch AG', url: 'https://epha.ch', commercial: true } } : {}),
    },
    defaults: {
      licence: 'epha-open',
      attributions: ['EPha.ch AG interaction matrix (epha.ch)'],
      ...(options.licensed ? { licensed: { licence: 'epha-commercial', attributions: ['EPha.ch AG interaction matrix (epha.ch)'] } } : {}),
    },
    interactions: pairs.entries(),
  };
  return { file, problems, rows: { read, rules: file.interactions.length, merged: pairs.merged } };
}

/** One usable DDInter row, before its drug names are matched to ATC codes. */
export interface DdinterRow {
  file: string;
  line: number;
  idA: string;
  drugA: string;
  idB: string;
  drugB: string;
  level: string;
  /** The interaction type, where the set has a column for it. */
  type?: string;
}

/** DDInter CSV rows with a known level; other rows are problems. */
export function readDdinterCsv(files: readonly TextFile[]): { rows: DdinterRow[]; problems: RowProblem[]; read: number } {
  const rows: DdinterRow[] = [];
  const problems: RowProblem[] = [];
  let read = 0;
  for (const file of files) {
    const records = parseCsv(file.text.replace(/^\uFEFF/, ''));
    const col = columns(file, records, DDINTER_COLUMNS);
    const typeCol = header(records[0]).map((c) => c.toLowerCase()).findIndex((c) => DDINTER_TYPE_COLUMNS.includes(c));
    for (const record of records.slice(1)) {
      read += 1;
      const get = (name: (typeof DDINTER_COLUMNS)[number]) => (record.fields[col[name]!] ?? '').trim();
      const problem = (message: string) => problems.push({ file: file.name, line: record.line, message });
      if (record.fields.length < DDINTER_COLUMNS.length) { problem(`expected ${DDINTER_COLUMNS.length} fields, got ${record.fields.length}`); continue; }
      const level = get('Level').toLowerCase();
      if (!DDINTER_SEVERITY[level]) { problem(`level "${get('Level')}" is not one of Major, Moderate, Minor, Unknown`); continue; }
      if (get('Drug_A') === '' || get('Drug_B') === '') { problem('a drug name is empty'); continue; }
      const type = typeCol < 0 ? '' : (record.fields[typeCol] ?? '').trim();
      rows.push({
        file: file.name, line: record.line, idA: get('DDInterID_A'), drugA: get('Drug_A'), idB: get('DDInterID_B'), drugB: get('Drug_B'), level,
        ...(type !== '' && !/^unknown$/i.test(type) ? { type } : {}),
      });
    }
  }
  return { rows, problems, read };
}

const titleCase = (level: string): string => level.charAt(0).toUpperCase() + level.slice(1);

/** The DDInter ids of a row's two drugs with the ATC code each was matched to, in the rule's (sorted) order. */
function ddinterReferences(row: DdinterRow, a: string, b: string): CrossReference[] {
  const refs: CrossReference[] = [];
  for (const [id, name, atc] of [[row.idA, row.drugA, a], [row.idB, row.drugB, b]] as const) {
    if (/^DDInter\d+$/i.test(id)) refs.push({ system: 'ddinter', code: `DDInter${id.slice(7)}`, atc, name });
  }
  return refs.sort((x, y) => x.atc.localeCompare(y.atc));
}

/**
 * DDInter rows as an interaction file, each drug name replaced by its level-5 ATC codes
 * (`atcByName`, lower-case names). A drug with several codes (acetylsalicylic acid) gives a rule
 * for each; a name without a code is reported once, at its first row, with its row count.
 */
export function ddinterSet(parsed: { rows: DdinterRow[]; problems: RowProblem[]; read: number }, atcByName: ReadonlyMap<string, readonly string[]>): ConvertedSet {
  const problems = [...parsed.problems];
  const pairs = new PairSet();
  const unmatched = new Map<string, { name: string; id: string; row: DdinterRow; count: number }>();
  for (const row of parsed.rows) {
    const codesA = atcByName.get(row.drugA.toLowerCase()) ?? [];
    const codesB = atcByName.get(row.drugB.toLowerCase()) ?? [];
    for (const [name, id, codes] of [[row.drugA, row.idA, codesA], [row.drugB, row.idB, codesB]] as const) {
      if (codes.length > 0) continue;
      const seen = unmatched.get(name.toLowerCase());
      if (seen) seen.count += 1;
      else unmatched.set(name.toLowerCase(), { name, id, row, count: 1 });
    }
    if (codesA.length === 0 || codesB.length === 0) continue;
    const graded = row.level !== 'unknown';
    const description = `${row.drugA} and ${row.drugB}: ${graded ? `${titleCase(row.level)} interaction` : 'interaction listed without a severity grade (Unknown)'} in DDInter.`;
    for (const a of codesA) {
      for (const b of codesB) {
        if (a === b) continue;
        pairs.add(a, b, {
          severity: DDINTER_SEVERITY[row.level]!, evidence: graded ? LISTED : UNGRADED, description,
          cross_references: ddinterReferences(row, a, b),
          ...(row.type ? { interaction_type: row.type.toLowerCase() } : {}),
        });
      }
    }
  }
  for (const { name, id, row, count } of unmatched.values()) {
    problems.push({ file: row.file, line: row.line, message: `drug "${name}"${id ? ` (${id})` : ''} matches no ATC code in the catalogue; its ${count} row(s) are skipped` });
  }
  problems.sort((p, q) => (p.file === q.file ? p.line - q.line : p.file < q.file ? -1 : 1));
  const file: InteractionFile = {
    format: INTERACTIONS_FORMAT,
    source: { ...DDINTER_SOURCE },
    licences: { [DDINTER_LICENCE.id]: { name: DDINTER_LICENCE.name, url: DDINTER_LICENCE.url, commercial: false } },
    defaults: { licence: DDINTER_LICENCE.id, attributions: [DDINTER_ATTRIBUTION] },
    interactions: pairs.entries(),
  };
  return { file, problems, rows: { read: parsed.read, rules: file.interactions.length, merged: pairs.merged } };
}

/** The distinct drug names of DDInter rows (lower case), to match against the catalogue. */
export function ddinterNames(rows: readonly DdinterRow[]): string[] {
  return [...new Set(rows.flatMap((r) => [r.drugA.toLowerCase(), r.drugB.toLowerCase()]))];
}
