/**
 * WHO ATC/DDD index. WHOCC publishes the classification as two tables, and the adapter reads
 * either or both in one ingest, recognising each file's role from its header:
 *
 * - the **code list**: code and English name of every level, including the many codes without
 *   a DDD (`ATC code,ATC level name` as the index pages export it; `atc_code,atc_name`; or the
 *   WHOCC XML export `ATC_YYYY.xml`, rows `<z:row ATCCode='…' Name='…'/>`);
 * - the **DDD table**: code, DDD, unit, administration route and note, one row per route
 *   (`ATC code,DDD,U,Adm.R,Note`; `atc_code,ddd,uom,adm_r,note`; or WHOCC's
 *   `ATC_ddd_YYYY.xml`, rows `<z:row ATCCode='…' DDD='…' UnitType='…' AdmCode='…' DDDComment='…'/>`);
 * - or both at once: the widely used flat file `atc_code,atc_name,ddd,uom,adm_r,note` (and the
 *   index's `ATC code,ATC level name,DDD,U,Adm.R,Note`), one row per code and route.
 *
 * A snapshot with the code list states the tree; one with the DDD table states the DDDs; the
 * engine keeps the fact a snapshot does not carry (write-classification.ts), so the two files
 * can be ingested together or apart, in either order. When a code list leaves out the level-1
 * anatomical groups, they are supplied from WHO's English labels so every chain reaches its
 * group; a missing intermediate level (N02, N02B, N02BE) is reported, never invented.
 * `NA` and empty cells mean no value; the ATC level follows from the code length.
 */
import { atcLevel } from '../../../vocabulary/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, AtcEntry, DddEntry, FileReport, RowProblem, SourceInfo } from '../snapshot.ts';
import { EXCLUDED, RowTally, unusedFile } from '../row-outcome.ts';
import { FileRejectedError, decodeText, parseCsv, parseDecimal } from './common.ts';
import type { InputFile } from './common.ts';
import { HEAD_BYTES, assignLoadedRoles, headText } from './file-roles.ts';
import type { RoleRule } from './file-roles.ts';

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

/** WHO's English labels of the 14 anatomical main groups (ATC level 1). */
export const ATC_LEVEL1_NAMES: Readonly<Record<string, string>> = {
  A: 'ALIMENTARY TRACT AND METABOLISM',
  B: 'BLOOD AND BLOOD FORMING ORGANS',
  C: 'CARDIOVASCULAR SYSTEM',
  D: 'DERMATOLOGICALS',
  G: 'GENITO URINARY SYSTEM AND SEX HORMONES',
  H: 'SYSTEMIC HORMONAL PREPARATIONS, EXCL. SEX HORMONES AND INSULINS',
  J: 'ANTIINFECTIVES FOR SYSTEMIC USE',
  L: 'ANTINEOPLASTIC AND IMMUNOMODULATING AGENTS',
  M: 'MUSCULO-SKELETAL SYSTEM',
  N: 'NERVOUS SYSTEM',
  P: 'ANTIPARASITIC PRODUCTS, INSECTICIDES AND REPELLENTS',
  R: 'RESPIRATORY SYSTEM',
  S: 'SENSORY ORGANS',
  V: 'VARIOUS',
};

/** The columns a header may name, by field; compared lower-cased with spaces, dots and underscores dropped. */
const COLUMN_NAMES = {
  code: ['atccode', 'atc'],
  name: ['atcname', 'atclevelname', 'name'],
  ddd: ['ddd'],
  unit: ['uom', 'u', 'unit', 'unittype'],
  route: ['admr', 'admcode', 'route'],
  note: ['note', 'dddcomment'],
  /** The level-4 group a row of the scraped DDD table was read from. */
  group: ['sourcecode'],
} as const;
type Field = keyof typeof COLUMN_NAMES;

/** The roles a file can play; the flat file plays both. */
export type WhoAtcRole = 'code list' | 'DDD table' | 'code list + DDD table';

/** One data row of either table, whatever the file format. */
interface AtcRow {
  line: number;
  get(field: Field): string;
  /** Why the row cannot be read at all (fewer cells than the header: a file cut short mid-row). */
  broken?: string;
}

interface ReadFile {
  name: string;
  role: WhoAtcRole;
  rows: AtcRow[];
}

const squash = (name: string): string => name.trim().toLowerCase().replace(/[\s._-]/g, '');

