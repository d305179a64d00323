/**
 * Numbered plain-SQL migrations (`migrations/NNNN_name.sql`), applied in order at start,
 * each in its own transaction and recorded in `schema_migrations`, so running them again
 * is a no-op. An advisory lock keeps two instances starting at once from racing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
// Any constant shared by all instances; names the lock in pg_locks.
const MIGRATION_LOCK_ID = 727_001;

interface Migration {
  version: number;
  name: string;
  file: string;
}

async function listMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  const migrations = files.map((file) => ({ version: Number(file.slice(0, 4)), name: file.slice(5, -4), file }));
  const versions = new Set(migrations.map((m) => m.version));
  if (versions.size !== migrations.length) throw new Error(`Two migrations share a number in ${dir}`);
  return migrations;
}

/** Applies every migration not yet recorded; returns the names it applied. */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const migration of await listMigrations(dir)) {
    const sql = await readFile(`${dir}/${migration.file}`, 'utf8');
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.rowCount > 0) return false;
      await tx.query(sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.file);
  }
  return applied;
}
