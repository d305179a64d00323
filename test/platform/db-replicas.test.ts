/**
 * Read replicas against a real streaming replica of the test PostgreSQL server (.ci/replica.sh
 * starts it and .ci/run exports TEST_DATABASE_REPLICA_URL): an operation's reads are served
 * by the replica while the primary sees only the writes (key check aside, the quota count);
 * a write followed by a read returns the write; a replica that is down or lags is skipped,
 * with a log line and metrics.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, withReplicaReads } from '../../platform/db.ts';
import type { Database, QueryEvent, ReplicaState } from '../../platform/db.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { databaseUrl } from '../helpers/postgres.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { visibilityHorizon } from '../../resolvers/changes/records.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const replicaBase = process.env.TEST_DATABASE_REPLICA_URL;
const onPostgres = testBackend() === 'postgres';
if (onPostgres && !replicaBase) console.warn('db-replicas.test.ts skipped: set TEST_DATABASE_REPLICA_URL to a streaming replica of TEST_DATABASE_URL (.ci/replica.sh starts one on port 5433)');
/** Nothing listens on port 1: a replica that is down. */
const DOWN = 'postgres://postgres@127.0.0.1:1/drugref';
/** The router's own health checks (every 100 ms here), left out of the statements counted. */
const HEALTH_CHECK = /pg_current_wal_lsn|pg_is_in_recovery/;

describe.skipIf(!onPostgres || !replicaBase)('read replicas (needs TEST_DATABASE_REPLICA_URL, a streaming replica)', { timeout: 60_000 }, () => {
  let source: Database & { url?: string };
  let db: Database;
  let replicaAdmin: Database;
  let replicaName: string;
  let t: TestApp;
  let key: string;
  const events: QueryEvent[] = [];
  const states: ReplicaState[] = [];

  beforeAll(async () => {
    source = await openTestDatabase();
    await seedAtcBranch(source);
    const name = new URL(source.url!).pathname.slice(1);
    const replicaUrl = databaseUrl(replicaBase!, name);
    replicaName = `127.0.0.1:${new URL(replicaUrl).port}/${name}`;
    replicaAdmin = await openDatabase({ url: replicaBase!, max: 1 });
    // The new database and its seed reach the replica by WAL replay.
    await vi.waitFor(async () => {
      const { rows } = await replicaAdmin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      expect(rows).toHaveLength(1);
    }, { timeout: 20_000, interval: 100 });
    db = await openDatabase({
      url: source.url!, replicaUrls: [replicaUrl, DOWN], replicaMaxLagMs: 1_000, replicaCheckMs: 100,
      onQuery: (e) => { if (!HEALTH_CHECK.test(e.text)) events.push(e); }, onReplicaState: (s) => states.push(s),
    });
    t = await startTestApp({ db });
    key = await t.key();
  });

  afterAll(async () => {
    await replicaAdmin?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await t?.close();
    await db?.close();
    await replicaAdmin?.close();
    await source?.close();
  });

  const atc = () => t.app.inject({ method: 'GET', url: '/v1/atc/N02', headers: { authorization: `Bearer ${key}` } });
  const replicaCommits = async () => Number((await replicaAdmin.query<{ n: string }>(
    'SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = $1', [replicaName.split('/')[1]])).rows[0]!.n);

  it('skips the replica that is down from the start, with a log line', () => {
    expect(states).toEqual([expect.objectContaining({ name: '127.0.0.1:1/drugref', serving: false, reason: 'down', skips: 1 })]);
    expect(db.replicaStates!().map((s) => [s.name, s.serving])).toEqual([[replicaName, true], ['127.0.0.1:1/drugref', false]]);
  });

  it('serves an operation\'s reads from the replica; the primary sees only the quota count', async () => {
    expect((await atc()).statusCode).toBe(200); // the key is looked up (primary) and cached
    const commitsBefore = await replicaCommits();
    events.length = 0;
    for (let i = 0; i < 5; i++) {
      const res = await atc();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: 'N02' });
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    const onReplica = events.filter((e) => e.replica === replicaName);
    const onPrimary = events.filter((e) => e.replica === undefined);
    expect(onReplica.length).toBeGreaterThanOrEqual(5);
    expect(onReplica.every((e) => /^\s*(select|with)\b/i.test(e.text))).toBe(true);
    expect(onPrimary).toHaveLength(5);
    expect(onPrimary.every((e) => e.text.includes('INSERT INTO quota_usage'))).toBe(true);
    // The replica's own statistics count the reads it served (they are flushed within a second or so).
    await vi.waitFor(async () => expect(await replicaCommits()).toBeGreaterThanOrEqual(commitsBefore + onReplica.length), { timeout: 10_000, interval: 200 });
  });

  it('reads the change feed on the primary: its horizon looks at the primary\'s open transactions', async () => {
    events.length = 0;
    await withReplicaReads(async () => {
      await visibilityHorizon(db);
      await db.query('SELECT count(*) FROM changes');
    });
    expect(events.map((e) => e.replica ?? 'primary')).toEqual(['primary', 'primary']);
  });

  it('reads a write back within the same scope, even while the replica has not replayed it', async () => {
    await replicaAdmin.query('SELECT pg_wal_replay_pause()');
    events.length = 0;
    const read = () => db.query<{ n: number }>("SELECT count(*)::int AS n FROM atc_nodes WHERE code = 'Z99'");
    const [before, after] = await withReplicaReads(async () => {
      const first = await read();
      await db.query("INSERT INTO atc_nodes (code, name, level, parent_code, source) VALUES ('Z99', 'Replica test', 1, NULL, 'who-atc')");
      return [first, await read()];
    });
    expect(before.rows[0]!.n).toBe(0);
    expect(after.rows[0]!.n).toBe(1);
    expect(events.map((e) => e.replica ?? 'primary')).toEqual([replicaName, 'primary', 'primary']);
  });

  it('skips the replica while it lags past the bound, with a log line and metrics, and uses it again once caught up', async () => {
    // Replay is still paused after the write above: the lag grows past 1 s.
    await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ name: replicaName, serving: false, reason: 'lagging' }), { timeout: 10_000, interval: 50 });
    events.length = 0;
    expect((await atc()).statusCode).toBe(200);
    expect(events.some((e) => e.replica)).toBe(false);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain(`drugref_db_replica_serving{replica="${replicaName}"} 0`);
    expect(metrics).toMatch(new RegExp(`drugref_db_replica_skipped_total\\{replica="${replicaName}"\\} [1-9]`));
    expect(metrics).toContain('drugref_db_replica_serving{replica="127.0.0.1:1/drugref"} 0');
    expect(metrics).toMatch(new RegExp(`drugref_db_replica_lag_seconds\\{replica="${replicaName}"\\} [1-9]`));

    await replicaAdmin.query('SELECT pg_wal_replay_resume()');
    await vi.waitFor(() => expect(states.at(-1)).toMatchObject({ name: replicaName, serving: true }), { timeout: 10_000, interval: 50 });
    events.length = 0;
    expect((await atc()).statusCode).toBe(200);
    expect(events.some((e) => e.replica === replicaName)).toBe(true);
  });
});
