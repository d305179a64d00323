/**
 * The webhook delivery worker (spec, Delivery rules). Every cycle it claims each due
 * subscription in turn, reads the changes after its cursor (its events only, at most the
 * batch cap, oldest first, below the visibility horizon), POSTs them as one signed batch,
 * records the attempt and moves the cursor only on a 2xx. Any number of workers may run
 * against one database: leases keep one subscription's window with one worker at a time.
 */
import { randomUUID } from 'node:crypto';
import { Agent } from 'undici';
import type { Database } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import type { Logger } from '../../platform/logger.ts';
import { forgetFallbackKey, openSecret, rootKey } from '../../resolvers/changes/keyring.ts';
import { readChanges, visibilityHorizon } from '../../resolvers/changes/records.ts';
import type { ChangeType } from '../../resolvers/changes/records.ts';
import type { RunningWorker, WorkerDeps } from '../index.ts';
import { claimNext, finishAttempt, releaseLease, renewLease } from './claims.ts';
import type { ClaimedSubscription } from './claims.ts';
import { buildBatch, postBatch } from './delivery.ts';
import { publicOnlyLookup } from '../../platform/net/targets.ts';

/** Subscriptions delivered in parallel by one worker, so one slow receiver does not hold up the rest. */
export const DELIVERY_CONCURRENCY = 8;
/**
 * A claim holds its subscription this long and is renewed a third of the way through while the
 * delivery runs (however slow the receiver), so only a dead worker's lease lapses — and soon.
 */
export const LEASE_MS = 6_000;
/**
 * How often every worker looks for subscriptions whose holder died (lease lapsed, token still
 * set) between its regular cycles: a killed worker's subscriptions resume within
 * LEASE_MS + ORPHAN_SCAN_MS (8 s), not a whole delivery interval later.
 */
export const ORPHAN_SCAN_MS = 2_000;
/** Timer jitter allowance: a subscription is due again this much before a full cycle has passed. */
export const DUE_SLACK_MS = 5_000;

export interface WebhookWorkerOptions {
  intervalMs: number;
  timeoutMs: number;
  batchCap: number;
  /** How long a claim holds a subscription before its heartbeat renews it. */
  leaseMs: number;
  /** How often to look for a dead worker's subscriptions between cycles. */
  orphanScanMs: number;
  /** Least time between two attempts on one subscription, whichever worker makes them. */
  minGapMs: number;
  concurrency: number;
  /** Deliver to loopback and private addresses too (tests, local development). */
  allowPrivateTargets: boolean;
}

/** Options from config (spec constants by default). */
export function optionsFromConfig(config: Config): WebhookWorkerOptions {
  return {
    intervalMs: config.webhookIntervalMs,
    timeoutMs: config.webhookTimeoutMs,
    batchCap: config.webhookBatchCap,
    leaseMs: LEASE_MS,
    orphanScanMs: ORPHAN_SCAN_MS,
    minGapMs: Math.max(0, config.webhookIntervalMs - DUE_SLACK_MS),
    concurrency: DELIVERY_CONCURRENCY,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
  };
}

export interface RunSummary {
  delivered: number;
  failed: number;
  /** Subscriptions claimed with nothing new to send. */
  idle: number;
}

export interface WebhookDispatcher {
  /** One delivery cycle over every due subscription. */
  runOnce(): Promise<RunSummary>;
  /** Delivers, at once, the subscriptions whose previous holder died mid-attempt. */
  rescue(): Promise<RunSummary>;
  close(): Promise<void>;
}

type Result = 'delivered' | 'failed' | 'idle';

type DeliveryContext = { db: Database; config: Config; log: Logger; options: WebhookWorkerOptions; agent: Agent };

/** Delivers one claimed subscription while a heartbeat keeps its lease. */
async function deliverLeased(ctx: DeliveryContext, sub: ClaimedSubscription): Promise<Result> {
  if (sub.tookOver) ctx.log.warn({ subscription: sub.id }, 'webhook subscription taken over from a worker that stopped mid-attempt');
  const heartbeat = setInterval(() => {
    renewLease(ctx.db, sub, ctx.options.leaseMs).catch((err: unknown) => ctx.log.warn({ err, subscription: sub.id }, 'webhook lease renewal failed'));
  }, Math.max(50, Math.floor(ctx.options.leaseMs / 3)));
  heartbeat.unref();
  try {
    return await deliverOne(ctx, sub);
  } finally {
    clearInterval(heartbeat);
  }
}

