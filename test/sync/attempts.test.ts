/**
 * Each attempt reports its own figures: after a failed attempt `sync status` shows that
 * attempt without the previous success's rows and changes, which stay on the last-success line
 * (and in the rows metric). A worker that died mid-attempt shows as such, and the worker that
 * takes the source over records the interrupted attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLines } from '../../cli/commands/sync-status.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import { claimSource } from '../../workers/sync/state.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { FakePublisher, buildZip } from './publisher.ts';
import { fixture, runner, syncConfig } from './helpers.ts';

const SL_PATH = '/sl/XMLPublications.zip';

describe('sync attempts and their figures', () => {
  let db: Database;
  let publisher: FakePublisher;
  let config: Config;
  const status = async () => (await statusLines(db, config.sync, new Date())).join('\n');
  const syncNow = async (owner: string) => {
    const r = runner(db, config, { owner });
    try {
      return (await r.runNow(['ch-sl']))[0]!;
    } finally {
      await r.close();
    }
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    publisher = await new FakePublisher().start();
    publisher.publish(SL_PATH, buildZip([{ name: 'Preparations.xml', content: fixture('ch-sl/Preparations.xml') }]));
    config = syncConfig(publisher, { 'ch-sl': SL_PATH });
  });
  afterAll(async () => {
    await publisher.close();
    await db.close();
  });

  it('shows a failed attempt with its own figures and keeps the last ingest on the success line', async () => {
    const ok = await syncNow('worker-a');
    expect(ok.outcome).toBe('ok');
    const rows = ok.outcome === 'ok' ? ok.rows : null;
    publisher.misbehave.set(SL_PATH, { status: 503 });
    expect(await syncNow('worker-a')).toMatchObject({ outcome: 'http_error' });
    publisher.misbehave.clear();
    const text = await status();
    const attempt = /last attempt {2}(.*)/.exec(text)![1]!;
    expect(attempt).toMatch(/http_error, HTTP 503/);
    expect(attempt).not.toMatch(/rows|changes/);
    expect(text).toContain(`(last ingest: rows ${rows!.read}/${rows!.kept}/${rows!.malformed}/${rows!.excluded}, `);
  });

  it('names a worker that died mid-attempt, and the next worker records the interrupted attempt', async () => {
    await db.query(`UPDATE sync_state SET next_attempt_at = now(), lease_owner = NULL, lease_until = NULL, validators = '{}'`);
    const claim = await claimSource(db, { owner: 'worker-killed', leaseMs: 50, only: ['ch-sl'], force: true, skip: [] });
    expect(claim?.source).toBe('ch-sl');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await status()).toMatch(/worker worker-killed stopped answering mid-attempt/);
    expect(await syncNow('worker-b')).toMatchObject({ outcome: 'ok' });
    const { rows } = await db.query<{ worker: string; outcome: string; error: string }>(
      `SELECT worker, outcome, error FROM sync_attempts WHERE source = 'ch-sl' ORDER BY started_at`);
    const interrupted = rows.find((r) => r.outcome === 'interrupted');
    expect(interrupted).toMatchObject({ worker: 'worker-killed' });
    expect(interrupted!.error).toMatch(/worker worker-killed stopped during the attempt \(its lease lapsed at \d{4}-\d{2}-\d{2}T/);
    expect(rows.at(-1)).toMatchObject({ worker: 'worker-b', outcome: 'ok' });
  });
});
