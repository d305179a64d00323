import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { migrate } from '../../platform/migrate.ts';
import { openTestDatabase } from '../helpers/db.ts';

describe('the database module', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('has applied every migration once, recorded in schema_migrations, and re-running applies none', async () => {
    const recorded = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(recorded.rows.map((r) => r.version)).toContain(1);
    expect(await migrate(db)).toEqual([]);
    const again = await db.query('SELECT version FROM schema_migrations');
    expect(again.rowCount).toBe(recorded.rowCount);
  });

  it('has pg_trgm enabled', async () => {
    const { rows } = await db.query<{ s: number }>("SELECT similarity('paracetamol', 'paracetamoll') AS s");
    expect(rows[0]!.s).toBeGreaterThan(0.5);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(db.transaction(async (tx) => {
      await tx.query("INSERT INTO accounts (name, tier) VALUES ('rollback-me', 'pro')");
      await tx.query("INSERT INTO accounts (name, tier) VALUES ('bad-tier', 'platinum')");
    })).rejects.toThrow();
    const { rowCount } = await db.query("SELECT 1 FROM accounts WHERE name = 'rollback-me'");
    expect(rowCount).toBe(0);
  });

  it('commits a transaction and counts round trips', async () => {
    const before = db.roundTrips;
    await db.transaction((tx) => tx.query("INSERT INTO accounts (name, tier) VALUES ('kept', 'pro')"));
    expect(db.roundTrips - before).toBe(3);
    expect((await db.query("SELECT 1 FROM accounts WHERE name = 'kept'")).rowCount).toBe(1);
  });
});
