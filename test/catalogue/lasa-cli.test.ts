/**
 * `drugref reference lasa <file>` as a child process on the running backend (a PostgreSQL
 * database by DATABASE_URL, or an embedded one in DATA_DIR), then the curated pair over HTTP.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/db.ts';
import type { Database } from '../../platform/db.ts';
import { cliEnv, migratedDataDir, runCli } from '../cli/helpers.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { lasaRefreshSettled } from '../../resolvers/catalogue/lasa-refresh.ts';
import { CURATED_CSV, LASA_IDS, seedLasaCatalogue } from './lasa-helpers.ts';

describe('drugref reference lasa', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let pg: (Database & { url?: string }) | null = null;
  const embedded = () => join(dir, 'db', 'pglite');
  /** The database the CLI writes, opened in this process (the embedded one only while no CLI runs). */
  const openShared = async (): Promise<Database> => pg ?? openDatabase({ dataDir: embedded() });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-lasa-'));
    if (testBackend() === 'postgres') {
      pg = await openTestDatabase();
      env = cliEnv(join(dir, 'db'), { DEMO: 'false', DATABASE_URL: pg.url! });
      await seedLasaCatalogue(pg);
    } else {
      env = cliEnv(await migratedDataDir(join(dir, 'db')), { DEMO: 'false' });
      const db = await openShared();
      await seedLasaCatalogue(db);
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads a list, lists malformed rows by line, computes the pairs, and the curated pair shows in search', async () => {
    const file = join(dir, 'confused.csv');
    await writeFile(file, CURATED_CSV);
    const res = await runCli(['reference', 'lasa', file], env);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('6 row(s) skipped:');
    expect(res.stderr).toContain(`${file}:9: expected 4 fields, found 2`);
    expect(res.stdout).toContain('Loaded look-alike pairs of TEST-LIST from 8 rows: 2 new, 0 changed, 0 removed, 0 unchanged.');
    expect(res.stdout).toMatch(/Computed look-alike pairs: CH 0 pairs among 1 names; US \d+ pairs among \d+ names\./);
    const again = await runCli(['reference', 'lasa', file], env);
    expect(again.stdout).toContain('2 unchanged.');
    expect(again.stdout).toContain('Computed look-alike pairs were up to date.');

    const db = await openShared();
    const t = await startTestApp({ db });
    try {
      const key = await t.key({ tier: 'enterprise' });
      const res2 = await t.app.inject({ url: '/v1/drugs?q=celebrex&country=US&include=lasa', headers: bearer(key) });
      expect(res2.statusCode).toBe(200);
      const row = res2.json().results.find((r: { id: string }) => r.id === LASA_IDS.celebrexUs);
      expect(row.lasa[0]).toEqual({
        name: 'Zyprexa', drug_id: LASA_IDS.zyprexaUs, reasons: ['curated'], score: 1, spelling: null, phonetic: null,
        curated: [{ source: 'TEST-LIST', reason: 'look-alike on handwritten orders' }],
      });
      await lasaRefreshSettled(db);
    } finally {
      await t.close();
      if (!pg) await db.close();
    }
  }, 180_000);

  it('refuses a file without the header with exit 1 and writes nothing', async () => {
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, 'Celebrex,Taxol,X,y\n');
    const res = await runCli(['reference', 'lasa', bad], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('file rejected, nothing was written');
    expect(res.stderr).toContain('the first line must be the header name_a,name_b,source,reason');
    expect((await runCli(['reference', 'lasa'], env)).code).toBe(2);
  }, 120_000);
});
