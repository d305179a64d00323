/**
 * What every test database starts with: all migrations applied. Built once per test run
 * per backend (see setup-*.ts) and cloned for each test file.
 */
import type { Database } from '../../platform/db.ts';
import { migrate } from '../../platform/migrate.ts';

export async function prepareTemplate(db: Database): Promise<void> {
  await migrate(db);
}
