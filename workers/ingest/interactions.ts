/**
 * Loads an interaction file ("drugref-interactions/1", see interactions-format.ts) the way the
 * ingest engine loads a register: one transaction under the engine's advisory lock, a diff of
 * the file against the source's stored rows by natural key and content hash, and one change
 * record per inserted, updated or deleted rule. A refused file writes nothing. Published data
 * sets (EPha's matrix CSV, DDInter's CSVs) are recognised by their header and converted first
 * (interactions-csv.ts); their malformed rows are reported, not fatal.
 */
import { readFile } from 'node:fs/promises';
import type { Database, Queryable } from '../../platform/db.ts';
import { appendChanges } from './changes.ts';
import type { ChangeRow } from './changes.ts';
import { contentHash } from './canonical.ts';
import type { JsonValue } from './canonical.ts';
import { InteractionFileError, readInteractionFile } from './interactions-format.ts';
import type { InteractionFile, RuleRow } from './interactions-format.ts';
import { ddinterNames, ddinterSet, detectInteractionFormat, readDdinterCsv, readEphaCsv } from './interactions-csv.ts';
import type { InteractionFormat, TextFile } from './interactions-csv.ts';
import { readFestInteractions } from './interactions-fest.ts';
import type { RowProblem } from './snapshot.ts';

export { InteractionFileError };

/** Same lock id as the register engine (engine.ts), so change records stay globally ordered. */
const INGEST_LOCK_ID = 727_002;

export const DEMO_INTERACTIONS_FILE = new URL('../../data/interactions/demo-interactions.json', import.meta.url);

type RuleTable = 'interaction_rules' | 'interaction_rules_licensed';

export interface InteractionLoadReport {
  source: string;
  open: { insert: number; update: number; delete: number; unchanged: number };
  licensed: { insert: number; update: number; delete: number; unchanged: number };
  changes: number;
}

interface StoredRule {
  natural_key: string;
  content_hash: string;
  record: JsonValue;
}

