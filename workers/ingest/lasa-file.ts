/**
 * `drugref reference lasa <file>`: a curated confused-drug-names list (docs/catalogue.md "LASA")
 * as a CSV with the header `name_a,name_b,source,reason` (RFC 4180 quoting; lines starting
 * with `#` are comments; `reason` may be empty). Each row names one pair; `source` names the
 * list it comes from (e.g. ISMP), so several lists can be loaded side by side: a file replaces
 * the stored pairs of every source it names and leaves other sources alone.
 *
 * Names are compared by their key (`lasa_name_key`, 0830_lasa.sql: first word, lower case,
 * accents folded). Rows that cannot be used are reported as `file:line: message` and skipped;
 * a file with no usable row, or without the header, is refused and changes nothing. Loading
 * the same file twice changes nothing the second time.
 */
import { readFile } from 'node:fs/promises';
import type { Database, Queryable } from '../../platform/db.ts';
import { parseCsv } from './adapters/common.ts';
import type { CsvRecord } from './adapters/common.ts';
import type { RowProblem } from './snapshot.ts';

export const LASA_COLUMNS = ['name_a', 'name_b', 'source', 'reason'] as const;
/** Reason stored when a row leaves it empty. */
export const DEFAULT_LASA_REASON = 'confused names';
const MAX_FIELD = 200;

/** A file that cannot be loaded at all; nothing was written. */
export class LasaFileError extends Error {}

export interface LasaPair {
  source: string;
  keyA: string;
  keyB: string;
  nameA: string;
  nameB: string;
  reason: string;
}

export interface LasaLoadReport {
  /** Data rows read (comments and blank lines aside). */
  read: number;
  sources: string[];
  inserted: number;
  updated: number;
  removed: number;
  unchanged: number;
  problems: RowProblem[];
}

/** A row of a curated list whose fields are present (its names not yet keyed). */
export interface Candidate {
  line: number;
  nameA: string;
  nameB: string;
  source: string;
  reason: string;
}

/** Comment lines become blank (parseCsv skips them) so every record keeps its line number. */
function withoutComments(text: string): string {
  return text.replace(/^\uFEFF/, '').split('\n').map((l) => (l.trimStart().startsWith('#') ? '' : l)).join('\n');
}

function headerColumns(file: string, record: CsvRecord | undefined): Record<(typeof LASA_COLUMNS)[number], number> {
  const cols = (record?.fields ?? []).map((f) => f.trim().toLowerCase());
  const out = {} as Record<(typeof LASA_COLUMNS)[number], number>;
  for (const name of LASA_COLUMNS) {
    const i = cols.indexOf(name);
    if (i < 0) throw new LasaFileError(`${file}: the first line must be the header ${LASA_COLUMNS.join(',')} (it lacks ${name})`);
    out[name] = i;
  }
  return out;
}

/** Rows with their fields checked; key checks need the database (`lasa_name_key`). */
export function readLasaRows(file: string, text: string): { rows: Candidate[]; problems: RowProblem[]; read: number } {
  const records = parseCsv(withoutComments(text));
  const col = headerColumns(file, records[0]);
  const rows: Candidate[] = [];
  const problems: RowProblem[] = [];
  for (const record of records.slice(1)) {
    const get = (name: (typeof LASA_COLUMNS)[number]) => (record.fields[col[name]] ?? '').trim();
    const problem = (message: string) => problems.push({ file, line: record.line, message });
    if (record.fields.length < 3) { problem(`expected ${LASA_COLUMNS.length} fields, found ${record.fields.length}`); continue; }
    const [nameA, nameB, source, reason] = [get('name_a'), get('name_b'), get('source'), get('reason')];
    if (!nameA || !nameB) { problem('name_a and name_b must both be given'); continue; }
    if (!source) { problem('source must be given (the list the pair comes from)'); continue; }
    if ([nameA, nameB, source, reason].some((f) => f.length > MAX_FIELD || f.includes('\u0000'))) { problem(`a field is longer than ${MAX_FIELD} characters or holds NUL`); continue; }
    rows.push({ line: record.line, nameA, nameB, source, reason: reason || DEFAULT_LASA_REASON });
  }
  return { rows, problems, read: records.length - 1 };
}

/** Name keys of every name, computed by the same SQL function the read side uses. */
async function keysOf(db: Queryable, names: string[]): Promise<Map<string, string | null>> {
  const { rows } = await db.query<{ name: string; key: string | null }>('SELECT n AS name, lasa_name_key(n) AS key FROM unnest($1::text[]) AS n', [names]);
  return new Map(rows.map((r) => [r.name, r.key]));
}

