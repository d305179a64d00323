import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openTestDatabase } from '../helpers/db.ts';
import type { Database } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import { claimSource, finishAttempt, registerSources } from '../../workers/sync/state.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { startSyncWorker } from '../../workers/sync/worker.ts';
import { FakePublisher, buildZip } from './publisher.ts';
import { fixture, runner, syncConfig } from './helpers.ts';

const SL_PATH = '/sl/XMLPublications.zip';

describe('register sync leases', () => {
  let db: Database;
  let publisher: FakePublisher;
  let config: Config;
  const zip = buildZip([{ name: 'Preparations.xml', content: fixture('ch-sl/Preparations.xml') }]);

  beforeAll(async () => {
    db = await openTestDatabase();
    publisher = await new FakePublisher().start();
    publisher.publish(SL_PATH, zip);
    config = syncConfig(publisher, { 'ch-sl': SL_PATH });
  });
  afterEach(async () => {
    publisher.misbehave.clear();
    // Each case starts from a source that is due, unleased and has no validators.
    await db.query(`UPDATE sync_state SET next_attempt_at = now(), lease_owner = NULL, lease_until = NULL, validators = '{}'`);
  });
  afterAll(async () => {
    await publisher.close();
    await db.close();
  });

  it('two workers racing on a due source download it once', async () => {
    publisher.misbehave.set(SL_PATH, { delayMs: 300 });
    const before = publisher.hitsOf(SL_PATH).length;
    const [a, b] = [runner(db, config, { owner: 'worker-a' }), runner(db, config, { owner: 'worker-b' })];
    const [ra, rb] = await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.close(), b.close()]);
    expect([...ra, ...rb].map((r) => r.outcome)).toEqual(['ok']);
    expect(publisher.hitsOf(SL_PATH).length - before).toBe(1);
    const { rows } = await db.query<{ worker: string }>(`SELECT worker FROM sync_attempts WHERE source = 'ch-sl'`);
    expect(rows).toHaveLength(1);
  });

  it('a manual run while another worker holds the lease reports busy and downloads nothing', async () => {
    publisher.misbehave.set(SL_PATH, { delayMs: 400 });
    const before = publisher.hitsOf(SL_PATH).length;
    const [a, b] = [runner(db, config, { owner: 'worker-a' }), runner(db, config, { owner: 'worker-b' })];
    const first = a.runNow(['ch-sl']);
    // Let the first runner claim before the second asks.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [second] = await b.runNow(['ch-sl']);
    const [done] = await first;
    await Promise.all([a.close(), b.close()]);
    expect(second).toMatchObject({ outcome: 'busy' });
    expect(done).toMatchObject({ outcome: 'ok' });
    expect(publisher.hitsOf(SL_PATH).length - before).toBe(1);
  });

  it('a live worker renews its lease past the lease period; a crashed worker\'s lease lapses', async () => {
    // Live: a 300 ms lease, a 900 ms download; the heartbeat keeps the source claimed throughout.
    publisher.misbehave.set(SL_PATH, { delayMs: 900 });
    const [a, b] = [runner(db, config, { owner: 'live', leaseMs: 300 }), runner(db, config, { owner: 'other', leaseMs: 300 })];
    const running = a.runNow(['ch-sl']);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await b.runNow(['ch-sl']))[0]).toMatchObject({ outcome: 'busy' });
    expect((await running)[0]).toMatchObject({ outcome: 'ok' });
    publisher.misbehave.clear();

    // Crashed: a claim that is never finished nor renewed.
    await db.query(`UPDATE sync_state SET validators = '{}'`);
    const crashed = await claimSource(db, { owner: 'crashed', leaseMs: 300, only: ['ch-sl'], force: true, skip: [] });
    expect(crashed).not.toBeNull();
    expect((await b.runNow(['ch-sl']))[0]).toMatchObject({ outcome: 'busy' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await b.runNow(['ch-sl']))[0]).toMatchObject({ outcome: 'ok' });
    await Promise.all([a.close(), b.close()]);
    // The crashed worker coming back finds its lease gone: its attempt is logged, the state is not touched.
    const held = await finishAttempt(db, crashed!, {
      startedAt: new Date(), outcome: 'failed', error: 'late', httpStatus: null, bytes: 0, rows: null, changes: null,
      durationMs: 1, catalogueSource: null, validators: null, intervalMs: 3_600_000, retryBaseMs: 1000,
    });
    expect(held).toBe(false);
    const { rows } = await db.query<{ last_outcome: string }>(`SELECT last_outcome FROM sync_state WHERE source = 'ch-sl'`);
    expect(rows[0]!.last_outcome).toBe('ok');
    const late = await db.query(`SELECT 1 FROM sync_attempts WHERE worker = 'crashed' AND error = 'late'`);
    expect(late.rows).toHaveLength(1);
  });

  it('a stopping worker abandons the download in flight instead of waiting for its deadline', async () => {
    publisher.misbehave.set(SL_PATH, 'hang');
    const slow = syncConfig(publisher, { 'ch-sl': SL_PATH }, { timeoutMs: 60_000 });
    const worker = startSyncWorker({ config: slow, db, now: () => new Date(), log: pino({ level: 'silent' }) });
    for (let i = 0; i < 50 && publisher.hitsOf(SL_PATH).at(-1)?.answered !== 'hang'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await worker.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    const { rows } = await db.query<{ last_outcome: string; last_error: string }>(`SELECT last_outcome, last_error FROM sync_state WHERE source = 'ch-sl'`);
    expect(rows[0]).toEqual({ last_outcome: 'network_error', last_error: 'download abandoned: the worker is stopping' });
  });

  it('registering marks sources that left the config disabled, so they are neither claimed nor listed', async () => {
    await registerSources(db, [{ def: findSyncSource('fr-bdpm')!, intervalHours: 24 }]);
    const { rows } = await db.query<{ source: string; enabled: boolean }>('SELECT source, enabled FROM sync_state ORDER BY source');
    expect(rows).toEqual([{ source: 'ch-sl', enabled: false }, { source: 'fr-bdpm', enabled: true }]);
    expect(await claimSource(db, { owner: 'x', leaseMs: 1000, only: ['ch-sl'], force: true, skip: [] })).toBeNull();
  });
});
