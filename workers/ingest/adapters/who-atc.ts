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
import { atcLevel } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, AtcEntry, DddEntry, FileReport, SourceInfo } from '../snapshot.ts';
import { FileRejectedError, ProblemLog, decodeText, parseCsv, parseDecimal } from './common.ts';
import type { InputFile } from './common.ts';

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
} as const;
type Field = keyof typeof COLUMN_NAMES;

/** The roles a file can play; the flat file plays both. */
export type WhoAtcRole = 'code list' | 'DDD table' | 'code list + DDD table';

/** One data row of either table, whatever the file format. */
interface AtcRow {
  line: number;
  get(field: Field): string;
}

interface ReadFile {
  name: string;
  role: WhoAtcRole;
  rows: AtcRow[];
}

const squash = (name: string): string => name.trim().toLowerCase().replace(/[\s._-]/g, '');

function roleOf(file: string, has: (field: Field) => boolean): WhoAtcRole {
  if (!has('code')) throw new FileRejectedError(file, 'not a WHO ATC file: header lacks atc_code (ATC code)');
  const tree = has('name');
  const ddd = has('ddd');
  if (ddd && (!has('unit') || !has('route'))) throw new FileRejectedError(file, 'not a WHO ATC/DDD table: header has ddd but lacks uom (U) or adm_r (Adm.R)');
  if (tree && ddd) return 'code list + DDD table';
  if (tree) return 'code list';
  if (ddd) return 'DDD table';
  throw new FileRejectedError(file, 'not a WHO ATC file: header lacks atc_name (ATC level name) and ddd');
}

/** `NA` and empty cells both mean "no value" in the exports. */
function clean(value: string | undefined): string {
  const v = (value ?? '').trim();
  return v === 'NA' ? '' : v;
}

