import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';
import { insertChanges, seedSource } from './fixtures.ts';

interface Page {
  changes: Array<Record<string, unknown> & { id: string; occurred_at: string }>;
  next_cursor: string;
  has_more: boolean;
  _meta: { sources: Array<Record<string, unknown>>; notice: string | null };
}

describe('GET /v1/changes', () => {
  let t: TestApp;
  let key: string;

  async function page(query: string): Promise<Page> {
    const res = await t.app.inject({ url: `/v1/changes${query}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  }

  /** Follows next_cursor from `first` until a page says has_more: false. */
  async function drain(first: string, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let body = await page(first);
    ids.push(...body.changes.map((c) => c.id));
    while (body.has_more) {
      body = await page(`?limit=${limit}&cursor=${encodeURIComponent(body.next_cursor)}`);
      ids.push(...body.changes.map((c) => c.id));
    }
    return ids;
  }

  beforeAll(async () => {
    t = await startTestApp();
    await seedSource(t.db, 'ch-sl');
    await seedSource(t.db, 'fr-bdpm', { demo: true });
    key = await t.key({ tier: 'developer', account: 'feed-reader' });
  });
  afterAll(() => t.close());

  it('answers the first page (default 100) with records, next_cursor, has_more and _meta.sources', async () => {
    const inserted = await insertChanges(t.db, 150);
    const res = await t.app.inject({ url: '/v1/changes', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-tier']).toBe('developer');
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
    const body = res.json() as Page;
    expect(body.changes).toHaveLength(100);
    expect(body.has_more).toBe(true);
    expect(body.changes.map((c) => c.id)).toEqual(inserted.slice(0, 100).map((c) => c.id));
    const insert = body.changes.find((c) => c.change_type === 'insert')!;
    const n = Number((insert.natural_key as { gtin: string }).gtin);
    expect(insert).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      table_name: 'packs',
      natural_key: { gtin: String(n).padStart(13, '0'), tag: null },
      drug_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      change_type: 'insert',
      before: null,
      after: { price: n + 1 },
      source: 'ch-sl',
      occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(body.changes[0]!.occurred_at).toBe(inserted[0]!.occurred_at);
    const update = body.changes.find((c) => c.change_type === 'update')!;
    const { price } = update.before as { price: number };
    expect(update.after).toEqual({ price: price + 1 });
    expect(body.changes.find((c) => c.change_type === 'delete')).toMatchObject({ before: { price: expect.any(Number) }, after: null });
    expect(body._meta).toEqual({
      sources: [{ id: 'ch-sl', name: 'Register ch-sl', country: 'CH', last_synced_at: expect.any(String), schema_state: 'ok', demo: false }],
      notice: null,
    });
    expect(typeof body.next_cursor).toBe('string');
  });

  it('returns every change exactly once, in order, across cursor pages', async () => {
    const reader = await t.key({ account: 'pager' });
    key = reader;
    const all = await drain('?limit=7', 7);
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM changes ORDER BY occurred_at, id');
    expect(all).toEqual(rows.map((r) => r.id));
    expect(new Set(all).size).toBe(all.length);
  });

  it('starts at since, inclusive, and names the demo source in _meta with its notice', async () => {
    const later = await insertChanges(t.db, 5, { source: 'fr-bdpm', types: ['recall'] });
    const body = await page(`?since=${encodeURIComponent(later[0]!.occurred_at)}&limit=1000`);
    const ids = body.changes.map((c) => c.id);
    expect(ids.slice(0, 5)).toEqual(later.map((c) => c.id));
    expect(body.changes[0]).toMatchObject({ change_type: 'recall', source: 'fr-bdpm' });
    expect(body._meta.sources.map((s) => s.id)).toEqual(['fr-bdpm']);
    expect(body._meta.notice).toBe('Demonstration data, not for clinical use.');
    const dateOnly = await page('?since=2999-01-01');
    expect(dateOnly.changes).toEqual([]);
    expect(dateOnly._meta.sources).toEqual([]);
  });

  it('hands back a cursor on an empty tail page that picks up changes written later', async () => {
    const tail = await page(`?limit=1000&since=${encodeURIComponent(new Date().toISOString())}`);
    expect(tail.changes).toEqual([]);
    expect(tail.has_more).toBe(false);
    const fresh = await insertChanges(t.db, 3);
    const next = await page(`?cursor=${encodeURIComponent(tail.next_cursor)}`);
    expect(next.changes.map((c) => c.id)).toEqual(fresh.map((c) => c.id));
  });

  it('returns every change exactly once while new changes are being written', async () => {
    const before = await t.db.query<{ id: string }>('SELECT id FROM changes');
    let writing = true;
    const written: string[] = [];
    const writer = (async () => {
      for (let i = 0; writing && i < 200; i++) written.push(...(await insertChanges(t.db, 3, { tag: `w${i}` })).map((c) => c.id));
    })();
    const seen: string[] = [];
    let body = await page('?limit=5');
    for (let i = 0; i < 40; i++) {
      seen.push(...body.changes.map((c) => c.id));
      body = await page(`?limit=5&cursor=${encodeURIComponent(body.next_cursor)}`);
    }
    writing = false;
    await writer;
    seen.push(...body.changes.map((c) => c.id));
    while (body.has_more || body.changes.length) {
      body = await page(`?limit=50&cursor=${encodeURIComponent(body.next_cursor)}`);
      seen.push(...body.changes.map((c) => c.id));
    }
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set([...before.rows.map((r) => r.id), ...written]));
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM changes ORDER BY occurred_at, id');
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it.skipIf(testBackend() === 'pglite')('never steps past a change whose transaction is still open (PostgreSQL)', async () => {
    // PGlite has one connection, so no second transaction can be open during a read.
    const base = await page(`?limit=1000&since=${encodeURIComponent(new Date().toISOString())}`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let slowId = '';
    const slow = t.db.transaction(async (tx) => {
      slowId = (await insertChanges(tx, 1, { tag: 'slow' }))[0]!.id;
      await held;
    });
    while (!slowId) await new Promise((r) => setTimeout(r, 5));
    const fast = await insertChanges(t.db, 1, { tag: 'fast' });
    const during = await page(`?cursor=${encodeURIComponent(base.next_cursor)}`);
    expect(during.changes.map((c) => c.id)).toEqual([]);
    release();
    await slow;
    const after = await page(`?cursor=${encodeURIComponent(during.next_cursor)}`);
    expect(after.changes.map((c) => c.id)).toEqual([slowId, fast[0]!.id]);
  });

  it('reads the fallback root key (no WEBHOOK_SECRET_KEY) once, not on every page', async () => {
    const reader = await t.key({ tier: 'enterprise', account: 'feed-trips' });
    const trips = async (query: string) => {
      const before = t.db.roundTrips;
      const res = await t.app.inject({ url: `/v1/changes${query}`, headers: bearer(reader) });
      expect(res.statusCode, res.body).toBe(200);
      return { n: t.db.roundTrips - before, body: res.json() as Page };
    };
    await trips('?limit=5');
    const first = await trips('?limit=5');
    const next = await trips(`?limit=5&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    // The quota count and the page's statements; the key comes from the process.
    expect([first.n, next.n]).toEqual([3, 3]);
  });

  it('answers 422 for a tampered, malformed or foreign cursor', async () => {
    const first = await page('?limit=2');
    const [version, payload, mac] = first.next_cursor.split('.') as [string, string, string];
    const decoded = Buffer.from(payload, 'base64url').toString();
    const edited = Buffer.from(decoded.replace(/\d(?=\d{3}Z)/, (d) => String((Number(d) + 1) % 10))).toString('base64url');
    for (const cursor of [`${version}.${edited}.${mac}`, 'not-a-cursor', `${version}.${payload}.${'A'.repeat(mac.length)}`, `${first.next_cursor}x`]) {
      const res = await t.app.inject({ url: `/v1/changes?cursor=${encodeURIComponent(cursor)}`, headers: bearer(key) });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'cursor' }] });
      expect(res.json().message).toMatch(/cursor is malformed or was altered/);
    }
  });

  it('answers 422 for a bad limit, since, both since and cursor, or an unknown parameter', async () => {
    const first = await page('?limit=1');
    const cases: Array<[string, RegExp]> = [
      ['?limit=0', /limit/],
      ['?limit=1001', /limit/],
      ['?limit=ten', /limit/],
      ['?since=yesterday', /since must be an ISO 8601/],
      ['?since=2026-01-01T10:00:00', /since must be an ISO 8601/],
      ['?since=2026-02-30T10:00:00Z', /since is not a valid timestamp/],
      [`?since=2026-01-01&cursor=${encodeURIComponent(first.next_cursor)}`, /either since or cursor/],
      ['?offset=5', /offset is not a known parameter/],
    ];
    for (const [query, message] of cases) {
      const res = await t.app.inject({ url: `/v1/changes${query}`, headers: bearer(key) });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('validation');
      expect(res.json().message, query).toMatch(message);
    }
  });

  it('answers 401 without a key and 403 without changes:read', async () => {
    const none = await t.app.inject({ url: '/v1/changes' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    const narrow = await t.key({ account: 'narrow', scopes: ['drugs:read'] });
    const res = await t.app.inject({ url: '/v1/changes', headers: bearer(narrow) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'changes:read', tier: 'enterprise' });
  });

  it('serves the same feed through the public GraphQL root field changes', async () => {
    key = await t.key({ account: 'graphql-reader' });
    await insertChanges(t.db, 5);
    const rest = await page('?limit=3');
    const res = await t.app.inject({
      method: 'POST', url: '/v1/graphql', headers: bearer(key),
      payload: { query: '{ changes(limit: 3) { changes { id changeType occurredAt } nextCursor hasMore meta { sources { id } } } }' },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data.changes;
    expect(data.changes.map((c: { id: string }) => c.id)).toEqual(rest.changes.map((c) => c.id));
    expect(data.hasMore).toBe(true);
    const next = await page(`?limit=3&cursor=${encodeURIComponent(data.nextCursor)}`);
    expect(next.changes[0]!.occurred_at >= rest.changes[2]!.occurred_at).toBe(true);
    expect(next.changes.map((c) => c.id)).not.toContain(rest.changes[2]!.id);
  });

  it('reads a deep page through the (occurred_at, id) index, like the first page', async () => {
    await t.db.query(`INSERT INTO changes (source, table_name, natural_key, change_type, after, occurred_at)
      SELECT 'ch-sl', 'packs', jsonb_build_object('n', n), 'insert', '{}'::jsonb, timestamptz '2020-01-01' + n * interval '1 second'
        FROM generate_series(1, 20000) AS n`);
    await t.db.query('ANALYZE changes');
    const plan = async (after: string) => {
      const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM changes WHERE (occurred_at, id) > ($1::timestamptz, $2::uuid) AND occurred_at < now()
          ORDER BY occurred_at, id LIMIT 101`, [after, '00000000-0000-0000-0000-000000000000']);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    for (const after of ['-infinity', '2020-01-01T05:00:00Z']) {
      const text = await plan(after);
      expect(text).toMatch(/Index (Only )?Scan using changes_keyset/);
      expect(text).toMatch(/Index Cond: \(+ROW\(occurred_at, id\) > ROW\(/);
      expect(text).not.toMatch(/Sort|Seq Scan/);
    }
  });
});
