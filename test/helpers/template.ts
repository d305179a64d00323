/**
 * What every test database starts with: all migrations applied. Built once per test run
 * per backend (see setup-*.ts) and cloned for each test file.
 */
import type { Database } from '../../platform/db.ts';
import { migrate } from '../../platform/migrate.ts';
import { loadDemoCatalogue } from '../../cli/demo-catalogue.ts';

export async function prepareTemplate(db: Database): Promise<void> {
  await migrate(db);
}

/**
 * The second template, `openTestDatabase({ demo: true })`: a migrated database that also
 * holds the demo catalogue, loaded through the ingest engine once per run, so endpoint tests
 * read realistic data without loading it per file. Expects a migrated database.
 */
export async function prepareDemoTemplate(db: Database): Promise<void> {
  await loadDemoCatalogue(db);
}
