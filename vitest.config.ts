/**
 * The suite runs once on embedded PGlite and, when TEST_DATABASE_URL is set (CI), once
 * more on real PostgreSQL. Each project builds one migrated template; files clone it.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { createRequire } from 'node:module';

// graphql ships CJS and ESM builds; dependencies loaded by Node use the CJS one, so the
// tests must too, or two graphql realms meet ("Cannot use GraphQLSchema from another realm").
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: 'pglite', globalSetup: ['test/helpers/setup-pglite.ts'] } },
];
if (process.env.TEST_DATABASE_URL) {
  // The real-browser tests exercise the pages, not the database: they run once, on PGlite.
  projects.push({ extends: true, test: { name: 'postgres', globalSetup: ['test/helpers/setup-postgres.ts'], exclude: [...configDefaults.exclude, 'test/console/browser/**'] } });
}

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects,
  },
});
