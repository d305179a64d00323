/**
 * The benchmark's plumbing, not its timings: the statement recorder (`onQuery` of
 * platform/db.ts) captures exactly the statements a route runs, the replay runs those same
 * statements again in the same dependency shape, and the same-SQL baseline answers with the
 * route's bytes.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../platform/db.ts';
import type { Database, QueryEvent } from '../../platform/db.ts';
import { buildBaselineApp } from '../../bench/baseline-app.ts';
import { replay, roundTripsOf, toWaves } from '../../bench/replay.ts';
import type { RecordedStatement } from '../../bench/server.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const event = (text: string, startedAt: number, endedAt: number, tx: number | null = null): RecordedStatement => ({ text, params: [], tx, startedAt, endedAt });

describe('toWaves', () => {
  it('keeps concurrent statements together, sequential ones apart, and a transaction as one step', () => {
    const waves = toWaves([
      event('auth', 0, 1),
      event('BEGIN', 1, 2, 7), event('quota', 2, 3, 7), event('COMMIT', 3, 4, 7),
      event('loader a', 4, 6), event('loader b', 4.5, 5.5),
      event('after', 6.5, 7),
    ]);
    expect(waves.map((w) => w.map((u) => u.statements.map((s) => s.text)))).toEqual([
      [['auth']], [['BEGIN', 'quota', 'COMMIT']], [['loader a'], ['loader b']], [['after']],
    ]);
    expect(roundTripsOf(waves)).toBe(7);
  });
});

describe('recording a route and replaying it', () => {
  let t: TestApp;
  let db: Database;
  let base: (Database & { url?: string }) | null = null;
  let recording: QueryEvent[] | null = null;
  let key: string;

  beforeAll(async () => {
    const onQuery = (e: QueryEvent) => recording?.push(e);
    if (testBackend() === 'pglite') {
      db = await openDatabase({ dataDir: 'memory://', loadDataDir: new Blob([await readFile(inject('testDatabase').demoTemplate)]), onQuery });
    } else {
      base = await openTestDatabase({ demo: true });
      db = await openDatabase({ url: base.url!, onQuery });
    }
    t = await startTestApp({ db });
    key = await t.key();
  });
  afterAll(async () => {
    await t.close();
    await db.close();
    await base?.close();
  });

  const request = () => t.app.inject({ url: '/v1/atc/N02BE01', headers: { authorization: `Bearer ${key}` } });

  it('records every statement of one request, and the replay runs exactly those again', async () => {
    await request();
    recording = [];
    const before = db.roundTrips;
    const res = await request();
    const statements = recording as RecordedStatement[];
    const routeRoundTrips = db.roundTrips - before;
    recording = null;
    expect(res.statusCode).toBe(200);
    expect(statements.length).toBe(routeRoundTrips);
    expect(statements.some((s) => s.text.includes('quota_usage'))).toBe(true);
    expect(statements.some((s) => s.text.includes('atc_nodes'))).toBe(true);

    const waves = toWaves(statements);
    expect(roundTripsOf(waves)).toBe(routeRoundTrips);
    recording = [];
    await replay(db, waves);
    const replayed = recording as QueryEvent[];
    recording = null;
    const shape = (list: Array<{ text: string; params: unknown }>) => list.map((s) => [s.text, JSON.stringify(s.params ?? [])]).sort();
    expect(shape(replayed)).toEqual(shape(statements));
  });

  it('serves the route\'s bytes from the same-SQL baseline', async () => {
    await request();
    recording = [];
    const res = await request();
    const statements = recording as RecordedStatement[];
    recording = null;
    const baseline = await buildBaselineApp(db);
    baseline.add({
      method: 'GET', url: '/v1/atc/N02BE01', waves: toWaves(statements), status: res.statusCode,
      contentType: String(res.headers['content-type']), body: res.rawPayload.toString('base64'),
    });
    recording = [];
    const copy = await baseline.app.inject({ url: '/v1/atc/N02BE01' });
    const replayed = recording as QueryEvent[];
    recording = null;
    expect(copy.statusCode).toBe(200);
    expect(copy.headers['content-type']).toBe(res.headers['content-type']);
    expect(copy.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(replayed.length).toBe(statements.length);
    expect((await baseline.app.inject({ url: '/v1/atc/N02' })).statusCode).toBe(404);
    await baseline.app.close();
  });
});
