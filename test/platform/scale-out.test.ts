/**
 * The deployment past one process (docs/architecture.md, "Several processes"): two API
 * processes and two worker processes, each a real `drugref` process, on one PostgreSQL.
 * Quota stays exact across both API processes, and every change reaches each webhook
 * receiver in exactly one acknowledged batch while two workers race for the work.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { createKey } from '../../resolvers/accounts/keys.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { BIN, cliEnv, exitOf, runCli, startServer } from '../cli/helpers.ts';
import { signatureValid, startReceiver } from '../webhooks/receiver.ts';
import type { TestReceiver } from '../webhooks/receiver.ts';

interface Process {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
}

/** A `drugref worker` process; resolves once its workers have started. */
function startWorker(env: NodeJS.ProcessEnv): Promise<Process> {
  const child = spawn(process.execPath, [BIN, 'worker'], { env });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"workers started"')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
}

/** Delivery ids a worker process logged as attempted, with their outcome. */
function loggedDeliveries(output: string): Array<{ delivery: string; outcome: string }> {
  return output.split('\n').filter((l) => l.includes('webhook delivery attempted')).map((l) => JSON.parse(l) as { delivery: string; outcome: string });
}

async function stop(p: Process): Promise<void> {
  const exited = exitOf(p.child);
  p.child.kill('SIGTERM');
  expect(await exited).toBe(0);
}

const SUBSCRIPTIONS = 4;

describe.skipIf(testBackend() !== 'postgres')('two API processes and two workers on one PostgreSQL', { timeout: 240_000 }, () => {
  let db: Database & { url?: string };
  let env: NodeJS.ProcessEnv;
  let apis: Array<Process & { url: string }>;
  let workers: Process[] = [];
  let receiver: TestReceiver;

  beforeAll(async () => {
    db = await openTestDatabase({ demo: true });
    env = cliEnv('memory://', {
      DATABASE_URL: db.url!, DEMO: 'false', HOST: '127.0.0.1', PORT: '0',
      WEBHOOK_INTERVAL_MS: '200', WEBHOOK_BATCH_CAP: '40', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    apis = await Promise.all([startServer({ ...env, ROLE: 'api' }), startServer({ ...env, ROLE: 'api' })]);
  });
  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => stop(p).catch(() => undefined)));
    await receiver?.close();
    await db.close();
  });

  it('counts one account exactly across both API processes: 500 admitted at the daily cap, the rest refused, none over', async () => {
    const { key } = await createKey(db, { account: 'scale-pro', tier: 'pro' });
    const limit = pLimit(24);
    const statuses = await Promise.all(Array.from({ length: 600 }, (_, i) => limit(async () => {
      const res = await fetch(`${apis[i % 2]!.url}/v1/atc/N02`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      return res.status;
    })));
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    const { rows } = await db.query<{ month_used: number; day_used: number }>(
      "SELECT month_used, day_used FROM quota_usage q JOIN accounts a ON a.id = q.account_id WHERE a.name = 'scale-pro'",
    );
    expect(rows).toEqual([{ month_used: 500, day_used: 500 }]);
  });

  it('delivers every change of an ingest once per acknowledged batch while two workers race, a failed batch again', async () => {
    receiver = await startReceiver();
    receiver.script = [{ status: 500 }];
    const { key } = await createKey(db, { account: 'scale-growth', tier: 'growth' });
    const subs: Array<{ id: string; secret: string; path: string }> = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const path = `/s${i}`;
      const res = await fetch(`${apis[i % 2]!.url}/v1/webhooks`, {
        method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiver.url}${path}` }),
      });
      expect(res.status).toBe(201);
      subs.push({ ...((await res.json()) as { id: string; secret: string }), path });
    }
    workers = await Promise.all([startWorker({ ...env, ROLE: 'worker' }), startWorker({ ...env, ROLE: 'worker' })]);

    const updated = await runCli(['demo', 'update'], env);
    expect(updated.code).toBe(0);
    const { rows: expected } = await db.query<{ id: string }>(
      `SELECT c.id FROM changes c, webhook_subscriptions s
        WHERE s.id = $1 AND c.occurred_at > s.created_at AND c.change_type <> 'recall'
        ORDER BY c.occurred_at, c.id`,
      [subs[0]!.id],
    );
    expect(expected.length).toBeGreaterThan(40 * 2);

    const acknowledged = (path: string, secret: string) => receiver.received
      .filter((r) => r.path === path && r.answered === 200 && signatureValid(secret, r));
    const done = () => subs.every((s) => acknowledged(s.path, s.secret).flatMap((r) => r.body.changes).length >= expected.length);
    for (let waited = 0; !done() && waited < 120_000; waited += 200) await new Promise((r) => setTimeout(r, 200));

    for (const sub of subs) {
      const ids = acknowledged(sub.path, sub.secret).flatMap((r) => r.body.changes.map((c) => c.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected.map((c) => c.id));
    }
    expect(receiver.received.filter((r) => r.answered === 500)).toHaveLength(1);
    // Each received request was sent by exactly one of the two workers (read once they have
    // stopped, so their logs are complete).
    const running = workers;
    workers = [];
    await Promise.all(running.map(stop));
    const outputs = running.map((w) => w.output());
    const logged = outputs.flatMap((o) => loggedDeliveries(o).map((d) => d.delivery));
    expect(new Set(logged).size).toBe(logged.length);
    expect(new Set(logged)).toEqual(new Set(receiver.received.map((r) => r.body.delivery_id)));
  });
});