/** Turns checked rows into pairs keyed by name; rows whose names give no usable key, or the same one, or repeat a pair, are problems. */
export async function resolvePairs(db: Queryable, file: string, rows: Candidate[]): Promise<{ pairs: LasaPair[]; problems: RowProblem[] }> {
  const keys = await keysOf(db, [...new Set(rows.flatMap((r) => [r.nameA, r.nameB]))]);
  const pairs = new Map<string, LasaPair>();
  const problems: RowProblem[] = [];
  for (const r of rows) {
    const [a, b] = [keys.get(r.nameA) ?? null, keys.get(r.nameB) ?? null];
    const bad = [[r.nameA, a], [r.nameB, b]].find(([, k]) => k === null || k!.length < 3);
    if (bad) { problems.push({ file, line: r.line, message: `"${bad[0]}" has no word of three letters or more to compare` }); continue; }
    if (a === b) { problems.push({ file, line: r.line, message: `"${r.nameA}" and "${r.nameB}" share their first word; names are compared by it` }); continue; }
    const [first, second] = a! < b! ? [r.nameA, r.nameB] : [r.nameB, r.nameA];
    const [keyA, keyB] = a! < b! ? [a!, b!] : [b!, a!];
    const id = `${r.source}\u0000${keyA}\u0000${keyB}`;
    if (pairs.has(id)) { problems.push({ file, line: r.line, message: `repeats the pair ${first} / ${second} of ${r.source}` }); continue; }
    pairs.set(id, { source: r.source, keyA, keyB, nameA: first, nameB: second, reason: r.reason });
  }
  return { pairs: [...pairs.values()], problems };
}

/** Replaces the stored pairs of the file's sources by the file's, in one transaction. */
async function writePairs(db: Database, pairs: LasaPair[]) {
  const sources = [...new Set(pairs.map((p) => p.source))].sort();
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ inserted: number; updated: number; removed: number; unchanged: number }>(
      `WITH f AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS f(source text, "keyA" text, "keyB" text, "nameA" text, "nameB" text, reason text)),
            gone AS (DELETE FROM lasa_names l WHERE l.source = ANY($2::text[])
                       AND NOT EXISTS (SELECT 1 FROM f WHERE f.source = l.source AND f."keyA" = l.key_a AND f."keyB" = l.key_b) RETURNING 1),
            before AS (SELECT l.* FROM lasa_names l JOIN f ON f.source = l.source AND f."keyA" = l.key_a AND f."keyB" = l.key_b),
            up AS (INSERT INTO lasa_names AS l (source, key_a, key_b, name_a, name_b, reason)
                   SELECT source, "keyA", "keyB", "nameA", "nameB", reason FROM f
                   ON CONFLICT (source, key_a, key_b) DO UPDATE SET name_a = EXCLUDED.name_a, name_b = EXCLUDED.name_b, reason = EXCLUDED.reason,
                     loaded_at = now()
                   WHERE (l.name_a, l.name_b, l.reason) IS DISTINCT FROM (EXCLUDED.name_a, EXCLUDED.name_b, EXCLUDED.reason)
                   RETURNING l.source, l.key_a, l.key_b)
       SELECT (SELECT count(*) FROM up WHERE NOT EXISTS (SELECT 1 FROM before b WHERE b.source = up.source AND b.key_a = up.key_a AND b.key_b = up.key_b))::int AS inserted,
              (SELECT count(*) FROM up WHERE EXISTS (SELECT 1 FROM before b WHERE b.source = up.source AND b.key_a = up.key_a AND b.key_b = up.key_b))::int AS updated,
              (SELECT count(*) FROM gone)::int AS removed,
              (SELECT count(*) FROM f)::int - (SELECT count(*) FROM up)::int AS unchanged`,
      [JSON.stringify(pairs), sources],
    );
    return { sources, ...rows[0]! };
  });
}

/** Reads, checks and loads a curated list from text; throws LasaFileError before writing anything. */
export async function loadLasaText(db: Database, file: string, text: string): Promise<LasaLoadReport> {
  const read = readLasaRows(file, text);
  const resolved = await resolvePairs(db, file, read.rows);
  const problems = [...read.problems, ...resolved.problems].sort((x, y) => x.line - y.line);
  // An empty set would delete every stored pair of nothing, or hide a wrong file: refuse it.
  if (resolved.pairs.length === 0) throw new LasaFileError(`${file}: no usable rows (${problems.length} problem row(s)); nothing was loaded`);
  const counts = await writePairs(db, resolved.pairs);
  return { read: read.read, problems, ...counts };
}

/** Reads and loads a curated list from disk. */
export async function loadLasaFile(db: Database, path: string | URL): Promise<LasaLoadReport> {
  const name = String(path instanceof URL ? path.pathname : path);
  return loadLasaText(db, name, await readFile(path, 'utf8'));
}