/** The role a header states, or why it is no WHO ATC file. */
function roleOf(has: (field: Field) => boolean): WhoAtcRole | { why: string } {
  if (!has('code')) return { why: 'not a WHO ATC file: header lacks atc_code (ATC code)' };
  const tree = has('name');
  const ddd = has('ddd');
  if (ddd && (!has('unit') || !has('route'))) return { why: 'not a WHO ATC/DDD table: header has ddd but lacks uom (U) or adm_r (Adm.R)' };
  // The DDD table as scraped from the index's level-5 pages (`WHO_ATC_DDD_<date>.csv`) names
  // each row's level-4 group (`source_code`) and the substance: it is the DDD table, its names
  // only of level 5. Read as a code list it would state a tree without its groups.
  if (ddd && has('group')) return 'DDD table';
  if (tree && ddd) return 'code list + DDD table';
  if (tree) return 'code list';
  if (ddd) return 'DDD table';
  return { why: 'not a WHO ATC file: header lacks atc_name (ATC level name) and ddd' };
}

const isXml = (text: string): boolean => /^\s*<(\?xml|xml)\b/.test(text);

/** The column names a file's start declares: the CSV header, or the XML rowset's attribute types and first row. */
function headerNames(text: string): Set<string> {
  if (!isXml(text)) return new Set((parseCsv(text.split(/\r?\n/, 1)[0] ?? '')[0]?.fields ?? []).map(squash));
  const names = [...text.matchAll(/<s:AttributeType\s+name=['"]([^'"]+)['"]/g)].map((m) => squash(m[1]!));
  const firstRow = /<z:row\b([^>]*?)\/?>/.exec(text);
  for (const a of firstRow?.[1]!.matchAll(/([\w:.-]+)\s*=/g) ?? []) names.push(squash(a[1]!));
  return new Set(names);
}

/** The role of a file by the header at its start, or why it has none. */
function roleOfHead(text: string): WhoAtcRole | { why: string } {
  const names = headerNames(text);
  return roleOf((field) => (COLUMN_NAMES[field] as readonly string[]).some((n) => names.has(n)));
}

/** Each table by its header, never its name: the dated names WHO and its mirrors use all work. */
const RULES: readonly RoleRule<WhoAtcRole>[] = (['code list', 'DDD table', 'code list + DDD table'] as const).map((role) => ({
  role, many: true, recognise: (text: string) => (roleOfHead(text) === role ? 2 : 0),
}));

/** `NA` and empty cells both mean "no value" in the exports. */
function clean(value: string | undefined): string {
  const v = (value ?? '').trim();
  return v === 'NA' ? '' : v;
}

