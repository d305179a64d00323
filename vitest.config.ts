/**
 * The suite runs once on embedded PGlite and, when TEST_DATABASE_URL is set (CI), the files
 * that open a database run once more on real PostgreSQL (a file that never reaches
 * test/helpers/db.ts runs the same on both, so once is enough). Each project builds one
 * migrated template; files clone it.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { createRequire } from 'node:module';
import { testFilesReaching } from './test/helpers/database-tests.ts';

// graphql ships CJS and ESM builds; dependencies loaded by Node use the CJS one, so the
// tests must too, or two graphql realms meet ("Cannot use GraphQLSchema from another realm").
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: 'pglite', globalSetup: ['test/helpers/setup-pglite.ts'], include: ['test/**/*.test.ts'] } },
];
if (process.env.TEST_DATABASE_URL) {
  // The real-browser tests exercise the pages, not the database: they run once, on PGlite.
  const databaseTests = testFilesReaching(import.meta.dirname, 'test', 'test/helpers/db.ts');
  projects.push({
    extends: true,
    test: { name: 'postgres', globalSetup: ['test/helpers/setup-postgres.ts'], include: databaseTests, exclude: [...configDefaults.exclude, 'test/console/browser/**'] },
  });
}

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects,
  },
});
