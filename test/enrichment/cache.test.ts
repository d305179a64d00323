import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { cacheSummary, pruneCache, readCache, writeCache } from '../../platform/upstream/cache.ts';
import { openTestDatabase } from '../helpers/db.ts';

describe('upstream cache table', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('replaces a key on write and keeps JSON bodies and 404 answers', async () => {
    await writeCache(db, 'rxnav', 'GET /a', { status: 200, body: { v: 1 }, fetchedAt: new Date('2026-01-01T00:00:00Z') });
    await writeCache(db, 'rxnav', 'GET /a', { status: 404, body: null, fetchedAt: new Date('2026-01-02T00:00:00Z') });
    expect(await readCache(db, 'rxnav', 'GET /a')).toEqual({ status: 404, body: null, fetchedAt: new Date('2026-01-02T00:00:00Z') });
    expect(await readCache(db, 'chembl', 'GET /a')).toBeNull();
  });

  it('summarises per source and prunes by age, optionally for one source', async () => {
    await writeCache(db, 'chembl', 'GET /old', { status: 200, body: [1], fetchedAt: new Date('2025-01-01T00:00:00Z') });
    await writeCache(db, 'chembl', 'GET /new', { status: 200, body: [2], fetchedAt: new Date('2026-06-01T00:00:00Z') });
    await writeCache(db, 'uniprot', 'GET /old', { status: 200, body: [3], fetchedAt: new Date('2025-01-01T00:00:00Z') });
    expect((await cacheSummary(db)).map((r) => [r.source, r.rows])).toEqual([['chembl', 2], ['rxnav', 1], ['uniprot', 1]]);
    expect(await pruneCache(db, new Date('2026-01-01T00:00:00Z'), 'chembl')).toBe(1);
    expect(await readCache(db, 'uniprot', 'GET /old')).not.toBeNull();
    expect(await pruneCache(db, new Date('2026-01-01T00:00:00Z'))).toBe(1);
    expect((await cacheSummary(db)).map((r) => [r.source, r.rows])).toEqual([['chembl', 1], ['rxnav', 1]]);
  });
});