async function deliverOne(ctx: DeliveryContext, sub: ClaimedSubscription): Promise<Result> {
  const { db, options } = ctx;
  const horizon = await visibilityHorizon(db);
  const types = sub.events.map((e) => e.slice('changes.'.length) as ChangeType);
  const changes = await readChanges(db, { after: sub.cursor, horizon, limit: options.batchCap, types });
  if (!changes.length) {
    await releaseLease(db, sub);
    return 'idle';
  }
  let secret: string;
  try {
    secret = openSecret(await rootKey(ctx.config, db), sub.secretSealed, sub.id);
  } catch {
    // Not an attempt: nothing was sent. The operator must restore the key that sealed it;
    // a restored fallback key is read again on the next attempt.
    forgetFallbackKey(db);
    ctx.log.error({ subscription: sub.id, keyRef: sub.secretKeyRef }, 'webhook secret does not open with the configured WEBHOOK_SECRET_KEY');
    await releaseLease(db, sub);
    return 'failed';
  }
  const batch = buildBatch(secret, sub.events, sub.cursor.occurredAt, changes);
  const attemptedAt = new Date();
  const result = await postBatch(sub.url, batch, { timeoutMs: options.timeoutMs, allowPrivateTargets: options.allowPrivateTargets }, ctx.agent);
  const newest = changes.at(-1)!;
  const held = await finishAttempt(db, sub, {
    deliveryId: batch.deliveryId, attemptedAt, since: batch.since, until: batch.until, changeCount: changes.length,
    ...result, newest: { occurredAt: newest.occurredAt, id: newest.id },
  });
  if (!held) ctx.log.warn({ subscription: sub.id, delivery: batch.deliveryId }, 'webhook lease lost or subscription deleted during delivery; cursor left as is');
  ctx.log.info({ subscription: sub.id, delivery: batch.deliveryId, outcome: result.outcome, status: result.statusCode, changes: changes.length }, 'webhook delivery attempted');
  return result.outcome === 'delivered' ? 'delivered' : 'failed';
}

/** A dispatcher whose `runOnce` is one cycle; the scheduled worker and tests share it. */
export function createWebhookDispatcher(deps: { db: Database; config: Config; log: Logger }, options: WebhookWorkerOptions = optionsFromConfig(deps.config)): WebhookDispatcher {
  const connect = { timeout: options.timeoutMs, ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }) };
  const agent = new Agent({ connect, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  const ctx = { ...deps, options, agent };
  /** One pass: claims in turn (orphans only, or every due subscription), deliveries in parallel lanes. */
  const pass = async (orphansOnly: boolean): Promise<RunSummary> => {
    const summary: RunSummary = { delivered: 0, failed: 0, idle: 0 };
    const handled: string[] = [];
    // Claims go one at a time, each sent after the previous one's id joined `handled`:
    // a claim sent beside another could run after that one's lease was already released
    // and take the same subscription twice in one cycle. Deliveries still overlap.
    let claiming: Promise<unknown> = Promise.resolve();
    const claim = (): Promise<ClaimedSubscription | null> => {
      const next = claiming.then(async () => {
        const sub = await claimNext(deps.db, { leaseMs: options.leaseMs, minGapMs: options.minGapMs, leaseToken: randomUUID(), skip: handled, orphansOnly });
        if (sub) handled.push(sub.id);
        return sub;
      });
      claiming = next.catch(() => undefined);
      return next;
    };
    const lane = async () => {
      for (;;) {
        const sub = await claim();
        if (!sub) return;
        try {
          summary[await deliverLeased(ctx, sub)]++;
        } catch (err) {
          // A database hiccup: the lease lapses on its own and a rescue pass retries.
          deps.log.error({ err, subscription: sub.id }, 'webhook delivery failed before recording');
          summary.failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, lane));
    return summary;
  };
  return {
    runOnce: () => pass(false),
    rescue: () => pass(true),
    close: () => agent.close(),
  };
}

/** Starts the scheduled worker: a cycle now, then one every `intervalMs` after each start. */
export function startWebhookWorker(deps: WorkerDeps, options: WebhookWorkerOptions = optionsFromConfig(deps.config)): RunningWorker {
  const dispatcher = createWebhookDispatcher(deps, options);
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const cycle = () => {
    const started = Date.now();
    current = dispatcher.runOnce().then(
      (summary) => deps.log.debug({ summary }, 'webhook cycle finished'),
      (err: unknown) => deps.log.error({ err }, 'webhook cycle failed'),
    ).finally(() => {
      if (!stopped) timer = setTimeout(cycle, Math.max(0, options.intervalMs - (Date.now() - started)));
    });
  };
  // Between cycles, a dead worker's subscriptions are taken over as soon as their lease lapses.
  let rescueTimer: NodeJS.Timeout | null = null;
  let rescuing: Promise<void> = Promise.resolve();
  const rescue = () => {
    rescuing = dispatcher.rescue().then(
      (summary) => { if (summary.delivered + summary.failed > 0) deps.log.info({ summary }, 'webhook subscriptions of a stopped worker taken over'); },
      (err: unknown) => deps.log.error({ err }, 'webhook rescue pass failed'),
    ).finally(() => {
      if (!stopped) rescueTimer = setTimeout(rescue, options.orphanScanMs);
    });
  };
  cycle();
  rescueTimer = setTimeout(rescue, options.orphanScanMs);
  return {
    name: 'webhook-delivery',
    async close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (rescueTimer) clearTimeout(rescueTimer);
      await Promise.all([current, rescuing]);
      await dispatcher.close();
    },
  };
}

/** WORKERS entry: the webhook worker with the configured spec constants. */
export const webhookDeliveryWorker = (deps: WorkerDeps): RunningWorker => startWebhookWorker(deps);
