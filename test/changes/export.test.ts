import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_EXPORT_BATCH } from '../../resolvers/changes/export.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';
import type { TestApp } from '../helpers/app.ts';
import { baseUrl, readNdjson } from '../helpers/ndjson.ts';
import { insertChanges, seedSource } from './fixtures.ts';

interface End { _end: { cursor: string; count: number; horizon: string } }

describe('GET /v1/changes/export', () => {
  let t: TestApp;
  let base: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    base = await baseUrl(t.app);
    await seedSource(t.db, 'ch-sl');
    key = await t.key({ tier: 'enterprise', account: 'exporter' });
  });
  afterAll(() => t.close());

  it('streams every change as NDJSON in the /v1/changes record shape, ends with a cursor that resumes after the last record', async () => {
    const inserted = await insertChanges(t.db, 250, { tag: 'first' });
    const res = await readNdjson(`${base}/v1/changes/export`, bearer(key), { keep: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('x-service-tier')).toBe('enterprise');
    const records = res.lines.slice(0, -1);
    expect(records.map((r) => r.id)).toEqual(inserted.map((c) => c.id));
    // The same records, field for field, as the paged feed answers them.
    const page = (await t.app.inject({ url: '/v1/changes?limit=250', headers: bearer(key) })).json() as { changes: unknown[] };
    expect(records).toEqual(page.changes);
    const end = res.last as unknown as End;
    expect(end._end).toEqual({ cursor: expect.any(String), count: 250, horizon: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/) });

    // Nothing new: a resumed export holds only its closing line.
    const again = await readNdjson(`${base}/v1/changes/export?cursor=${encodeURIComponent(end._end.cursor)}`, bearer(key), { keep: true });
    expect(again.lines).toEqual([{ _end: { cursor: expect.any(String), count: 0, horizon: expect.any(String) } }]);

    // New changes: exactly those, and the paged feed accepts the export's cursor too.
    const newer = await insertChanges(t.db, 3, { tag: 'second' });
    const resumed = await readNdjson(`${base}/v1/changes/export?cursor=${encodeURIComponent(end._end.cursor)}`, bearer(key), { keep: true });
    expect(resumed.lines.slice(0, -1).map((r) => r.id)).toEqual(newer.map((c) => c.id));
    expect((resumed.last as unknown as End)._end.count).toBe(3);
    const paged = (await t.app.inject({ url: `/v1/changes?cursor=${encodeURIComponent(end._end.cursor)}`, headers: bearer(key) })).json() as { changes: Array<{ id: string }> };
    expect(paged.changes.map((c) => c.id)).toEqual(newer.map((c) => c.id));
  });

  it('starts at since (inclusive) and takes a /v1/changes next_cursor', async () => {
    const batch = await insertChanges(t.db, 5, { tag: 'since' });
    const fromSince = await readNdjson(`${base}/v1/changes/export?since=${encodeURIComponent(batch[2]!.occurred_at)}`, bearer(key), { keep: true });
    expect(fromSince.lines.slice(0, -1).map((r) => r.id)).toEqual(batch.slice(2).map((c) => c.id));
    const page = (await t.app.inject({ url: `/v1/changes?since=${encodeURIComponent(batch[0]!.occurred_at)}&limit=1`, headers: bearer(key) })).json() as { next_cursor: string };
    const fromCursor = await readNdjson(`${base}/v1/changes/export?cursor=${encodeURIComponent(page.next_cursor)}`, bearer(key), { keep: true });
    expect(fromCursor.lines.slice(0, -1).map((r) => r.id)).toEqual(batch.slice(1).map((c) => c.id));
  });

  it('counts one export as one request', async () => {
    const dev = await t.key({ tier: 'developer', account: 'export-quota' });
    const first = await readNdjson(`${base}/v1/changes/export`, bearer(dev));
    const second = await readNdjson(`${base}/v1/changes/export`, bearer(dev));
    expect(first.count).toBeGreaterThan(100);
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    expect(Number.isInteger(left)).toBe(true);
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
    const page = await t.app.inject({ url: '/v1/changes?limit=1', headers: bearer(dev) });
    expect(page.headers['x-ratelimit-remaining']).toBe(String(left - 2));
  });

  it('streams 20,000 changes in FETCH batches with a bounded heap', async () => {
    await insertChanges(t.db, 20_000, { tag: 'bulk' });
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes');
    const total = rows[0]!.n;
    const before = t.db.roundTrips;
    global.gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let n = 0;
    const res = await readNdjson(`${base}/v1/changes/export`, bearer(key), {
      onLine: () => {
        if (++n % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      },
    });
    expect(res.status).toBe(200);
    expect((res.last as unknown as End)._end.count).toBe(total);
    expect(res.count).toBe(total + 1);
    const trips = t.db.roundTrips - before;
    // One FETCH per batch (plus a handful of statements to open and close the cursor): the
    // rows never come back in one piece.
    const fetches = Math.ceil(total / CHANGES_EXPORT_BATCH);
    expect(trips).toBeGreaterThanOrEqual(fetches);
    expect(trips).toBeLessThanOrEqual(fetches + 12);
    // The whole export is ~6 MB of text; far less than that stays live at once on either side.
    expect(peak - baseline).toBeLessThan(96 * 1024 * 1024);
  }, 120_000);

  it('closes the database cursor when the client goes away part way', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/changes/export`, { headers: bearer(key), signal: controller.signal });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    expect(value!.length).toBeGreaterThan(0);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // PGlite has one connection: were the export's transaction left open, these would hang.
    await expect.poll(async () => (await t.db.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n, { timeout: 5000 }).toBe(1);
    const next = await readNdjson(`${base}/v1/changes/export`, bearer(key));
    expect(next.status).toBe(200);
    expect(next.last).toHaveProperty('_end');
  }, 60_000);

  it.skipIf(testBackend() === 'pglite')('does not hold the feed\'s horizon back while an export is open (PostgreSQL)', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/v1/changes/export`, { headers: bearer(key), signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    // The export's read-only transaction is open (the client is not reading: backpressure).
    const { rows } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'drugref-stream' AND xact_start IS NOT NULL`);
    expect(rows[0]!.n).toBe(1);
    const during = await insertChanges(t.db, 2, { tag: 'during' });
    const page = (await t.app.inject({ url: `/v1/changes?since=${encodeURIComponent(during[0]!.occurred_at)}`, headers: bearer(key) })).json() as { changes: Array<{ id: string }> };
    expect(page.changes.map((c) => c.id)).toEqual(during.map((c) => c.id));
    controller.abort();
    await reader.cancel().catch(() => undefined);
  }, 60_000);

  it('answers 401, 403 and 422 as JSON errors before any line', async () => {
    const noKey = await readNdjson(`${base}/v1/changes/export`, {});
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(noKey.text)).toMatchObject({ error: 'unauthorized' });

    const drugsOnly = await t.key({ scopes: ['drugs:read'] });
    const forbidden = await readNdjson(`${base}/v1/changes/export`, bearer(drugsOnly));
    expect(forbidden.status).toBe(403);
    expect(JSON.parse(forbidden.text)).toMatchObject({ error: 'forbidden', missing_scope: 'changes:read' });

    for (const query of ['cursor=c1.AAAA.BBBB', 'since=yesterday', 'since=2026-01-01&cursor=x', 'limit=5']) {
      const bad = await readNdjson(`${base}/v1/changes/export?${query}`, bearer(key));
      expect(bad.status, query).toBe(422);
      expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(bad.text), query).toMatchObject({ error: 'validation' });
    }
  });

  it('stays off the MCP tool list and appears in the OpenAPI document as NDJSON', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> };
    expect(Object.keys(doc.paths['/v1/changes/export']!.get.responses['200']!.content)).toEqual(['application/x-ndjson']);
    expect(Object.keys(doc.paths['/v1/catalogue/export']!.get.responses['200']!.content)).toEqual(['application/x-ndjson']);
    const list = await t.app.inject({
      method: 'POST', url: '/v1/mcp', headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const names = (list.json() as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);
    expect(names).toContain('list_changes');
    expect(names.some((name) => name.includes('export'))).toBe(false);
  });
});
