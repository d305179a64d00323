/**
 * A fresh database for one test file, on the backend of the running vitest project:
 * PGlite loaded from the migrated template dump, or a PostgreSQL database created from
 * the template database (dropped again on close).
 */
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase } from '../../platform/db.ts';
import type { Database } from '../../platform/db.ts';
import { databaseUrl, runDatabasePrefix } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { backend: 'pglite' | 'postgres'; template: string; demoTemplate: string; runId?: string };
  }
}

export function testBackend(): 'pglite' | 'postgres' {
  return inject('testDatabase').backend;
}

/** A fresh migrated database; with `demo: true` it also holds the demo catalogue. */
export async function openTestDatabase(options: { demo?: boolean } = {}): Promise<Database & { url?: string }> {
  const provided = inject('testDatabase');
  const { backend } = provided;
  const template = options.demo ? provided.demoTemplate : provided.template;
  if (backend === 'pglite') {
    return openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([await readFile(template)]) });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `${runDatabasePrefix(provided.runId ?? 'local')}${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ url: url, max: 1 });
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const db = await openDatabase({ url: databaseUrl(url, name), max: 20 });
  const close = db.close.bind(db);
  return Object.assign(db, {
    /** Its connection string, for tests that start other processes on it. */
    url: databaseUrl(url, name),
    close: async () => {
      await close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  });
}
