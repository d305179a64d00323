/**
 * `drugref demo generate --products N [--packs-per-product 2] [--seed S]`: writes a large
 * synthetic catalogue (data/large/) into the configured PostgreSQL database with COPY, for
 * load tests and the benchmark. Refuses the embedded database and a database that already
 * holds a generated catalogue. Synthetic data, not for clinical use.
 */
import { loadConfig } from '../../platform/config.ts';
import { writeLargeCatalogue } from '../../data/large/write.ts';
import { openConfiguredDatabase } from '../database.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Runs the generator; progress every tenth goes to stderr. */
export async function generate(o: { products: number; packsPerProduct: number; seed: string }): Promise<number> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    process.stderr.write('drugref: the large catalogue generator writes with COPY and needs PostgreSQL: set DATABASE_URL. The embedded database is for the demo catalogue.\n');
    return 1;
  }
  const db = await openConfiguredDatabase(config);
  let reported = 0;
  try {
    const report = await writeLargeCatalogue(db, { products: o.products, packsPerProduct: o.packsPerProduct, seed: o.seed }, ({ done, total }) => {
      if (done - reported >= total / 10 || done === total) {
        reported = done;
        process.stderr.write(`generated ${done} / ${total} products\n`);
      }
    });
    out(`Synthetic catalogue (not for clinical use): ${report.products} products, ${report.packs} packs, ${report.identifiers} identifiers in ${(report.durationMs / 1000).toFixed(1)} s (ANALYZE ${(report.analyzeMs / 1000).toFixed(1)} s).`);
    return 0;
  } finally {
    await db.close();
  }
}
