/**
 * Delivery attempts as a tenant sees them: the last attempt of each subscription, loaded
 * per request in one query for every subscription on the page.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';

/** `interrupted`: the worker delivering the window died mid-attempt; recorded by the worker that took over. */
export type DeliveryOutcome = 'delivered' | 'http_error' | 'timeout' | 'connection_error' | 'interrupted';

export interface DeliveryStatus {
  deliveryId: string;
  attemptedAt: Date;
  outcome: DeliveryOutcome;
  /** HTTP status of the receiver's answer; null on timeout or connection error. */
  statusCode: number | null;
  error: string | null;
  changeCount: number;
  durationMs: number;
}

interface DeliveryRow {
  subscription_id: string;
  id: string;
  attempted_at: Date;
  outcome: DeliveryOutcome;
  status_code: number | null;
  error: string | null;
  change_count: number;
  duration_ms: number;
}

/** Per-request loader: subscription id → its most recent attempt, or null. */
export function createLastDeliveryLoader(db: Queryable): DataLoader<string, DeliveryStatus | null> {
  return new DataLoader(async (ids) => {
    // DISTINCT ON walks webhook_deliveries_recent newest first per subscription.
    const { rows } = await db.query<DeliveryRow>(
      `SELECT DISTINCT ON (subscription_id) subscription_id, id, attempted_at, outcome, status_code, error, change_count, duration_ms
         FROM webhook_deliveries WHERE subscription_id = ANY($1::uuid[])
        ORDER BY subscription_id, attempted_at DESC`,
      [ids],
    );
    const bySubscription = new Map(rows.map((r) => [r.subscription_id, r]));
    return ids.map((id) => {
      const r = bySubscription.get(id);
      return r
        ? { deliveryId: r.id, attemptedAt: r.attempted_at, outcome: r.outcome, statusCode: r.status_code, error: r.error, changeCount: r.change_count, durationMs: r.duration_ms }
        : null;
    });
  });
}
