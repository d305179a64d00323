import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';
import type { QueryOptions } from '../../platform/db.ts';
import { insertChanges, seedSource } from '../changes/fixtures.ts';
import type { InsertedChange } from '../changes/fixtures.ts';
import { claimNext, finishAttempt } from '../../workers/webhooks/claims.ts';
import { startWebhookWorker, webhookDeliveryWorker } from '../../workers/webhooks/worker.ts';
import { WORKERS } from '../../workers/index.ts';
import { signatureValid, startReceiver, testDispatcher, TEST_OPTIONS } from './receiver.ts';
import type { Received, TestReceiver } from './receiver.ts';

describe('webhook delivery worker', () => {
  let t: TestApp;
  let key: string;
  let receiver: TestReceiver;

  async function subscribe(path: string, events?: string[]): Promise<{ id: string; secret: string }> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${receiver.url}${path}`, ...(events ? { events } : {}) } });
    expect(res.statusCode).toBe(201);
    return res.json();
  }

  const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);
  const accepted = (secret: string): Received[] => receiver.received.filter((r) => r.answered === 200 && signatureValid(secret, r));

  beforeAll(async () => {
    // The receiver listens on loopback, which creation refuses unless private targets are allowed.
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    await seedSource(t.db);
    key = await t.key({ tier: 'starter', account: 'receiver-owner' });
  });
  afterEach(async () => {
    await receiver?.close();
    await t.db.query('DELETE FROM webhook_subscriptions');
  });
  afterAll(() => t.close());

  it('POSTs one batch signed over the raw bytes, with the spec headers and body', async () => {
    receiver = await startReceiver();
    const sub = await subscribe('/signed');
    const created = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json().webhooks[0];
    const changes = await insertChanges(t.db, 3, { types: ['insert', 'update', 'delete'] });
    await insertChanges(t.db, 1, { types: ['recall'] });
    const worker = testDispatcher(t.db, t.config);
    expect(await worker.runOnce()).toEqual({ delivered: 1, failed: 0, idle: 0 });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received as [Received];
    expect(signatureValid(sub.secret, got)).toBe(true);
    const flipped = { ...got, raw: Buffer.from(got.raw.toString().replace('"changes"', '"changes" ')) };
    expect(signatureValid(sub.secret, flipped)).toBe(false);
    expect(got.headers).toMatchObject({
      'user-agent': 'Service-Webhook/1.0',
      'x-service-event': 'changes.batch',
      'x-service-delivery': got.body.delivery_id,
      'content-type': 'application/json',
      'x-service-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    expect(Object.keys(got.body)).toEqual(['delivery_id', 'since', 'until', 'events', 'changes']);
    expect(got.body.events).toEqual(['changes.insert', 'changes.update', 'changes.delete']);
    expect(ids(got.body.changes)).toEqual(ids(changes));
    expect(got.body.since).toBe(created.delivered_until);
    expect(got.body.until).toBe(changes[2]!.occurred_at);
    expect(got.body.changes[0]).toEqual({
      id: changes[0]!.id, table_name: 'packs', natural_key: expect.any(Object), drug_id: expect.any(String), change_type: 'insert',
      before: null, after: expect.any(Object), source: 'ch-sl', occurred_at: changes[0]!.occurred_at,
    });
    const listed = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json().webhooks[0];
    expect(listed.delivered_until).toBe(changes[2]!.occurred_at);
    expect(listed.last_delivery).toMatchObject({ delivery_id: got.body.delivery_id, outcome: 'delivered', status_code: 200, change_count: 3, error: null });
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 0, idle: 1 });
    expect(receiver.received).toHaveLength(1);
    await worker.close();
  });

  it('survives 500, timeout and reset: after recovery every change arrived in order, none missing', async () => {
    receiver = await startReceiver();
    receiver.script = [{ status: 500 }, 'hang', 'reset'];
    const sub = await subscribe('/flaky');
    const worker = testDispatcher(t.db, t.config);
    const written: InsertedChange[] = [];
    for (const n of [5, 3, 2, 4, 2]) {
      written.push(...(await insertChanges(t.db, n)));
      await worker.runOnce();
    }
    await worker.close();
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 'hang', 'reset', 200, 200]);
    // The failed window is re-sent from the same start, plus whatever arrived since.
    expect(new Set(receiver.received.slice(0, 4).map((r) => r.body.since)).size).toBe(1);
    expect(receiver.received.slice(0, 4).map((r) => r.body.changes.length)).toEqual([5, 8, 10, 14]);
    expect(receiver.received.every((r) => signatureValid(sub.secret, r))).toBe(true);
    const seen = new Map<string, InsertedChange | Received['body']['changes'][number]>();
    for (const r of accepted(sub.secret)) for (const c of r.body.changes) if (!seen.has(c.id)) seen.set(c.id, c);
    expect([...seen.keys()]).toEqual(ids(written));
    const { rows } = await t.db.query<{ outcome: string; status_code: number | null; change_count: number }>(
      'SELECT outcome, status_code, change_count FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY attempted_at', [sub.id]);
    expect(rows).toEqual([
      { outcome: 'http_error', status_code: 500, change_count: 5 },
      { outcome: 'timeout', status_code: null, change_count: 8 },
      { outcome: 'connection_error', status_code: null, change_count: 10 },
      { outcome: 'delivered', status_code: 200, change_count: 14 },
      { outcome: 'delivered', status_code: 200, change_count: 2 },
    ]);
  });

  it('drains a backlog of 1,200 changes in three runs of 500, 500 and 200', async () => {
    receiver = await startReceiver();
    const sub = await subscribe('/backlog');
    const written = await insertChanges(t.db, 1200);
    const worker = testDispatcher(t.db, t.config);
    for (let i = 0; i < 4; i++) await worker.runOnce();
    await worker.close();
    expect(receiver.received.map((r) => r.body.changes.length)).toEqual([500, 500, 200]);
    expect(receiver.received.flatMap((r) => ids(r.body.changes))).toEqual(ids(written));
    expect(receiver.received[1]!.body.since).toBe(receiver.received[0]!.body.until);
    expect(accepted(sub.secret)).toHaveLength(3);
  });

  it('sends only the subscribed events: recall is opt-in', async () => {
    receiver = await startReceiver();
    await subscribe('/default');
    const recalls = await subscribe('/recalls', ['changes.recall']);
    const mixed = await insertChanges(t.db, 8, { types: ['insert', 'recall'] });
    const worker = testDispatcher(t.db, t.config);
    await worker.runOnce();
    await worker.close();
    const byPath = Object.fromEntries(receiver.received.map((r) => [r.path, r.body]));
    expect(ids(byPath['/default']!.changes)).toEqual(ids(mixed.filter((c) => c.change_type === 'insert')));
    expect(ids(byPath['/recalls']!.changes)).toEqual(ids(mixed.filter((c) => c.change_type === 'recall')));
    expect(byPath['/recalls']!.events).toEqual(['changes.recall']);
    expect(accepted(recalls.secret).map((r) => r.path)).toEqual(['/recalls']);
  });

  it('never sends one subscription\'s window from two racing workers at once', async () => {
    receiver = await startReceiver({ status: 200, delayMs: 300 });
    for (let i = 0; i < 6; i++) await subscribe(`/race/${i}`);
    await insertChanges(t.db, 10);
    const a = testDispatcher(t.db, t.config, { concurrency: 3, timeoutMs: 5_000 });
    const b = testDispatcher(t.db, t.config, { concurrency: 3, timeoutMs: 5_000 });
    const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
    const [again1, again2] = await Promise.all([a.runOnce(), b.runOnce()]);
    await Promise.all([a.close(), b.close()]);
    expect(ra.delivered + rb.delivered, JSON.stringify([ra, rb])).toBe(6);
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.path)).size).toBe(6);
    expect(receiver.maxConcurrentPerPath).toBe(1);
    expect(again1.delivered + again2.delivered).toBe(0);
    // On PostgreSQL the two workers really overlap (separate connections); PGlite has one
    // connection, so there claims are serialised by it and either worker may take all.
    if (testBackend() === 'postgres') expect(Math.min(ra.delivered, rb.delivered)).toBeGreaterThan(0);
  });

  it('takes each subscription at most once per cycle, even when its lease is released mid-cycle', async () => {
    receiver = await startReceiver();
    await subscribe('/once');
    // Every claim after the first is sent at once but runs late (a busy server), after the
    // first lane found nothing to send and released its lease: a claim sent beside the first
    // one would take the subscription a second time.
    let claims = 0;
    const slowClaims = new Proxy(t.db, {
      get(db, prop) {
        if (prop !== 'query') return Reflect.get(db, prop);
        return async (text: string, params: unknown[] = [], options?: QueryOptions) => {
          const sent = structuredClone(params);
          if (text.includes('FOR UPDATE SKIP LOCKED') && claims++ > 0) await new Promise((r) => setTimeout(r, 100));
          return db.query(text, sent, options);
        };
      },
    });
    const worker = testDispatcher(slowClaims, t.config);
    expect(await worker.runOnce()).toEqual({ delivered: 0, failed: 0, idle: 1 });
    await worker.close();
  });

  it('leases a subscription to one claimant until it finishes or the lease lapses', async () => {
    receiver = await startReceiver();
    const sub = await subscribe('/lease');
    const claim = (leaseMs: number) => claimNext(t.db, { leaseMs, minGapMs: 0, leaseToken: randomUUID(), skip: [] });
    const [first, second] = await Promise.all([claim(200), claim(200)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const holder = (first ?? second)!;
    expect(holder.id).toBe(sub.id);
    expect(await claim(200)).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    const taker = await claim(5_000);
    expect(taker?.id).toBe(sub.id);
    const attempt = {
      deliveryId: randomUUID(), attemptedAt: new Date(), since: holder.cursor.occurredAt, until: holder.cursor.occurredAt, changeCount: 1,
      outcome: 'delivered' as const, statusCode: 200, error: null, durationMs: 5, newest: { occurredAt: '2999-01-01T00:00:00.000000Z', id: randomUUID() },
    };
    // The lapsed holder may record its attempt but may not move the cursor any more.
    expect(await finishAttempt(t.db, holder, attempt)).toBe(false);
    const { rows } = await t.db.query<{ moved: boolean }>(`SELECT cursor_occurred_at > '2100-01-01' AS moved FROM webhook_subscriptions WHERE id = $1`, [sub.id]);
    expect(rows[0]!.moved).toBe(false);
    expect(await finishAttempt(t.db, taker!, { ...attempt, deliveryId: randomUUID(), outcome: 'http_error', statusCode: 503 })).toBe(true);
    // Taking over a lapsed lease records the holder's cut-off attempt first.
    expect(taker!.tookOver).toBe(true);
    const recorded = await t.db.query<{ outcome: string }>('SELECT outcome FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY attempted_at', [sub.id]);
    expect(recorded.rows.map((r) => r.outcome).sort()).toEqual(['delivered', 'http_error', 'interrupted']);
  });

  it('runs on its own every interval once started, and stops on close', async () => {
    expect(WORKERS).toContain(webhookDeliveryWorker);
    receiver = await startReceiver();
    await subscribe('/scheduled');
    const running = startWebhookWorker({ config: t.config, db: t.db, now: () => new Date(), log: pino({ level: 'silent' }) }, { ...TEST_OPTIONS, intervalMs: 150 });
    const until = async (n: number) => {
      for (let i = 0; i < 200 && receiver.received.length < n; i++) await new Promise((r) => setTimeout(r, 25));
    };
    await insertChanges(t.db, 2);
    await until(1);
    await insertChanges(t.db, 3);
    await until(2);
    await running.close();
    expect(receiver.received.map((r) => r.body.changes.length)).toEqual([2, 3]);
    await insertChanges(t.db, 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toHaveLength(2);
  });
});
