/**
 * The ingest engine: diffs normalised snapshots against the stored catalogue and writes the
 * differences, with one change record per inserted, updated, deleted or recalled record, in
 * ONE transaction. A snapshot that fails anywhere (a refused snapshot, a violated
 * constraint in any chunk, a file that turns out unreadable midway) rolls everything back:
 * catalogue, change feed and source rows stay as they were.
 *
 * Memory holds one chunk of a register, not the register: the small kinds (classes, ATC,
 * substances, recalls) are planned whole, products and packs stream through in chunks diffed
 * against the stored rows of their own keys (write-records.ts), the keys a snapshot states wait
 * in a temporary table (staging.ts), and deletions are found set-based at the end
 * (deletions.ts).
 *
 * Order within a snapshot: classes, ATC and substances are written first, then products chunk
 * by chunk, then packs, then recalls; then deletions children first; then signatures of other
 * sources' products whose substances changed and the substance identity links; last the
 * source's `last_synced_at` (its `schema_state` is derived from it at read time: `ok` until
 * the refresh interval has passed). Change records are appended as they are settled, in feed
 * order: classification, substances, products, packs, recalls (staging.ts).
 */
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { deleteAndRecord, deleteUnstated } from './deletions.ts';
import { IngestError } from './diff.ts';
import type { SnapshotInput } from './input.ts';
import { emptyCounts } from './plan.ts';
import type { KindPlan, TableCounts } from './plan.ts';
import { SNAPSHOT_FORMAT } from './snapshot.ts';
import type { SourceInfo } from './snapshot.ts';
import { mergeSources } from './merge.ts';
import { guardDeletions } from './shrink-guard.ts';
import type { ShrinkLimits } from './shrink-guard.ts';
import { IngestStage } from './staging.ts';
import { moietyResolver, refreshSignatures } from './write-derived.ts';
import { linkSubstances } from './write-links.ts';
import { atcNamesMissing, writeAtcNames } from './write-atc-names.ts';
import { planAtc, planClasses } from './write-classification.ts';
import { planRecalls } from './write-recalls.ts';
import { DEFAULT_CHUNK_PRODUCTS, writeRecords } from './write-records.ts';
import { planSubstances } from './write-substances.ts';

export { IngestError } from './diff.ts';
export type { TableCounts } from './plan.ts';

/** Any constant shared by every instance: serialises ingests so change order is global. */
const INGEST_LOCK_ID = 727_002;

export const INGEST_TABLES = ['atc_nodes', 'classes', 'substances', 'products', 'packs', 'recalls'] as const;
export type IngestTable = (typeof INGEST_TABLES)[number];

/** Steps reported to `onProgress` per snapshot. */
export const STEPS_PER_SNAPSHOT = 4;

export interface IngestProgress {
  source: string;
  step: 'plan' | 'write' | 'derive' | 'changes';
  /** Steps finished so far over all snapshots of the call, and their total. */
  done: number;
  total: number;
  /** During `write`: products and packs of the snapshot written so far (reported after each chunk). */
  rows?: number;
}

export interface IngestOptions {
  /**
   * Sync time written to `last_synced_at` (tests of staleness); defaults to the database clock.
   * For change records it is only a lower bound on the database clock (see changes.ts).
   */
  now?: () => Date;
  log?: Pick<Logger, 'info'>;
  onProgress?: (progress: IngestProgress) => void;
  /** Products per chunk (default 2,000): what the engine holds in memory at once. */
  chunkSize?: number;
  /** Refuse a snapshot that would delete more than this share of its source (shrink-guard.ts); none: no guard. */
  shrinkLimits?: ShrinkLimits;
}

export interface IngestReport {
  sources: string[];
  tables: Record<IngestTable, TableCounts>;
  /** Change records appended. */
  changes: number;
  /** Products and packs of the touched countries that another source's row represents (merge.ts). */
  merged: { products: number; packs: number };
  durationMs: number;
}

