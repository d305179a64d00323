/**
 * `drugref coverage [--json]`: how far drugref's derivations reach on the catalogue it holds
 * (resolvers/markets/coverage.ts) — per country and source, products with an ATC code from
 * the register, derived or none, active packs, priced packs, packs normalised per DDD and the
 * top reasons for the rest. Read-only.
 */
import { loadConfig } from '../../platform/config.ts';
import { catalogueCoverage, perDddShare } from '../../resolvers/markets/coverage.ts';
import type { CoverageRow } from '../../resolvers/markets/coverage.ts';
import { openConfiguredDatabase } from '../database.ts';

/** Reasons shown per row of the table. */
const TOP_REASONS = 3;

const HEADER = ['country', 'source', 'products', 'ATC register', 'ATC derived', 'ATC none', 'packs', 'priced', 'per DDD', 'share', 'top reasons (packs)'];

/** The report as a Markdown table (also what docs/markets.md shows for the test fixtures). */
export function coverageTable(rows: readonly CoverageRow[]): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const body = rows.map((r) => {
    const share = perDddShare(r);
    const reasons = r.reasons.slice(0, TOP_REASONS).map((x) => `${x.reason} ${x.packs}`).join(', ') || '—';
    return line([r.country, `${r.source}${r.demo ? ' (demo)' : ''}`, r.products, r.atc.register, r.atc.derived, r.atc.none,
      r.packs, r.priced, r.perDdd, share === null ? '—' : `${share} %`, reasons]);
  });
  return [line(HEADER), line(HEADER.map(() => '---')), ...body].join('\n');
}

/** `coverage [--json]`. */
export async function coverageCommand(options: { json?: boolean }): Promise<number> {
  const db = await openConfiguredDatabase(loadConfig());
  try {
    const rows = await catalogueCoverage(db);
    process.stdout.write(`${options.json ? JSON.stringify(rows, null, 2) : coverageTable(rows)}\n`);
    return 0;
  } finally {
    await db.close();
  }
}
