/**
 * The one upstream client of every enrichment source. Each call goes through the
 * database cache: a fresh row is served as `db`; otherwise the source is asked (`live`)
 * and, when that fails, an older row is served as `stale`. With nothing cached a failure
 * is a generic 502 `upstream_error`; a source switched off in the config is a 503
 * `unavailable` with `retry-after`. Upstream detail goes to the logs, never to callers.
 */
import { Agent } from 'undici';
import { ApiError } from '../errors.ts';
import type { Queryable } from '../db.ts';
import type { Logger } from '../logger.ts';
import { systemClock } from '../clock.ts';
import type { Clock } from '../clock.ts';
import type { UpstreamConfig } from '../config.ts';
import { LOCAL_SOURCES } from './sources.ts';
import type { HttpSourceId, SourceId } from './sources.ts';
import { cacheKey, readCache, writeCache } from './cache.ts';
import type { CachedAnswer } from './cache.ts';
import { exchange, UpstreamFailure } from './http.ts';
import type { HttpAnswer } from './http.ts';
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';

/** Where an answer came from; the value of `x-service-cache`. */
export type CacheState = 'db' | 'live' | 'stale';

/** What a source answered, and where the answer came from. */
export interface Fetched<T = unknown> {
  status: number;
  body: T;
  cache: CacheState;
  fetchedAt: Date;
}

/** A request to an HTTP source, relative to its configured base URL. */
export interface UpstreamCall {
  method?: 'GET' | 'POST';
  /** Appended to the base URL, e.g. `/REST/rxcui/161/properties.json`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Whether a 2xx body is a real answer. A GraphQL API answers 200 with only `errors`;
   * such a body must be a failure (never cached, stale copy served) rather than data.
   */
  accept?: (body: unknown) => boolean;
}

const SOURCE_IS_LOCAL = new Set<SourceId>(LOCAL_SOURCES);

const RANK: Record<CacheState, number> = { db: 0, live: 1, stale: 2 };

/**
 * Folds one part's cache state into the answer's `x-service-cache`: an answer is as
 * stale as its stalest part, and `live` as soon as any part was fetched now.
 */
export function noteCache(headers: Record<string, string>, state: CacheState): void {
  const current = headers['x-service-cache'] as CacheState | undefined;
  if (!current || RANK[state] > RANK[current]) headers['x-service-cache'] = state;
}

/** What the client needs: its config slice, the database for the cache, a logger and a clock. */
export interface UpstreamClientOptions {
  config: UpstreamConfig;
  db: Queryable;
  log: Logger;
  now?: Clock;
}

/** The one client of every enrichment source, shared by all requests of an app instance. */
export class UpstreamClient {
  private readonly config: UpstreamConfig;
  private readonly db: Queryable;
  private readonly log: Logger;
  private readonly now: Clock;
  private readonly agent: Agent;
  /** One p-limit per source: at most `concurrency` calls to one upstream run at once. */
  private readonly limits = new Map<SourceId, LimitFunction>();
  /**
   * Identical requests in flight share one upstream call. Hand-written: it is four lines on
   * a Map, and the entry must leave the map as the call settles, which the cache below
   * (a database table, not an in-memory cache) does not express.
   */
  private readonly inFlight = new Map<string, Promise<Fetched>>();

  constructor(options: UpstreamClientOptions) {
    this.config = options.config;
    this.db = options.db;
    this.log = options.log;
    this.now = options.now ?? systemClock;
    this.agent = new Agent({ connections: options.config.concurrency, keepAliveTimeout: 10_000 });
  }

  /** Whether a source may be called at all (switched on, and with a base URL). */
  isEnabled(source: SourceId): boolean {
    const s = this.config.sources[source];
    return s.enabled && (s.baseUrl !== null || SOURCE_IS_LOCAL.has(source));
  }

  /** A source's configured base URL (a `file:` URL for curated sources), or null. */
  baseUrl(source: SourceId): string | null {
    return this.config.sources[source].baseUrl;
  }

  /** The licensed crosswalk's key, when one is configured. */
  get crosswalkKey(): string | null {
    return this.config.crosswalkKey;
  }

  /** Requests in flight to one source right now. */
  running(source: SourceId): number {
    return this.limits.get(source)?.activeCount ?? 0;
  }

  /** GET or POST a JSON resource of an HTTP source, through the cache. */
  fetch<T = unknown>(source: HttpSourceId, call: UpstreamCall): Promise<Fetched<T>> {
    const method = call.method ?? 'GET';
    const key = cacheKey(method, call.path, call.query, call.body);
    return this.cached<T>(source, key, async () => {
      const base = this.config.sources[source].baseUrl as string;
      const url = new URL(base.replace(/\/$/, '') + call.path);
      for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const { timeoutMs, retries, retryBaseMs } = this.config;
      const answer = await exchange({ method, url, ...(call.headers ? { headers: call.headers } : {}), body: call.body }, this.agent, { timeoutMs, retries, retryBaseMs });
      if (answer.status !== 404 && call.accept && !call.accept(answer.body)) throw new UpstreamFailure('answer rejected by the caller', false);
      return answer;
    });
  }

  /**
   * Serves `key` of `source` from the cache when fresh, else from `produce`, falling back
   * to a stale row when `produce` fails. Curated sources call this with a local producer.
   */
  async cached<T = unknown>(source: SourceId, key: string, produce: () => Promise<HttpAnswer>): Promise<Fetched<T>> {
    if (!this.isEnabled(source)) {
      const after = String(this.config.retryAfterSeconds);
      throw new ApiError('unavailable', 'This data source is switched off on this server.', {}, { 'retry-after': after });
    }
    const flightKey = `${source} ${key}`;
    const pending = this.inFlight.get(flightKey);
    if (pending) return pending as Promise<Fetched<T>>;
    const run = this.resolve(source, key, produce).finally(() => this.inFlight.delete(flightKey));
    this.inFlight.set(flightKey, run);
    return run as Promise<Fetched<T>>;
  }

  private async resolve(source: SourceId, key: string, produce: () => Promise<HttpAnswer>): Promise<Fetched> {
    const row = await readCache(this.db, source, key);
    const now = this.now();
    if (row && now.getTime() - row.fetchedAt.getTime() < this.config.sources[source].ttlSeconds * 1000) {
      return { ...row, cache: 'db' };
    }
    let answer: HttpAnswer;
    try {
      answer = await this.limit(source)(produce);
    } catch (err) {
      // Logged with the source and key so operators can see which upstream broke; the
      // caller only ever gets the stale copy or a generic message.
      this.log.warn({ source, key, err: (err as Error).message, stale: Boolean(row) }, 'upstream failed');
      if (row) return { ...row, cache: 'stale' };
      throw new ApiError('upstream_error', 'An upstream data source failed; try again later.');
    }
    const fresh: CachedAnswer = { status: answer.status, body: answer.body, fetchedAt: now };
    await writeCache(this.db, source, key, fresh);
    return { ...fresh, cache: 'live' };
  }

  private limit(source: SourceId): LimitFunction {
    let s = this.limits.get(source);
    if (!s) this.limits.set(source, (s = pLimit(this.config.concurrency)));
    return s;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
