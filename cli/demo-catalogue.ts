/**
 * The bundled demo catalogue (data/demo/), loaded through the ingest engine like any
 * register, so the change feed holds its insert records from the first start on.
 * `ensureDemoCatalogue` loads it once into an empty catalogue; `updateDemoCatalogue`
 * ingests the builder's second state so the feed moves on demand.
 */
import type { Database } from '../platform/db.ts';
import { buildDemoSnapshots, buildDemoUpdateSnapshots } from '../data/demo/build.ts';
import { ingestSnapshots } from '../workers/ingest/engine.ts';
import { refreshLasa } from '../resolvers/catalogue/lasa-refresh.ts';
import type { IngestOptions, IngestReport } from '../workers/ingest/engine.ts';

export type DemoState = 'loaded' | 'present' | 'skipped';

export interface DemoLoad {
  state: DemoState;
  report: IngestReport | null;
  /** The line to print at start. */
  line: string;
}

function summary(verb: string, report: IngestReport): string {
  const t = report.tables;
  return `${verb}: ${report.sources.length} sources, ${t.products.insert} products, ${t.packs.insert} packs, `
    + `${t.substances.insert} substances, ${t.atc_nodes.insert} ATC nodes, ${report.changes} change records in ${(report.durationMs / 1000).toFixed(1)} s`;
}

/**
 * Loads the first demo state through the engine (in one transaction), then its look-alike
 * pairs (a few hundred names per country: well under a second). Idempotent: a second load
 * writes nothing.
 */
export async function loadDemoCatalogue(db: Database, options: IngestOptions = {}): Promise<IngestReport> {
  const report = await ingestSnapshots(db, buildDemoSnapshots(), options);
  await refreshLasa(db);
  return report;
}

/** Ingests the second demo state: changed prices, new, withdrawn and removed products, recalls. */
export async function updateDemoCatalogue(db: Database, options: IngestOptions = {}): Promise<IngestReport> {
  const report = await ingestSnapshots(db, buildDemoUpdateSnapshots(), options);
  await refreshLasa(db);
  return report;
}

/**
 * First start: loads the demo catalogue when no demo source exists and the catalogue holds
 * no products, so a real installation that ingested its own registers is never mixed with
 * demonstration data, and a restart never reloads it.
 */
export async function ensureDemoCatalogue(db: Database, options: IngestOptions = {}, onLoading?: () => void): Promise<DemoLoad> {
  const demo = await db.query('SELECT 1 FROM sources WHERE demo LIMIT 1');
  if (demo.rowCount > 0) return { state: 'present', report: null, line: 'Demo catalogue present (npx drugref demo update moves its change feed).' };
  const products = await db.query('SELECT 1 FROM products LIMIT 1');
  if (products.rowCount > 0) return { state: 'skipped', report: null, line: 'Catalogue holds registers already; demo catalogue not loaded.' };
  onLoading?.();
  // The time printed covers building the snapshots as well as ingesting them.
  const started = performance.now();
  const report = await loadDemoCatalogue(db, options);
  report.durationMs = Math.round(performance.now() - started);
  return { state: 'loaded', report, line: summary('Demo catalogue loaded', report) };
}

/** The line `drugref demo update` prints. */
export function updateLine(report: IngestReport): string {
  const t = report.tables;
  const sum = (k: 'insert' | 'update' | 'delete' | 'recall') => Object.values(t).reduce((n, c) => n + c[k], 0);
  return `Demo update: ${sum('insert')} inserts, ${sum('update')} updates, ${sum('delete')} deletes, ${sum('recall')} recalls `
    + `(${report.changes} change records) in ${(report.durationMs / 1000).toFixed(1)} s`;
}