function emptyReport(): IngestReport {
  const tables = Object.fromEntries(INGEST_TABLES.map((t) => [t, emptyCounts()])) as Record<IngestTable, TableCounts>;
  return { sources: [], tables, changes: 0, merged: { products: 0, packs: 0 }, durationMs: 0 };
}

function addCounts(into: TableCounts, from: TableCounts): void {
  for (const key of Object.keys(into) as Array<keyof TableCounts>) into[key] += from[key];
}

function checkSnapshot(snapshot: SnapshotInput): void {
  if (snapshot.format !== SNAPSHOT_FORMAT) throw new IngestError(`not a ${SNAPSHOT_FORMAT} snapshot`);
  if (!snapshot.source?.id || !snapshot.source.name) throw new IngestError('snapshot has no source id and name');
}

async function upsertSource(tx: Queryable, source: SourceInfo): Promise<void> {
  await tx.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, licence, url, demo)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, country = EXCLUDED.country,
       refresh_interval_hours = EXCLUDED.refresh_interval_hours, licence = EXCLUDED.licence, url = EXCLUDED.url, demo = EXCLUDED.demo`,
    [source.id, source.name, source.country, source.refresh_interval_hours, source.licence ?? null, source.url ?? null, source.demo ?? false],
  );
}

/** True when the snapshot changed ATC nodes or DDDs, or carried a tree whose names were never read. */
async function atcTreeChanged(tx: Queryable, atc: KindPlan, carried: boolean): Promise<boolean> {
  const { insert, update, delete: removed } = atc.counts;
  if (insert + update + removed > 0) return true;
  return carried && atcNamesMissing(tx);
}

type Progress = (step: IngestProgress['step'], rows?: number) => void;

function count(report: IngestReport, plan: KindPlan): void {
  addCounts(report.tables[plan.table as IngestTable], plan.counts);
}

/** A plan of a partial snapshot: the rows it does not state are neither deleted nor recorded as deleted. */
function withoutDeletes(plan: KindPlan): void {
  plan.changes = plan.changes.filter((c) => c.change_type !== 'delete');
  plan.counts.delete = 0;
}

/** Writes one snapshot inside the open transaction with its change records; returns its products' countries. */
async function writeSnapshot(tx: Queryable, stage: IngestStage, snapshot: SnapshotInput, options: IngestOptions,
  report: IngestReport, progress: Progress): Promise<Set<string>> {
  const id = snapshot.source.id;
  await upsertSource(tx, snapshot.source);
  await stage.reset();
  const classes = await planClasses(tx, id, snapshot.classes ?? []);
  const atc = await planAtc(tx, id, snapshot.atc ?? []);
  const substances = await planSubstances(tx, id, snapshot.substances ?? []);
  const moieties = await moietyResolver(tx, substances.moieties);
  // A partial snapshot updates what it states and deletes nothing (snapshot.ts `partial`).
  const deletes = snapshot.partial !== true;
  if (!deletes) for (const plan of [classes, atc, substances]) withoutDeletes(plan);
  progress('plan');
  for (const plan of [classes, atc, substances]) await plan.upsert(tx);
  // Feed order follows the register's hierarchy: classification, substances, products, packs, recalls.
  for (const plan of [atc, classes, substances]) await stage.append(plan.changes);
  const records = await writeRecords(tx, stage, snapshot, moieties, {
    chunkSize: options.chunkSize ?? DEFAULT_CHUNK_PRODUCTS, onRows: (rows) => progress('write', rows),
  });
  if (options.shrinkLimits && deletes) {
    await guardDeletions(tx, id, { products: records.products.insert, packs: records.packs.insert }, options.shrinkLimits);
  }
  const recalls = await planRecalls(tx, id, snapshot.recalls ?? []);
  if (!deletes) withoutDeletes(recalls);
  await recalls.upsert(tx);
  // Deletions children first, so a deleted parent never takes a row that moved to a new parent with it.
  if (deletes) records.packs.delete = await deleteAndRecord(stage, 'packs', id);
  await stage.append(recalls.changes);
  if (deletes) {
    await recalls.remove(tx);
    await deleteUnstated(tx, 'products', id);
    for (const plan of [substances, atc, classes]) await plan.remove(tx);
  }
  for (const plan of [atc, classes, substances, recalls]) count(report, plan);
  addCounts(report.tables.products, records.products);
  addCounts(report.tables.packs, records.packs);
  progress('write');
  // Other sources' products using a changed substance; this snapshot's products got theirs in their chunks.
  await refreshSignatures(tx, substances.touched, id);
  // WHO's level-5 names as substances, rewritten when the tree changed (so load order does not matter).
  const atcNamesChanged = await atcTreeChanged(tx, atc, (snapshot.atc ?? []).length > 0);
  if (atcNamesChanged) await writeAtcNames(tx);
  // Cross-register substance identity: links, linked signatures and ATC codes (write-links.ts).
  await linkSubstances(tx, substances.touched, records.productCount > 0 ? id : null, atcNamesChanged);
  progress('derive');
  report.sources.push(id);
  return records.countries;
}

async function run(tx: Queryable, snapshots: readonly SnapshotInput[], options: IngestOptions): Promise<IngestReport> {
  const report = emptyReport();
  const total = snapshots.length * STEPS_PER_SNAPSHOT;
  let done = 0;
  const now = options.now ? options.now() : null;
  await tx.query('SELECT pg_advisory_xact_lock($1)', [INGEST_LOCK_ID]);
  const stage = await IngestStage.open(tx, now);
  const countries = new Set<string>();
  for (const snapshot of snapshots) {
    const progress: Progress = (step, rows) => options.onProgress?.({
      source: snapshot.source.id, step, ...(rows === undefined ? { done: ++done } : { done, rows }), total,
    });
    if (snapshot.source.country) countries.add(snapshot.source.country);
    for (const c of await writeSnapshot(tx, stage, snapshot, options, report, progress)) countries.add(c);
    progress('changes');
  }
  report.changes = stage.appended;
  report.merged = await mergeSources(tx, [...countries]);
  await tx.query('UPDATE sources SET last_synced_at = coalesce($2::timestamptz, clock_timestamp()) WHERE id = ANY($1::text[])', [report.sources, now]);
  return report;
}

/** Ingests several snapshots in ONE transaction (all or nothing), in the given order. */
export async function ingestSnapshots(db: Database, snapshots: readonly SnapshotInput[], options: IngestOptions = {}): Promise<IngestReport> {
  snapshots.forEach(checkSnapshot);
  const ids = snapshots.map((s) => s.source.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new IngestError(`source ${repeated} appears in two snapshots of one ingest`);
  const started = performance.now();
  const report = await db.transaction((tx) => run(tx, snapshots, options));
  report.durationMs = Math.round(performance.now() - started);
  options.log?.info({ sources: report.sources, changes: report.changes, durationMs: report.durationMs }, 'ingest committed');
  return report;
}

/**
 * Ingests the snapshot `prepare` builds inside the ingest transaction, once it holds the ingest
 * lock: files that update what the catalogue holds (a partial FEST document, SL group prices
 * alone) read the held records through `tx`, so no other ingest changes them in between. Whatever
 * `prepare` throws rolls the transaction back with nothing written.
 */
export async function ingestWithin(db: Database, prepare: (tx: Queryable) => Promise<SnapshotInput>, options: IngestOptions = {}): Promise<IngestReport> {
  const started = performance.now();
  const report = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INGEST_LOCK_ID]);
    const snapshot = await prepare(tx);
    checkSnapshot(snapshot);
    return run(tx, [snapshot], options);
  });
  report.durationMs = Math.round(performance.now() - started);
  options.log?.info({ sources: report.sources, changes: report.changes, durationMs: report.durationMs }, 'ingest committed');
  return report;
}

/** Ingests one snapshot in one transaction; its products and packs may be streams (input.ts). */
export function ingestSnapshot(db: Database, snapshot: SnapshotInput, options: IngestOptions = {}): Promise<IngestReport> {
  return ingestSnapshots(db, [snapshot], options);
}
