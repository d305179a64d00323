/**
 * The benchmark's database: a scratch PostgreSQL database created for the run and dropped
 * at its end (`drugref_bench_<pid>` on the server of BENCH_DATABASE_URL), migrated and
 * loaded with the demo catalogue and, for `--catalogue large`, the generated catalogue
 * (data/large/). `--database-url` uses a prepared database instead and leaves it in place.
 */
import { openDatabase } from '../platform/db.ts';
import type { Database } from '../platform/db.ts';
import { migrate } from '../platform/migrate.ts';
import { createKey } from '../resolvers/accounts/keys.ts';
import { buildDemoSnapshots } from '../data/demo/build.ts';
import { writeLargeCatalogue } from '../data/large/write.ts';
import { ingestSnapshots } from '../workers/ingest/engine.ts';

export interface BenchDatabaseOptions {
  /** A server URL whose database is only used to create and drop the scratch database. */
  adminUrl: string;
  catalogue: 'demo' | 'large';
  /** Generated products for `large`. */
  products: number;
  /** A prepared database to use as is (not dropped). */
  existingUrl?: string;
  log(line: string): void;
}

export interface BenchDatabase {
  url: string;
  key: string;
  /** A Swiss demo product and the GTIN of one of its packs. */
  drugId: string;
  gtin: string;
  products: number;
  packs: number;
  postgresVersion: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function load(db: Database, options: BenchDatabaseOptions): Promise<void> {
  await migrate(db);
  const demo = await db.query("SELECT 1 FROM sources WHERE id = 'demo-ch'");
  if (demo.rowCount === 0) {
    const report = await ingestSnapshots(db, buildDemoSnapshots());
    options.log(`demo catalogue loaded: ${report.tables.products.insert} products in ${(report.durationMs / 1000).toFixed(1)} s`);
  }
  if (options.catalogue === 'large' && (await db.query("SELECT 1 FROM sources WHERE id LIKE 'synthetic-%'")).rowCount === 0) {
    options.log(`generating ${options.products} products (data/large) …`);
    const r = await writeLargeCatalogue(db, { products: options.products, packsPerProduct: 2, seed: 'drugref' });
    options.log(`generated ${r.products} products, ${r.packs} packs in ${(r.durationMs / 1000).toFixed(1)} s`);
  }
  await db.query('ANALYZE');
}

/** Creates (or opens) and loads the run's database; returns what the scenarios need. */
export async function prepareBenchDatabase(options: BenchDatabaseOptions): Promise<BenchDatabase> {
  const name = `drugref_bench_${process.pid}`;
  const admin = options.existingUrl ? null : await openDatabase({ url: options.adminUrl, max: 1 });
  await admin?.query(`CREATE DATABASE "${name}"`);
  const url = options.existingUrl ?? withDatabase(options.adminUrl, name);
  const drop = async () => {
    await admin?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin?.close();
  };
  const db = await openDatabase({ url, max: 2 });
  try {
    await load(db, options);
    const key = (await createKey(db, { account: `bench-${Date.now()}`, tier: 'enterprise' })).key;
    const { rows } = await db.query<{ id: string; gtin: string }>(
      `SELECT p.id, i.code AS gtin FROM products p JOIN identifiers i ON i.drug_id = p.id AND i.system = 'gtin' AND i.pack_id IS NOT NULL
        WHERE p.source = 'demo-ch' AND p.searchable ORDER BY p.natural_key, i.code LIMIT 1`);
    const counts = await db.query<{ products: number; packs: number; version: string }>(
      "SELECT (SELECT count(*) FROM products)::int AS products, (SELECT count(*) FROM packs)::int AS packs, current_setting('server_version') AS version");
    const c = counts.rows[0]!;
    await db.close();
    return { url, key, drugId: rows[0]!.id, gtin: rows[0]!.gtin, products: c.products, packs: c.packs, postgresVersion: c.version, drop };
  } catch (err) {
    await db.close();
    await drop();
    throw err;
  }
}
