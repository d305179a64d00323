/**
 * The ingest engine: diffs normalised snapshots against the stored catalogue and writes the
 * differences, with one change record per inserted, updated, deleted or recalled record, in
 * ONE transaction. A snapshot that fails anywhere (a refused snapshot, a violated
 * constraint) rolls everything back: catalogue, change feed and source rows stay as they were.
 *
 * Order within a snapshot: every kind is planned first (reads only), then written parents
 * first (classes, ATC, substances, products, packs, recalls), then deletions children first,
 * then signatures of other sources' products whose substances changed, and last the source's `last_synced_at` (its `schema_state` is derived
 * from it at read time: `ok` until the refresh interval has passed).
 */
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import { appendChanges } from './changes.ts';
import type { ChangeRow } from './changes.ts';
import { IngestError } from './diff.ts';
import { emptyCounts } from './plan.ts';
import type { KindPlan, TableCounts } from './plan.ts';
import { SNAPSHOT_FORMAT } from './snapshot.ts';
import type { Snapshot, SourceInfo } from './snapshot.ts';
import { mergeSources } from './merge.ts';
import { moietiesFor, refreshSignatures } from './write-derived.ts';
import { linkSubstances } from './write-links.ts';
import { planAtc, planClasses } from './write-classification.ts';
import { planPacks } from './write-packs.ts';
import { planProducts } from './write-products.ts';
import { planRecalls } from './write-recalls.ts';
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
}

export interface IngestOptions {
  /**
   * Sync time written to `last_synced_at` (tests of staleness); defaults to the database clock.
   * For change records it is only a lower bound on the database clock (see changes.ts).
   */
  now?: () => Date;
  log?: Pick<Logger, 'info'>;
  onProgress?: (progress: IngestProgress) => void;
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

function checkSnapshot(snapshot: Snapshot): void {
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

/** Plans and writes one snapshot inside the open transaction; returns its change records. */
async function writeSnapshot(tx: Queryable, snapshot: Snapshot, report: IngestReport, progress: (step: IngestProgress['step']) => void): Promise<ChangeRow[]> {
  const id = snapshot.source.id;
  await upsertSource(tx, snapshot.source);
  const classes = await planClasses(tx, id, snapshot.classes ?? []);
  const atc = await planAtc(tx, id, snapshot.atc ?? []);
  const substances = await planSubstances(tx, id, snapshot.substances ?? []);
  const moieties = await moietiesFor(tx, snapshot.products ?? [], substances.moieties);
  const products = await planProducts(tx, id, snapshot.products ?? [], moieties);
  const packs = await planPacks(tx, id, snapshot.products ?? [], products.idByKey);
  const recalls = await planRecalls(tx, id, snapshot.recalls ?? [], products);
  progress('plan');
  const plans: KindPlan[] = [classes, atc, substances, products, packs, recalls];
  for (const plan of plans) await plan.upsert(tx);
  for (const plan of [...plans].reverse()) await plan.remove(tx);
  progress('write');
  // Other sources' products using a changed substance; this snapshot's products got theirs in the plan.
  await refreshSignatures(tx, substances.touched, new Set(products.idByKey.values()));
  // Cross-register substance identity: links, linked signatures and ATC codes (write-links.ts).
  await linkSubstances(tx, substances.touched, products.idByKey.values());
  progress('derive');
  for (const plan of plans) addCounts(report.tables[plan.table as IngestTable], plan.counts);
  report.sources.push(id);
  // Feed order follows the register's hierarchy: classification, substances, products, packs, recalls.
  return [atc, classes, substances, products, packs, recalls].flatMap((p) => p.changes);
}

async function run(tx: Queryable, snapshots: readonly Snapshot[], options: IngestOptions): Promise<IngestReport> {
  const report = emptyReport();
  const total = snapshots.length * STEPS_PER_SNAPSHOT;
  let done = 0;
  const now = options.now ? options.now() : null;
  await tx.query('SELECT pg_advisory_xact_lock($1)', [INGEST_LOCK_ID]);
  for (const snapshot of snapshots) {
    const progress = (step: IngestProgress['step']) => options.onProgress?.({ source: snapshot.source.id, step, done: ++done, total });
    const changes = await writeSnapshot(tx, snapshot, report, progress);
    report.changes += await appendChanges(tx, changes, now);
    progress('changes');
  }
  const countries = snapshots.flatMap((s) => [s.source.country, ...(s.products ?? []).map((p) => p.country)]);
  report.merged = await mergeSources(tx, [...new Set(countries.filter((c): c is NonNullable<typeof c> => c !== null))]);
  await tx.query('UPDATE sources SET last_synced_at = coalesce($2::timestamptz, clock_timestamp()) WHERE id = ANY($1::text[])', [report.sources, now]);
  return report;
}

/** Ingests several snapshots in ONE transaction (all or nothing), in the given order. */
export async function ingestSnapshots(db: Database, snapshots: readonly Snapshot[], options: IngestOptions = {}): Promise<IngestReport> {
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

/** Ingests one snapshot in one transaction. */
export function ingestSnapshot(db: Database, snapshot: Snapshot, options: IngestOptions = {}): Promise<IngestReport> {
  return ingestSnapshots(db, [snapshot], options);
}