function readCsv(file: InputFile, text: string, role: WhoAtcRole): ReadFile {
  const records = parseCsv(text);
  const names = (records[0]?.fields ?? []).map(squash);
  const index = (field: Field): number => names.findIndex((n) => (COLUMN_NAMES[field] as readonly string[]).includes(n));
  const cols = Object.fromEntries((Object.keys(COLUMN_NAMES) as Field[]).map((f) => [f, index(f)])) as Record<Field, number>;
  const rows = records.slice(1).map((record): AtcRow => ({
    line: record.line,
    get: (field: Field) => (cols[field] >= 0 ? clean(record.fields[cols[field]]) : ''),
    ...(record.fields.length < names.length ? { broken: `${record.fields.length} of the header's ${names.length} columns (a file cut short?)` } : {}),
  }));
  // A header alone states nothing: read as a table it would delete every stored code or DDD.
  if (rows.length === 0) throw new FileRejectedError(file.name, 'no data rows below the header (an empty or cut-short file)');
  return { name: file.name, role, rows };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    return XML_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** WHOCC's XML export: an ADO rowset whose `<z:row/>` elements carry the columns as attributes. */
function readXml(file: InputFile, text: string, role: WhoAtcRole): ReadFile {
  const rowPattern = /<z:row\b([^>]*?)\/?>/g;
  const rows: AtcRow[] = [];
  let line = 1;
  let at = 0;
  for (const m of text.matchAll(rowPattern)) {
    for (; at < m.index; at += 1) if (text.charCodeAt(at) === 10) line += 1;
    const attrs = new Map<string, string>();
    for (const a of m[1]!.matchAll(/([\w:.-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) {
      attrs.set(squash(a[1]!), unescapeXml(a[2] ?? a[3] ?? ''));
    }
    rows.push({ line, get: (field) => clean(COLUMN_NAMES[field].map((n) => attrs.get(n)).find((v) => v !== undefined)) });
  }
  return { name: file.name, role, rows };
}

function readFile(file: InputFile, role: WhoAtcRole): ReadFile {
  const text = decodeText(file.content);
  return isXml(text) ? readXml(file, text, role) : readCsv(file, text, role);
}

/** DDD of one row, null when the row has none, or an error message. */
function rowDdd(row: AtcRow): DddEntry | null | string {
  const [raw, unit, route, note] = [row.get('ddd'), row.get('unit'), row.get('route'), row.get('note')];
  if (raw === '') return null;
  const value = parseDecimal(raw.replace(',', '.'));
  if (value === null || value <= 0) return `DDD "${raw}" is not a positive number`;
  if (unit === '' || route === '') return 'DDD without unit or administration route';
  return note === '' ? { value, unit, route } : { value, unit, route, note };
}

function sameDdd(a: DddEntry, b: DddEntry): boolean {
  return a.value === b.value && a.unit === b.unit && a.route === b.route && a.note === b.note;
}

/** Why a file is not read: what its header lacks. */
function whyUnused(file: InputFile): string {
  const role = roleOfHead(headText(file.content.subarray(0, HEAD_BYTES)));
  return typeof role === 'string' ? 'not a file this adapter reads' : role.why;
}

/**
 * Reads the tables among the files (one code list and/or one DDD table, or one flat file holding
 * both); the other members of a release folder (a readme, WHO's guidelines) are named unused.
 */
function readAll(files: InputFile[]): { read: ReadFile[]; unused: FileReport[] } {
  if (files.length === 0) throw new FileRejectedError('who-atc', 'expected a code list, a DDD table or both, got no file');
  const { byRole } = assignLoadedRoles(files, RULES);
  const roleOfFile = new Map([...byRole].flatMap(([role, given]) => given.map((f) => [f, role] as const)));
  // No table at all: refused with what the (first) file's header lacks.
  if (roleOfFile.size === 0) throw new FileRejectedError(files[0]!.name, whyUnused(files[0]!));
  const read = files.filter((f) => roleOfFile.has(f)).map((f) => readFile(f, roleOfFile.get(f)!));
  const unused = files.filter((f) => !roleOfFile.has(f)).map((f) => unusedFile(f.name, whyUnused(f)));
  const trees = read.filter((f) => f.role !== 'DDD table');
  const ddds = read.filter((f) => f.role !== 'code list');
  if (trees.length > 1) throw new FileRejectedError(trees[1]!.name, `a second code list (${trees[0]!.name} is one); give one code list and one DDD table`);
  if (ddds.length > 1) throw new FileRejectedError(ddds[1]!.name, `a second DDD table (${ddds[0]!.name} has the DDDs); give one code list and one DDD table`);
  return { read, unused };
}

/** Why a code-list row cannot be kept, or null. */
function treeProblem(file: ReadFile, row: AtcRow, code: string): string | null {
  if (row.broken) return row.broken;
  if (atcLevel(code) === null) return `"${code}" is not an ATC code`;
  if (row.get('name') === '') return `ATC code ${code} has no name`;
  // The flat file repeats a code once per route: its DDD is checked here, so the row has one outcome.
  const ddd = file.role === 'code list + DDD table' ? rowDdd(row) : null;
  return typeof ddd === 'string' ? `${code}: ${ddd}` : null;
}

/** Adds the names of a code list; returns the first line each code appeared on. */
function foldTree(file: ReadFile, entries: Map<string, AtcEntry>, tally: RowTally): Map<string, number> {
  const lines = new Map<string, number>();
  for (const row of file.rows) {
    const code = row.get('code').toUpperCase();
    const name = row.get('name');
    const level = atcLevel(code);
    const problem = treeProblem(file, row, code);
    if (problem) {
      tally.malformedRow(row.line, problem);
      continue;
    }
    // A flat file's row names its code and gives one route's DDD (or states there is none): kept.
    tally.keep();
    if (!entries.has(code)) entries.set(code, { code, name, level: level! });
    if (!lines.has(code)) lines.set(code, row.line);
  }
  return lines;
}

/**
 * Adds the DDDs of a DDD table (or of the flat file, whose rows `foldTree` already counted:
 * `tally` is then null). A row without DDD (`NA`) is WHO's statement that the substance has
 * none: excluded as `no_ddd`, never malformed. Codes a code list of the same ingest lacks are malformed.
 */
function foldDdd(file: ReadFile, entries: Map<string, AtcEntry>, tree: boolean, tally: RowTally | null): void {
  for (const row of file.rows) {
    const code = row.get('code').toUpperCase();
    const level = atcLevel(code);
    if (row.broken || level === null) {
      tally?.malformedRow(row.line, row.broken ?? `"${code}" is not an ATC code`);
      continue;
    }
    const ddd = rowDdd(row);
    if (typeof ddd === 'string') {
      tally?.malformedRow(row.line, `${code}: ${ddd}`);
      continue;
    }
    if (ddd === null) {
      tally?.exclude(EXCLUDED.noDdd);
      continue;
    }
    let entry = entries.get(code);
    if (!entry && tree) {
      tally?.malformedRow(row.line, `${code}: DDD for a code the code list does not have`);
      continue;
    }
    if (!entry) {
      entry = { code, level, ddd: [] };
      entries.set(code, entry);
    }
    // One row per route: collect each distinct DDD once; the same DDD again is a duplicate row.
    if ((entry.ddd ?? []).some((d) => sameDdd(d, ddd))) {
      tally?.exclude(EXCLUDED.duplicate);
      continue;
    }
    entry.ddd = [...(entry.ddd ?? []), ddd];
    tally?.keep();
  }
}

/**
 * Supplies missing level-1 groups from WHO's labels and reports missing intermediate levels
 * (once each, at the first row that needs it); they are left out, not invented.
 */
function completeTree(file: ReadFile, entries: Map<string, AtcEntry>, lines: Map<string, number>, problems: RowProblem[]): void {
  const missing = new Map<string, { child: string; line: number }>();
  for (const [code, line] of [...lines].sort((a, b) => a[1] - b[1])) {
    const level = atcLevel(code)!;
    const letter = code[0]!;
    if (!entries.has(letter) && ATC_LEVEL1_NAMES[letter]) entries.set(letter, { code: letter, name: ATC_LEVEL1_NAMES[letter], level: 1 });
    for (const length of [1, 3, 4, 5].slice(0, level - 1)) {
      const parent = code.slice(0, length);
      if (!entries.has(parent) && !missing.has(parent)) missing.set(parent, { child: code, line });
    }
  }
  for (const [parent, { child, line }] of missing) {
    problems.push({ file: file.name, line, message: `${child}: its ATC level ${atcLevel(parent)} group ${parent} is not in the code list (left out, not invented)` });
  }
}

/**
 * Parses WHO ATC files (code list, DDD table or both) into one snapshot. Every row is kept,
 * malformed (reported with its line) or excluded for a reason (`no_ddd`, `duplicate`).
 */
export function parseWhoAtcFiles(files: InputFile[]): AdapterResult {
  const { read, unused } = readAll(files);
  const problems: RowProblem[] = [];
  const entries = new Map<string, AtcEntry>();
  const tallies = new Map(read.map((f) => [f, new RowTally(f.name, problems)]));
  const treeFile = read.find((f) => f.role !== 'DDD table');
  const dddFile = read.find((f) => f.role !== 'code list');
  const lines = treeFile ? foldTree(treeFile, entries, tallies.get(treeFile)!) : new Map<string, number>();
  if (dddFile) {
    foldDdd(dddFile, entries, treeFile !== undefined, dddFile === treeFile ? null : tallies.get(dddFile)!);
    // The DDD table states every DDD of the source: codes of the code list without one have none.
    for (const entry of entries.values()) entry.ddd ??= [];
  }
  if (treeFile) completeTree(treeFile, entries, lines, problems);
  const reports = new Map<string, FileReport>(read.map((f) => [f.name, tallies.get(f)!.report(f.role)]));
  for (const u of unused) reports.set(u.file, u);
  problems.sort((a, b) => (a.file === b.file ? a.line - b.line : files.findIndex((f) => f.name === a.file) - files.findIndex((f) => f.name === b.file)));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: WHO_ATC_SOURCE, atc: [...entries.values()] },
    problems,
    files: files.map((f) => reports.get(f.name)!),
  };
}

/** Parses one WHO ATC file (kept for single-file callers). */
export function parseWhoAtc(file: string, content: Buffer): AdapterResult {
  return parseWhoAtcFiles([{ name: file, content }]);
}
