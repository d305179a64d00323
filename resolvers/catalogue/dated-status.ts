/**
 * The status of a pack or product at an instant, and the span it held, computed from the
 * versions of the pack, its product and the recalls naming them (change-history.ts). Pure
 * functions: the histories are read first, then every status is evaluated in memory.
 *
 * Order of precedence at one instant: not listed (unknown before the register's history
 * starts, else not_yet_listed), removed from the register (withdrawn, reason delisted), a
 * recall in force (recalled), withdrawn by the register's marketing status (the pack's or
 * its product's), else active.
 */
import type { Version } from './change-history.ts';
import { versionAt } from './change-history.ts';

export type DatedStatusName = 'active' | 'withdrawn' | 'recalled' | 'not_yet_listed' | 'unknown';

/** The recall notice behind a `recalled` status. */
export interface RecallRef {
  source: string;
  key: string;
  publishedOn: string | null;
  reason: string | null;
  level: string | null;
}

export interface StatusAt {
  status: DatedStatusName;
  /** Why: delisted, marketing_status, product_withdrawn, product_delisted, recall, not_listed, before_history, no_history. */
  reason: string | null;
  recall?: RecallRef | null;
}

/** A status with the span it held around the instant asked: since (inclusive) and until (exclusive; null while it holds). */
export interface StatusSpan extends StatusAt {
  since: Date | null;
  until: Date | null;
}

/** Everything read from the log that statuses depend on. */
export interface Histories {
  /** Products by id. */
  products: Map<string, Version[]>;
  /** Recalls by product id: each recall's versions. */
  recalls: Map<string, Version[][]>;
  /** First change of each source. */
  starts: Map<string, Date>;
}

/** A code to match in identifier lists (lookups); absent for a whole record. */
export interface CodeMatch {
  systems: readonly string[];
  code: string;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function carriesCode(image: Record<string, unknown> | null, match: CodeMatch | undefined): boolean {
  if (!match) return true;
  const list = Array.isArray(image?.identifiers) ? image.identifiers as Array<Record<string, unknown>> : [];
  return list.some((i) => match.systems.includes(String(i.system)) && i.code === match.code);
}

/** A version that lists the record (and the code, when one is matched). */
export function lists(v: Version | null, match?: CodeMatch): v is Version {
  return v !== null && v.type !== 'delete' && carriesCode(v.image, match);
}

function notListed(source: string, at: Date, starts: Map<string, Date>): StatusAt {
  const start = starts.get(source);
  return start && at.getTime() >= start.getTime() ? { status: 'not_yet_listed', reason: 'not_listed' } : { status: 'unknown', reason: 'before_history' };
}

/** The recall in force at `at` for a product, or for one of its packs when `packKey` is given. */
function recallInForce(h: Histories, productId: string, packKey: string | null, at: Date): RecallRef | null {
  for (const versions of h.recalls.get(productId) ?? []) {
    const v = versionAt(versions, at);
    if (!v || v.type === 'delete' || v.drugId !== productId || !v.image) continue;
    const packs = Array.isArray(v.image.pack_keys) ? v.image.pack_keys as string[] : [];
    if (packs.length > 0 && (packKey === null || !packs.includes(packKey))) continue;
    return { source: v.source, key: v.key, publishedOn: text(v.image.published_on), reason: text(v.image.reason), level: text(v.image.level) };
  }
  return null;
}

/** A product's status at `at`. */
export function productStatusAt(h: Histories, productId: string, source: string, at: Date): StatusAt {
  const v = versionAt(h.products.get(productId), at);
  if (!v) return notListed(source, at, h.starts);
  if (v.type === 'delete') return { status: 'withdrawn', reason: 'delisted' };
  const recall = recallInForce(h, productId, null, at);
  if (recall) return { status: 'recalled', reason: 'recall', recall };
  if (v.image?.marketing_status === 'withdrawn') return { status: 'withdrawn', reason: 'marketing_status' };
  return { status: 'active', reason: null };
}

/** A pack's status at `at` (for a lookup: of the pack as the holder of `match`). */
export function packStatusAt(h: Histories, versions: readonly Version[], at: Date, match?: CodeMatch): StatusAt {
  const v = versionAt(versions, at);
  if (!lists(v, match)) {
    const before = versions.some((x) => x.at.getTime() <= at.getTime() && lists(x, match));
    return before ? { status: 'withdrawn', reason: 'delisted' } : notListed(versions[0]!.source, at, h.starts);
  }
  const productId = v.drugId ?? '';
  const product = versionAt(h.products.get(productId), at);
  const recall = recallInForce(h, productId, v.key, at);
  if (recall) return { status: 'recalled', reason: 'recall', recall };
  if (!product || product.type === 'delete') return { status: 'withdrawn', reason: 'product_delisted' };
  if (v.image?.marketing_status === 'withdrawn') return { status: 'withdrawn', reason: 'marketing_status' };
  if (product.image?.marketing_status === 'withdrawn') return { status: 'withdrawn', reason: 'product_withdrawn' };
  return { status: 'active', reason: null };
}

/** Instants at which any history the status reads changes (plus where the register's history starts). */
export function eventTimes(h: Histories, own: readonly Version[], productIds: Iterable<string>, source: string): Date[] {
  const times = new Set<number>(own.map((v) => v.at.getTime()));
  for (const id of productIds) {
    for (const v of h.products.get(id) ?? []) times.add(v.at.getTime());
    for (const versions of h.recalls.get(id) ?? []) for (const v of versions) times.add(v.at.getTime());
  }
  const start = h.starts.get(source);
  if (start) times.add(start.getTime());
  return [...times].sort((a, b) => a - b).map((t) => new Date(t));
}

/**
 * The status at `at` with its span: `since` is the earliest event from which the same status
 * held without a break up to `at`, `until` the first later event with another status. An
 * unknown status has no span (nothing is known before the history starts).
 */
export function spanAt(events: readonly Date[], at: Date, statusAt: (t: Date) => StatusAt): StatusSpan {
  const current = statusAt(at);
  if (current.status === 'unknown') {
    const next = events.find((e) => e.getTime() > at.getTime() && statusAt(e).status !== 'unknown');
    return { ...current, since: null, until: next ?? null };
  }
  let since: Date | null = null;
  for (const e of [...events].reverse()) {
    if (e.getTime() > at.getTime()) continue;
    if (statusAt(e).status !== current.status) break;
    since = e;
  }
  const until = events.find((e) => e.getTime() > at.getTime() && statusAt(e).status !== current.status) ?? null;
  return { ...current, since, until };
}

/** Recall versions grouped per product id, from recall histories keyed by record. */
export function recallsByProduct(histories: Map<string, Version[]>, productIds: readonly string[]): Map<string, Version[][]> {
  const out = new Map<string, Version[][]>(productIds.map((id) => [id, []]));
  for (const versions of histories.values()) {
    const owners = new Set(versions.map((v) => v.drugId).filter((id): id is string => id !== null));
    for (const id of owners) out.get(id)?.push(versions);
  }
  return out;
}
