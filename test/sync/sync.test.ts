import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { catalogueDigest } from '../ingest/snapshots.ts';
import { signatureValid, startReceiver, testDispatcher } from '../webhooks/receiver.ts';
import type { TestReceiver } from '../webhooks/receiver.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { Config } from '../../platform/config.ts';
import type { SyncResult } from '../../workers/sync/run.ts';
import { FakePublisher, buildZip } from './publisher.ts';
import type { Misbehaviour } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';
import { countRows } from '../../workers/ingest/row-outcome.ts';

const SL_PATH = '/sl/File.axd?file=XMLPublications.zip';
const HOUR = 3_600_000;

function slZip(xml: Buffer): Buffer {
  // The real archive also holds other publications; only Preparations.xml is read.
  return buildZip([{ name: 'Publications/ItCodes.xml', content: Buffer.from('<ItCodes/>') }, { name: 'Publications/Preparations.xml', content: xml }]);
}

describe('register sync worker', () => {
  let t: TestApp;
  let publisher: FakePublisher;
  let receiver: TestReceiver;
  let config: Config;
  const original = fixture('ch-sl/Preparations.xml');

  const syncSl = async () => {
    const r = runner(t.db, config);
    try {
      return (await r.runNow(['ch-sl']))[0] as SyncResult;
    } finally {
      await r.close();
    }
  };
  const changeCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes')).rows[0]!.n;

  beforeAll(async () => {
    publisher = await new FakePublisher().start();
    receiver = await startReceiver();
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    config = syncConfig(publisher, { 'ch-sl': SL_PATH });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await publisher.close();
  });

  it('lists a configured source as never_run before its first success', async () => {
    const r = runner(t.db, config);
    // Nothing published yet: the scheduled path finds the source due, and the 404 is recorded.
    expect(await r.runDue()).toMatchObject([{ source: 'ch-sl', outcome: 'http_error', httpStatus: 404 }]);
    expect(await r.runDue()).toEqual([]); // backing off: not due again yet
    await r.close();
    const sources = await listSources(t.db, new Date());
    expect(sources.find((s) => s.id === 'ch-sl')).toMatchObject({ schemaState: 'never_run', lastSyncedAt: null });
  });

  it('downloads, unpacks and ingests a new release: change records and a signed webhook delivery follow', async () => {
    const key = await t.key({ tier: 'starter' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${receiver.url}/sync` } });
    expect(res.statusCode).toBe(201);
    const secret = res.json().secret as string;
    publisher.publish(SL_PATH, slZip(original));
    const result = await syncSl();
    // Rows as the adapter reports them for the same file (the fixture has one malformed row).
    const parsed = await findAdapter('ch-sl')!.parse([{ name: 'Preparations.xml', content: original }]);
    const rows = countRows(parsed.files, parsed.problems, 0);
    expect(result).toMatchObject({ outcome: 'ok', httpStatus: 200, rows });
    expect(rows.malformed).toBe(1);
    expect(result).toHaveProperty('changes', await changeCount());
    expect(await changeCount()).toBeGreaterThan(0);
    expect(await state(t.db, 'ch-sl')).toMatchObject({ last_outcome: 'ok', last_http_status: 200, consecutive_failures: 0, last_error: null });
    expect(Number((await state(t.db, 'ch-sl')).last_bytes)).toBe(slZip(original).length);
    expect((await listSources(t.db, new Date())).find((s) => s.id === 'ch-sl')).toMatchObject({ schemaState: 'ok' });

    const dispatcher = testDispatcher(t.db, t.config);
    expect((await dispatcher.runOnce()).delivered).toBe(1);
    await dispatcher.close();
    const [delivery] = receiver.received;
    expect(signatureValid(secret, delivery!)).toBe(true);
    expect(delivery!.body.changes.length).toBe(await changeCount());
    expect(delivery!.body.changes.every((c) => (c as { source?: string }).source === 'ch-sl')).toBe(true);
  });

  it('asks conditionally next time: a 304 costs nothing, writes nothing and confirms freshness', async () => {
    const before = await catalogueDigest(t.db);
    const result = await syncSl();
    expect(result).toMatchObject({ outcome: 'not_modified', httpStatus: 304, bytes: 0 });
    const hit = publisher.hitsOf(SL_PATH).at(-1)!;
    expect(hit.headers['if-none-match']).toMatch(/^"[0-9a-f]{16}"$/);
    expect(hit.headers['if-modified-since']).toBeTruthy();
    expect(await catalogueDigest(t.db)).toBe(before);
    // A publisher that ignores conditional requests: the same bytes (by SHA-256) are not parsed again.
    publisher.misbehave.set(SL_PATH, { delayMs: 0 });
    const again = await syncSl();
    publisher.misbehave.delete(SL_PATH);
    expect(again).toMatchObject({ outcome: 'not_modified', httpStatus: 200, bytes: slZip(original).length, rows: null });
    expect(publisher.hitsOf(SL_PATH).at(-1)!.answered).toBe(200);
    expect(await catalogueDigest(t.db)).toBe(before);
    // A stale catalogue row is confirmed current by the 304: ok again without a write.
    await t.db.query(`UPDATE sources SET last_synced_at = now() - interval '400 days' WHERE id = 'ch-sl'`);
    await t.db.query(`UPDATE sync_state SET last_success_at = now() - interval '400 days' WHERE source = 'ch-sl'`);
    expect((await listSources(t.db, new Date())).find((s) => s.id === 'ch-sl')?.schemaState).toBe('stale');
    expect((await syncSl()).outcome).toBe('not_modified');
    expect((await listSources(t.db, new Date())).find((s) => s.id === 'ch-sl')?.schemaState).toBe('ok');
  });

  const broken: Array<[string, Misbehaviour | null, Buffer | null, string, number | null]> = [
    ['a 503 from the publisher', { status: 503 }, null, 'http_error', 503],
    ['a hang past the timeout', 'hang', null, 'timeout', null],
    ['a truncated archive', 'truncate', null, 'refused', 200],
    ['an oversize body without Content-Length', 'endless', null, 'too_large', 200],
    ['an oversize body with Content-Length', null, Buffer.alloc(300_000, 1), 'too_large', 200],
    ['a file of the wrong format', null, slZip(fixture('ch-sl/wrong-root.xml')), 'refused', 200],
    ['an archive without the expected file', null, buildZip([{ name: 'Other.xml', content: original }]), 'refused', 200],
    ['a file that is not a zip at all', null, original, 'refused', 200],
  ];

  it.each(broken)('leaves the catalogue exactly as it was on %s, records the outcome and backs off', async (_case, bad, body, outcome, status) => {
    const digest = await catalogueDigest(t.db);
    const before = await state(t.db, 'ch-sl');
    if (body) publisher.publish(SL_PATH, body);
    if (bad) publisher.misbehave.set(SL_PATH, bad);
    const result = await syncSl();
    publisher.misbehave.delete(SL_PATH);
    expect(result.outcome, result.error ?? '').toBe(outcome);
    expect(result.httpStatus).toBe(status);
    expect(await catalogueDigest(t.db)).toBe(digest);
    const after = await state(t.db, 'ch-sl');
    expect(after).toMatchObject({ last_outcome: outcome, last_http_status: status, consecutive_failures: before.consecutive_failures + 1 });
    expect(after.last_error).toBeTruthy();
    const delay = Math.min(24 * HOUR, 60_000 * 2 ** (after.consecutive_failures - 1));
    expect(after.backoff_ms).toBeGreaterThanOrEqual(delay);
    expect(after.backoff_ms).toBeLessThan(delay + 10_000);
  });

  it('ingests a corrected release after failures: only the changed pack is recorded, backoff resets', async () => {
    const changesBefore = await changeCount();
    publisher.publish(SL_PATH, slZip(Buffer.from(original.toString('utf8').replace('<Price>3.90</Price>', '<Price>4.10</Price>'))));
    const result = await syncSl();
    expect(result.outcome, result.error ?? '').toBe('ok');
    expect(result.changes).toBe(1);
    const { rows } = await t.db.query<{ table_name: string; change_type: string }>('SELECT table_name, change_type FROM changes ORDER BY occurred_at DESC, id DESC LIMIT 1');
    expect(rows[0]).toEqual({ table_name: 'packs', change_type: 'update' });
    expect(await changeCount()).toBe(changesBefore + 1);
    expect(await state(t.db, 'ch-sl')).toMatchObject({ last_outcome: 'ok', consecutive_failures: 0 });
    expect((await state(t.db, 'ch-sl')).backoff_ms).toBeGreaterThanOrEqual(24 * HOUR);
    const { rows: attempts } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM sync_attempts WHERE source = 'ch-sl' ORDER BY started_at`);
    expect(attempts.map((a) => a.outcome)).toEqual(['http_error', 'ok', 'not_modified', 'not_modified', 'not_modified', ...broken.map((b) => b[3]), 'ok']);
  });

  it('refuses loopback and private publishers unless allowed, before any request', async () => {
    const hits = publisher.hits.length;
    const strictConfig = syncConfig(publisher, { 'ch-sl': SL_PATH }, { allowPrivateTargets: false });
    const r = runner(t.db, strictConfig);
    const [result] = await r.runNow(['ch-sl']);
    await r.close();
    expect(result).toMatchObject({ outcome: 'network_error' });
    expect(publisher.hits.length).toBe(hits);
  });

  it('reports the state per source on /metrics', async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/drugref_sync_last_success_timestamp_seconds\{source="ch-sl"\} \d+/);
    expect(res.body).toMatch(/drugref_sync_failures_total\{source="ch-sl"\} 10/);
    expect(res.body).toMatch(/drugref_sync_rows\{source="ch-sl",kind="kept"\} \d+/);
    expect(res.body).toContain('drugref_sync_last_outcome{source="ch-sl",outcome="network_error"} 1');
  });
});
