import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { buildDemoSnapshots, buildDemoUpdateSnapshots } from '../../data/demo/build.ts';
import { ensureDemoCatalogue, loadDemoCatalogue, updateDemoCatalogue } from '../../cli/demo-catalogue.ts';
import { canonicalJson } from '../../workers/ingest/canonical.ts';
import { packImage } from '../../workers/ingest/images.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import type { Snapshot } from '../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { chSnapshot } from './snapshots.ts';

/** Product and pack keys of a demo state, by source, computed without the engine. */
function keysOf(snapshots: Snapshot[]) {
  const products = new Map<string, Snapshot['products']>();
  for (const s of snapshots) products.set(s.source.id, s.products ?? []);
  const productKeys = new Set(snapshots.flatMap((s) => (s.products ?? []).map((p) => `${s.source.id}|${p.key}`)));
  const packs = new Map(snapshots.flatMap((s) => (s.products ?? []).flatMap((p) => p.packs.map((k) => [`${s.source.id}|${k.key}`, canonicalJson(packImage(k, p.key).image)] as const))));
  const withdrawn = new Set(snapshots.flatMap((s) => (s.products ?? []).filter((p) => p.marketing_status === 'withdrawn').map((p) => `${s.source.id}|${p.key}`)));
  return { productKeys, packs, withdrawn, recalls: snapshots.reduce((n, s) => n + (s.recalls?.length ?? 0), 0) };
}

const minus = <T>(a: Set<T>, b: Set<T>): T[] => [...a].filter((x) => !b.has(x));

async function count(db: Database, sql: string, params: unknown[] = []): Promise<number> {
  return (await db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

describe('demo catalogue through the ingest engine', () => {
  let db: Database;
  const first = keysOf(buildDemoSnapshots());
  const second = keysOf(buildDemoUpdateSnapshots());

  beforeAll(async () => {
    db = await openTestDatabase({ demo: true });
  });
  afterAll(() => db.close());

  it('is in the demo test template with one insert change per record', async () => {
    expect(await count(db, 'SELECT count(*)::int AS n FROM sources WHERE demo AND last_synced_at IS NOT NULL')).toBe(17);
    expect(await count(db, 'SELECT count(*)::int AS n FROM products')).toBe(first.productKeys.size);
    expect(await count(db, 'SELECT count(*)::int AS n FROM packs')).toBe(first.packs.size);
    expect(await count(db, `SELECT count(*)::int AS n FROM changes WHERE change_type <> 'insert'`)).toBe(0);
    expect(await count(db, `SELECT count(*)::int AS n FROM changes WHERE table_name = 'products'`)).toBe(first.productKeys.size);
    expect(await count(db, 'SELECT count(*)::int AS n FROM products WHERE substance_signature IS NULL')).toBe(0);
  });

  it('loads idempotently and is not loaded again at start', async () => {
    const before = await count(db, 'SELECT count(*)::int AS n FROM changes');
    expect((await loadDemoCatalogue(db)).changes).toBe(0);
    expect((await ensureDemoCatalogue(db)).state).toBe('present');
    expect(await count(db, 'SELECT count(*)::int AS n FROM changes')).toBe(before);
  });

  it('demo update yields the expected inserts, updates, deletes and recalls, after every earlier change', async () => {
    const newest = (await db.query<{ t: string }>('SELECT max(occurred_at)::text AS t FROM changes')).rows[0]!.t;
    const report = await updateDemoCatalogue(db);
    const addedPacks = minus(new Set(second.packs.keys()), new Set(first.packs.keys()));
    const removedPacks = minus(new Set(first.packs.keys()), new Set(second.packs.keys()));
    const repriced = [...second.packs].filter(([key, image]) => first.packs.has(key) && first.packs.get(key) !== image);
    expect(report.tables.products.insert).toBe(minus(second.productKeys, first.productKeys).length);
    expect(report.tables.products.delete).toBe(minus(first.productKeys, second.productKeys).length);
    expect(report.tables.products.update).toBe(minus(second.withdrawn, first.withdrawn).length);
    expect(report.tables.packs).toMatchObject({ insert: addedPacks.length, delete: removedPacks.length, update: repriced.length });
    expect(report.tables.recalls.recall).toBe(second.recalls);
    expect(report.tables.products.insert * report.tables.products.delete * report.tables.packs.update * second.recalls).toBeGreaterThan(0);
    const { rows } = await db.query<{ change_type: string; n: number }>(
      'SELECT change_type, count(*)::int AS n FROM changes WHERE occurred_at > $1 GROUP BY change_type ORDER BY change_type', [newest]);
    const t = report.tables;
    expect(Object.fromEntries(rows.map((r) => [r.change_type, r.n]))).toEqual({
      insert: t.products.insert + t.packs.insert, update: t.products.update + t.packs.update,
      delete: t.products.delete + t.packs.delete, recall: second.recalls,
    });
    const updates = await db.query<{ before: unknown; after: unknown }>(`SELECT before, after FROM changes WHERE occurred_at > $1 AND change_type = 'update'`, [newest]);
    expect(updates.rows.every((r) => r.before !== null && r.after !== null)).toBe(true);
    expect((await updateDemoCatalogue(db)).changes).toBe(0);
  });

  it('is not loaded into a catalogue that already holds registers', async () => {
    const other = await openTestDatabase();
    try {
      await ingestSnapshot(other, chSnapshot());
      const result = await ensureDemoCatalogue(other);
      expect(result.state).toBe('skipped');
      expect(await count(other, 'SELECT count(*)::int AS n FROM sources WHERE demo')).toBe(0);
    } finally {
      await other.close();
    }
  });
});