function readCsv(file: InputFile): ReadFile {
  const records = parseCsv(decodeText(file.content));
  const names = (records[0]?.fields ?? []).map(squash);
  const index = (field: Field): number => names.findIndex((n) => (COLUMN_NAMES[field] as readonly string[]).includes(n));
  const role = roleOf(file.name, (field) => index(field) >= 0);
  const cols = Object.fromEntries((Object.keys(COLUMN_NAMES) as Field[]).map((f) => [f, index(f)])) as Record<Field, number>;
  const rows = records.slice(1).map((record) => ({
    line: record.line,
    get: (field: Field) => (cols[field] >= 0 ? clean(record.fields[cols[field]]) : ''),
  }));
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
function readXml(file: InputFile, text: string): ReadFile {
  const declared = [...text.matchAll(/<s:AttributeType\s+name=['"]([^'"]+)['"]/g)].map((m) => squash(m[1]!));
  const rowPattern = /<z:row\b([^>]*?)\/?>/g;
  const rows: AtcRow[] = [];
  const seen = new Set(declared);
  let line = 1;
  let at = 0;
  for (const m of text.matchAll(rowPattern)) {
    for (; at < m.index; at += 1) if (text.charCodeAt(at) === 10) line += 1;
    const attrs = new Map<string, string>();
    for (const a of m[1]!.matchAll(/([\w:.-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) {
      const key = squash(a[1]!);
      attrs.set(key, unescapeXml(a[2] ?? a[3] ?? ''));
      seen.add(key);
    }
    rows.push({ line, get: (field) => clean(COLUMN_NAMES[field].map((n) => attrs.get(n)).find((v) => v !== undefined)) });
  }
  const role = roleOf(file.name, (field) => (COLUMN_NAMES[field] as readonly string[]).some((n) => seen.has(n)));
  return { name: file.name, role, rows };
}

function readFile(file: InputFile): ReadFile {
  const text = decodeText(file.content);
  return /^\s*<(\?xml|xml)\b/.test(text) ? readXml(file, text) : readCsv(file);
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

/** Reads the files (one code list and/or one DDD table, or one flat file holding both). */
function readAll(files: InputFile[]): ReadFile[] {
  if (files.length === 0 || files.length > 2) throw new FileRejectedError('who-atc', `expected a code list, a DDD table or both, got ${files.length} files`);
  const read = files.map(readFile);
  const trees = read.filter((f) => f.role !== 'DDD table');
  const ddds = read.filter((f) => f.role !== 'code list');
  if (trees.length > 1) throw new FileRejectedError(trees[1]!.name, `a second code list (${trees[0]!.name} is one); give one code list and one DDD table`);
  if (ddds.length > 1) throw new FileRejectedError(ddds[1]!.name, `a second DDD table (${ddds[0]!.name} has the DDDs); give one code list and one DDD table`);
  return read;
}

interface Counter { read: number; kept: number; skipped: number }

/** Adds the names of a code list; returns the first line each code appeared on. */
function foldTree(file: ReadFile, entries: Map<string, AtcEntry>, log: ProblemLog, count: Counter): Map<string, number> {
  const lines = new Map<string, number>();
  for (const row of file.rows) {
    const code = row.get('code').toUpperCase();
    const name = row.get('name');
    const level = atcLevel(code);
    let problem: string | null = null;
    if (level === null) problem = `"${code}" is not an ATC code`;
    else if (name === '') problem = `ATC code ${code} has no name`;
    // The flat file repeats a code once per route: its DDD is checked with the DDDs below.
    else if (file.role === 'code list + DDD table' && typeof rowDdd(row) === 'string') problem = `${code}: ${rowDdd(row) as string}`;
    if (problem) {
      log.add(file.name, row.line, problem);
      count.skipped += 1;
      continue;
    }
    if (!entries.has(code)) entries.set(code, { code, name, level: level! });
    if (!lines.has(code)) lines.set(code, row.line);
  }
  return lines;
}

/** Adds the DDDs of a DDD table (or of the flat file); codes a code list of the same ingest lacks are reported. */
function foldDdd(file: ReadFile, entries: Map<string, AtcEntry>, tree: boolean, log: ProblemLog, count: Counter): void {
  const flat = file.role === 'code list + DDD table';
  for (const row of file.rows) {
    const code = row.get('code').toUpperCase();
    const level = atcLevel(code);
    if (level === null) {
      if (!flat) { log.add(file.name, row.line, `"${code}" is not an ATC code`); count.skipped += 1; }
      continue;
    }
    const ddd = rowDdd(row);
    if (typeof ddd === 'string' || (ddd === null && !flat)) {
      if (!flat) {
        log.add(file.name, row.line, `${code}: ${ddd ?? 'no DDD value'}`);
        count.skipped += 1;
      }
      continue;
    }
    if (ddd === null) continue;
    let entry = entries.get(code);
    if (!entry && tree) {
      if (!flat) { log.add(file.name, row.line, `${code}: DDD for a code the code list does not have`); count.skipped += 1; }
      continue;
    }
    if (!entry) {
      entry = { code, level, ddd: [] };
      entries.set(code, entry);
    }
    // One row per route: collect each distinct DDD once.
    if (!(entry.ddd ?? []).some((d) => sameDdd(d, ddd))) entry.ddd = [...(entry.ddd ?? []), ddd];
  }
}

/**
 * Supplies missing level-1 groups from WHO's labels and reports missing intermediate levels
 * (once each, at the first row that needs it); they are left out, not invented.
 */
function completeTree(file: ReadFile, entries: Map<string, AtcEntry>, lines: Map<string, number>, log: ProblemLog): void {
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
    log.add(file.name, line, `${child}: its ATC level ${atcLevel(parent)} group ${parent} is not in the code list (left out, not invented)`);
  }
}

/** Parses WHO ATC files (code list, DDD table or both) into one snapshot; malformed rows are reported and skipped. */
export function parseWhoAtcFiles(files: InputFile[]): AdapterResult {
  const read = readAll(files);
  const log = new ProblemLog();
  const entries = new Map<string, AtcEntry>();
  const counts = new Map(read.map((f) => [f, { read: f.rows.length, kept: 0, skipped: 0 }]));
  const treeFile = read.find((f) => f.role !== 'DDD table');
  const dddFile = read.find((f) => f.role !== 'code list');
  const lines = treeFile ? foldTree(treeFile, entries, log, counts.get(treeFile)!) : new Map<string, number>();
  if (dddFile) {
    foldDdd(dddFile, entries, treeFile !== undefined, log, counts.get(dddFile)!);
    // The DDD table states every DDD of the source: codes of the code list without one have none.
    for (const entry of entries.values()) entry.ddd ??= [];
  }
  if (treeFile) completeTree(treeFile, entries, lines, log);
  for (const count of counts.values()) count.kept = count.read - count.skipped;
  const reports: FileReport[] = read.map((f) => ({ file: f.name, role: f.role, ...counts.get(f)! }));
  log.problems.sort((a, b) => (a.file === b.file ? a.line - b.line : files.findIndex((f) => f.name === a.file) - files.findIndex((f) => f.name === b.file)));
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: WHO_ATC_SOURCE, atc: [...entries.values()] },
    problems: log.problems,
    files: reports,
  };
}

/** Parses one WHO ATC file (kept for single-file callers). */
export function parseWhoAtc(file: string, content: Buffer): AdapterResult {
  return parseWhoAtcFiles([{ name: file, content }]);
}