async function upsertSourceAndLicences(tx: Queryable, file: InteractionFile): Promise<void> {
  const s = file.source;
  await tx.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, licence, url, demo)
     VALUES ($1, $2, NULL, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, refresh_interval_hours = EXCLUDED.refresh_interval_hours,
       licence = EXCLUDED.licence, url = EXCLUDED.url, demo = EXCLUDED.demo`,
    [s.id, s.name, s.refresh_interval_hours, Object.keys(file.licences).join(', '), s.url ?? null, s.demo ?? false],
  );
  const entries = Object.entries(file.licences).map(([id, l]) => ({ id, name: l.name, url: l.url ?? null, commercial: l.commercial }));
  await tx.query(
    `INSERT INTO interaction_licences (id, name, url, commercial, source)
     SELECT l.id, l.name, l.url, l.commercial, $2 FROM jsonb_to_recordset($1::jsonb) AS l(id text, name text, url text, commercial boolean)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url, commercial = EXCLUDED.commercial, source = EXCLUDED.source`,
    [JSON.stringify(entries), s.id],
  );
}

/** Writes one table's differences; returns its counts and change records. */
async function syncTable(tx: Queryable, table: RuleTable, source: string, rows: RuleRow[]) {
  const { rows: stored } = await tx.query<StoredRule>(`SELECT natural_key, content_hash, record FROM ${table} WHERE source = $1`, [source]);
  const byKey = new Map(stored.map((r) => [r.natural_key, r]));
  const counts = { insert: 0, update: 0, delete: 0, unchanged: 0 };
  const changes: ChangeRow[] = [];
  const write: Array<RuleRow & { content_hash: string }> = [];
  for (const row of rows) {
    const hash = contentHash(row);
    const before = byKey.get(row.natural_key);
    byKey.delete(row.natural_key);
    if (before?.content_hash === hash) { counts.unchanged++; continue; }
    write.push({ ...row, content_hash: hash });
    const type = before ? 'update' : 'insert';
    counts[type]++;
    changes.push({ table_name: table, natural_key: { key: row.natural_key }, drug_id: null, change_type: type, before: before?.record ?? null, after: row as unknown as JsonValue, source });
  }
  const gone = [...byKey.values()];
  for (const row of gone) changes.push({ table_name: table, natural_key: { key: row.natural_key }, drug_id: null, change_type: 'delete', before: row.record, after: null, source });
  counts.delete = gone.length;
  if (write.length) await upsertRules(tx, table, source, write);
  if (gone.length) await tx.query(`DELETE FROM ${table} WHERE source = $1 AND natural_key = ANY($2)`, [source, gone.map((r) => r.natural_key)]);
  return { counts, changes };
}

async function upsertRules(tx: Queryable, table: RuleTable, source: string, rows: Array<RuleRow & { content_hash: string }>): Promise<void> {
  const licensed = table === 'interaction_rules_licensed';
  const extraCols = licensed ? ', mechanism, management' : '';
  const extraTypes = licensed ? ', mechanism text, management text' : '';
  const extraSet = licensed ? ', mechanism = EXCLUDED.mechanism, management = EXCLUDED.management' : '';
  const payload = rows.map((r) => ({ ...r, record: r }));
  await tx.query(
    `INSERT INTO ${table} (source, natural_key, a_code, b_code, severity, evidence, description, licence, attributions, record, content_hash${extraCols})
     SELECT $2, r.natural_key, r.a_code, r.b_code, r.severity, r.evidence, r.description, r.licence, r.attributions, r.record, r.content_hash${extraCols}
       FROM jsonb_to_recordset($1::jsonb) AS r(natural_key text, a_code text, b_code text, severity text, evidence text, description text,
            licence text, attributions jsonb, record jsonb, content_hash text${extraTypes})
     ON CONFLICT (source, natural_key) DO UPDATE SET a_code = EXCLUDED.a_code, b_code = EXCLUDED.b_code, severity = EXCLUDED.severity,
       evidence = EXCLUDED.evidence, description = EXCLUDED.description, licence = EXCLUDED.licence, attributions = EXCLUDED.attributions,
       record = EXCLUDED.record, content_hash = EXCLUDED.content_hash${extraSet}`,
    [JSON.stringify(payload), source],
  );
}

/** Loads a parsed interaction file in one transaction; throws InteractionFileError before writing anything. */
export async function loadInteractions(db: Database, value: unknown, options: { now?: () => Date } = {}): Promise<InteractionLoadReport> {
  const { file, open, licensed } = readInteractionFile(value);
  const source = file.source.id;
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INGEST_LOCK_ID]);
    await upsertSourceAndLicences(tx, file);
    const openSync = await syncTable(tx, 'interaction_rules', source, open);
    const licensedSync = await syncTable(tx, 'interaction_rules_licensed', source, licensed);
    const now = options.now ? options.now() : null;
    const changes = await appendChanges(tx, [...openSync.changes, ...licensedSync.changes], now);
    await tx.query('UPDATE sources SET last_synced_at = coalesce($2::timestamptz, clock_timestamp()) WHERE id = $1', [source, now]);
    return { source, open: openSync.counts, licensed: licensedSync.counts, changes };
  });
}

/** What loading one or more files did: the engine report plus the format read and its row problems. */
export interface InteractionSetReport extends InteractionLoadReport {
  format: InteractionFormat;
  /** Rows of a published CSV that could not be used (file and line), skipped. */
  problems: RowProblem[];
  /** For published CSVs: data rows read, rules made, rows folded into another row's rule. */
  rows?: { read: number; rules: number; merged: number };
}

export interface InteractionSetOptions {
  now?: () => Date;
  /** EPha only: also load Mechanismus and Massnahmen as licensed rows (the operator holds them under a commercial agreement). */
  licensed?: boolean;
}

/** Level-5 ATC codes of drug names (lower case): substance names in any vocabulary, and WHO's level-5 labels. */
export async function atcCodesByName(db: Queryable, names: readonly string[]): Promise<Map<string, string[]>> {
  if (names.length === 0) return new Map();
  const { rows } = await db.query<{ name: string; codes: string[] }>(
    `WITH wanted AS (SELECT DISTINCT unnest($1::text[]) AS name),
     named AS (
       SELECT lower(s.name) AS name, a AS code FROM substances s CROSS JOIN unnest(s.atc_codes) AS a
       UNION ALL
       SELECT lower(v.value), a FROM substances s CROSS JOIN jsonb_each_text(s.names) AS v CROSS JOIN unnest(s.atc_codes) AS a
       UNION ALL
       SELECT lower(n.name), n.code FROM atc_nodes n WHERE n.level = 5)
     SELECT w.name, array_agg(DISTINCT c.code ORDER BY c.code) AS codes
       FROM wanted w JOIN named c ON c.name = w.name AND length(c.code) = 7
      GROUP BY w.name`,
    [names],
  );
  return new Map(rows.map((r) => [r.name, r.codes]));
}

async function readText(path: string | URL): Promise<TextFile> {
  return { name: String(path instanceof URL ? path.pathname : path), text: await readFile(path, 'utf8') };
}

/**
 * Reads and loads one interaction file (drugref-interactions/1 JSON) or the files of one
 * published data set (EPha's matrix CSV; DDInter's CSVs, which come split by ATC group), the
 * format recognised from each file's header. All files of one call form one set: the source's
 * stored rules are replaced by the set's.
 */
export async function loadInteractionFiles(db: Database, paths: ReadonlyArray<string | URL>, options: InteractionSetOptions = {}): Promise<InteractionSetReport> {
  if (paths.length === 0) throw new InteractionFileError('no file given');
  const files = await Promise.all(paths.map(readText));
  const formats = files.map((f) => detectInteractionFormat(f.text));
  const unknown = formats.indexOf(null);
  if (unknown >= 0) throw new InteractionFileError(`${files[unknown]!.name}: not an interaction file (drugref-interactions/1 JSON, EPha matrix CSV, DDInter CSV or FEST XML)`);
  const format = formats[0]!;
  if (formats.some((f) => f !== format)) throw new InteractionFileError('the files are of different formats; load one data set at a time');
  const loadOptions = options.now ? { now: options.now } : {};
  if (format === 'drugref-interactions/1') {
    if (files.length > 1) throw new InteractionFileError('one drugref-interactions/1 file at a time');
    let parsed: unknown;
    try {
      parsed = JSON.parse(files[0]!.text);
    } catch (error) {
      if (error instanceof SyntaxError) throw new InteractionFileError(`not JSON: ${error.message}`);
      throw error;
    }
    return { ...(await loadInteractions(db, parsed, loadOptions)), format, problems: [] };
  }
  let set;
  if (format === 'epha-csv') set = readEphaCsv(files, { licensed: options.licensed ?? false });
  else if (format === 'fest-xml') set = readFestInteractions(files);
  else {
    const parsed = readDdinterCsv(files);
    set = ddinterSet(parsed, await atcCodesByName(db, ddinterNames(parsed.rows)));
  }
  // An empty set would delete every stored rule of the source: refuse it instead.
  if (set.file.interactions.length === 0) {
    throw new InteractionFileError(`no usable rows (${set.problems.length} problem row(s)); nothing was loaded`);
  }
  return { ...(await loadInteractions(db, set.file, loadOptions)), format, problems: set.problems, rows: set.rows };
}

/** Reads and loads an interaction file from disk (any supported format). */
export function loadInteractionFile(db: Database, path: string | URL, options: InteractionSetOptions = {}): Promise<InteractionSetReport> {
  return loadInteractionFiles(db, [path], options);
}

/** Loads the bundled demonstration set (idempotent: a second load writes nothing). */
export function loadDemoInteractions(db: Database, options: { now?: () => Date } = {}): Promise<InteractionLoadReport> {
  return loadInteractionFile(db, DEMO_INTERACTIONS_FILE, options);
}
