/**
 * Writes a shortage publication (adapters/supply-rows.ts) the way the engine writes a register:
 * one transaction under the ingest lock, a diff against the source's stored rows by pack code
 * and content hash, and one change record per pack whose supply changed, so the change feed
 * and webhooks carry supply like any register row. Every change is a `changes.update` of the
 * pack's supply (`table_name` `pack_supply`): `before` and `after` are the supply as it was and
 * is, null where no publication reported one (first reported, or no longer listed).
 *
 * `fetched_at` moves on every ingest, also for unchanged rows: it says how fresh the report is.
 */
import type { Queryable } from '../../platform/db.ts';
import { appendChanges } from './changes.ts';
import type { ChangeRow } from './changes.ts';
import { contentHash } from './canonical.ts';
import type { JsonValue } from './canonical.ts';
import type { SourceInfo } from './snapshot.ts';
import type { SupplyParse, SupplyRow } from './adapters/supply-rows.ts';

/** Same lock id as the register engine (engine.ts), so change records stay globally ordered. */
const INGEST_LOCK_ID = 727_002;

export interface SupplyWriteReport {
  source: string;
  insert: number;
  update: number;
  delete: number;
  unchanged: number;
  changes: number;
}

interface StoredSupply {
  system: string;
  code: string;
  content_hash: string;
  supply: JsonValue;
}

/** The supply as change records and the API show it. */
function supplyOf(row: SupplyRow, source: string): JsonValue {
  return { status: row.status, reason: row.reason, since: row.since, expected_until: row.expectedUntil, source, record: row.record };
}

async function upsertSource(tx: Queryable, source: SourceInfo): Promise<void> {
  await tx.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, licence, url, demo)
     VALUES ($1, $2, $3, $4, $5, $6, false)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, country = EXCLUDED.country,
       refresh_interval_hours = EXCLUDED.refresh_interval_hours, licence = EXCLUDED.licence, url = EXCLUDED.url`,
    [source.id, source.name, source.country, source.refresh_interval_hours, source.licence ?? null, source.url ?? null],
  );
}

/** The product each code names in the catalogue (a pack's product first), for the change records' `drug_id`. */
async function drugIds(tx: Queryable, keys: ReadonlyArray<{ system: string; code: string }>): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const { rows } = await tx.query<{ system: string; code: string; drug_id: string }>(
    `SELECT DISTINCT ON (i.system, i.code) i.system, i.code, coalesce(p.merged_into, p.id) AS drug_id
       FROM identifiers i JOIN products p ON p.id = i.drug_id
       JOIN unnest($1::text[], $2::text[]) AS k(system, code) ON k.system = i.system AND k.code = i.code
      ORDER BY i.system, i.code, i.pack_id IS NULL, p.id`,
    [keys.map((k) => k.system), keys.map((k) => k.code)],
  );
  return new Map(rows.map((r) => [`${r.system}|${r.code}`, r.drug_id]));
}

/** Writes one parsed publication; returns what changed. Nothing is written when it throws. */
export async function writeSupply(tx: Queryable, parsed: SupplyParse): Promise<SupplyWriteReport> {
  const source = parsed.source.id;
  await tx.query('SELECT pg_advisory_xact_lock($1)', [INGEST_LOCK_ID]);
  await upsertSource(tx, parsed.source);
  const { rows: stored } = await tx.query<StoredSupply>(
    `SELECT system, code, content_hash, jsonb_build_object('status', status, 'reason', reason, 'since', since::text,
            'expected_until', expected_until::text, 'source', source, 'record', record) AS supply
       FROM pack_supply WHERE source = $1`, [source]);
  const byKey = new Map(stored.map((s) => [`${s.system}|${s.code}`, s]));
  const report: SupplyWriteReport = { source, insert: 0, update: 0, delete: 0, unchanged: 0, changes: 0 };
  const write: Array<SupplyRow & { hash: string }> = [];
  const changed: Array<{ system: string; code: string; before: JsonValue | null; after: JsonValue | null }> = [];
  for (const row of parsed.rows) {
    const key = `${row.system}|${row.code}`;
    const before = byKey.get(key);
    byKey.delete(key);
    const hash = contentHash(supplyOf(row, source));
    write.push({ ...row, hash });
    if (before?.content_hash === hash) { report.unchanged++; continue; }
    report[before ? 'update' : 'insert']++;
    changed.push({ system: row.system, code: row.code, before: before?.supply ?? null, after: supplyOf(row, source) });
  }
  // A publication that lists only some pages keeps the rows it does not state.
  const gone = parsed.partial ? [] : [...byKey.values()];
  for (const row of gone) changed.push({ system: row.system, code: row.code, before: row.supply, after: null });
  report.delete = gone.length;
  await tx.query(
    `INSERT INTO pack_supply (source, system, code, country, status, reason, since, expected_until, record, content_hash, fetched_at)
     SELECT $2, r.system, r.code, $3, r.status, r.reason, r.since::date, r."expectedUntil"::date, r.record, r.hash, clock_timestamp()
       FROM jsonb_to_recordset($1::jsonb) AS r(system text, code text, status text, reason text, since text, "expectedUntil" text, record jsonb, hash text)
     ON CONFLICT (source, system, code) DO UPDATE SET status = EXCLUDED.status, reason = EXCLUDED.reason, since = EXCLUDED.since,
       expected_until = EXCLUDED.expected_until, record = EXCLUDED.record, content_hash = EXCLUDED.content_hash, fetched_at = EXCLUDED.fetched_at`,
    [JSON.stringify(write), source, parsed.source.country],
  );
  if (gone.length > 0) {
    await tx.query('DELETE FROM pack_supply p USING unnest($2::text[], $3::text[]) AS g(system, code) WHERE p.source = $1 AND p.system = g.system AND p.code = g.code',
      [source, gone.map((g) => g.system), gone.map((g) => g.code)]);
  }
  const drugs = await drugIds(tx, changed);
  const records: ChangeRow[] = changed.map((c) => ({
    table_name: 'pack_supply', natural_key: { system: c.system, code: c.code }, drug_id: drugs.get(`${c.system}|${c.code}`) ?? null,
    change_type: 'update', before: c.before, after: c.after, source,
  }));
  report.changes = await appendChanges(tx, records);
  await tx.query('UPDATE sources SET last_synced_at = clock_timestamp() WHERE id = $1', [source]);
  return report;
}
