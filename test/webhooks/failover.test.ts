/**
 * Webhook failover: a worker killed mid-delivery leaves its claim behind (lease and token).
 * Another worker takes the subscription over as soon as the short, heartbeat-renewed lease
 * lapses — within 10 s, not after a whole delivery interval — records the cut-off attempt as
 * `interrupted`, and sends the window again; a live worker's slow delivery keeps its lease.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimNext } from '../../workers/webhooks/claims.ts';
import { startWebhookWorker } from '../../workers/webhooks/worker.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertChanges, seedSource } from '../changes/fixtures.ts';
import { signatureValid, startReceiver, TEST_OPTIONS } from './receiver.ts';
import type { TestReceiver } from './receiver.ts';

const until = async (done: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
};

describe('webhook failover after a worker dies', () => {
  let t: TestApp;
  let key: string;
  let receiver: TestReceiver;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    await seedSource(t.db);
    key = await t.key({ tier: 'starter', account: 'failover-owner' });
  });
  afterEach(async () => {
    await receiver?.close();
    await t.db.query('DELETE FROM webhook_subscriptions');
  });
  afterAll(() => t.close());

  async function subscribe(): Promise<{ id: string; secret: string }> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${receiver.url}/failover` } });
    expect(res.statusCode).toBe(201);
    return res.json();
  }

  it("takes a dead worker's subscription over within the lease, long before the next cycle, and records the cut-off attempt", async () => {
    receiver = await startReceiver();
    const sub = await subscribe();
    const changes = await insertChanges(t.db, 3);
    // The dead worker: it claimed (and may have sent) but never recorded, as after kill -9.
    const dead = await claimNext(t.db, { leaseMs: 600, minGapMs: 0, leaseToken: randomUUID(), skip: [] });
    expect(dead?.id).toBe(sub.id);
    const killedAt = Date.now();
    // A survivor whose regular cycle is a minute away: only the orphan scan can reach it in time.
    const survivor = startWebhookWorker({ config: t.config, db: t.db, now: () => new Date(), log }, { ...TEST_OPTIONS, intervalMs: 60_000 });
    try {
      await until(() => receiver.received.length > 0, 10_000);
      const resumedMs = Date.now() - killedAt;
      expect(resumedMs).toBeLessThan(10_000);
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(signatureValid(sub.secret, got!)).toBe(true);
      expect(got!.body.changes.map((c: { id: string }) => c.id)).toEqual(changes.map((c) => c.id));
    } finally {
      await survivor.close();
    }
    const { rows } = await t.db.query<{ outcome: string; error: string | null; change_count: number }>(
      'SELECT outcome, error, change_count FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY attempted_at', [sub.id]);
    expect(rows.map((r) => r.outcome)).toEqual(['interrupted', 'delivered']);
    expect(rows[0]!.error).toMatch(/stopped during the attempt \(its lease lapsed at \d{4}-\d{2}-\d{2}T[\d:]+Z\); the window is sent again/);
    const listed = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json().webhooks[0];
    expect(listed.delivered_until).toBe(changes[2]!.occurred_at);
  });

  it('keeps the lease of a live worker whose receiver is slower than the lease: the window goes out once', async () => {
    receiver = await startReceiver({ status: 200, delayMs: 1_200 });
    await subscribe();
    await insertChanges(t.db, 2);
    const options = { ...TEST_OPTIONS, intervalMs: 60_000, leaseMs: 300, orphanScanMs: 50, timeoutMs: 3_000 };
    const [a, b] = [startWebhookWorker({ config: t.config, db: t.db, now: () => new Date(), log }, options),
      startWebhookWorker({ config: t.config, db: t.db, now: () => new Date(), log }, options)];
    try {
      await until(() => receiver.received.length > 0, 5_000);
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(receiver.received).toHaveLength(1);
    const { rows } = await t.db.query<{ outcome: string }>('SELECT outcome FROM webhook_deliveries');
    expect(rows.map((r) => r.outcome)).toEqual(['delivered']);
  });
});
