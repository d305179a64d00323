/**
 * Read replicas behind the one `Database` interface. Reads go to a streaming replica only
 * inside a replica-read scope (`withReplicaReads`, opened by the HTTP facade around an
 * operation); everything else — workers, CLI, the quota count and key check that precede an
 * operation — runs on the primary. Within a scope the first write (or transaction) pins the
 * rest of the scope to the primary, so a request reads its own writes. A replica that is
 * down, lags past the bound or is not a standby at all is skipped (reported to `onState`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { QueryResultRow } from 'pg';
import type { Database, ListenHandlers, QueryOptions, QueryResult, Queryable, StreamBatch, BulkLoader } from './db.ts';

/** One replica as the health check last saw it. */
export interface ReplicaState {
  /** host:port/database of its URL (never the password). */
  name: string;
  serving: boolean;
  /** Why it is skipped: `down`, `lagging`, `not_standby`; null while serving. */
  reason: 'down' | 'lagging' | 'not_standby' | null;
  /** Replay lag in milliseconds at the last check (null when unknown). */
  lagMs: number | null;
  /** Statements it served. */
  reads: number;
  /** Times it went from serving to skipped. */
  skips: number;
  /** The error of the last failed check or read, when `reason` is `down`. */
  error?: string;
}

export interface ReplicaOptions {
  /** A replica further behind than this is skipped. */
  maxLagMs: number;
  /** How often each replica's health and lag are checked. */
  checkMs: number;
  /** Called when a replica starts or stops serving (the log line). */
  onState?: (state: ReplicaState) => void;
}

interface Scope { pinned: boolean }
const scopes = new AsyncLocalStorage<Scope>();

/**
 * Runs `fn` (and everything it starts) in a replica-read scope: its reads may be served by a
 * replica until it writes. Outside any scope every statement goes to the primary.
 */
export function withReplicaReads<T>(fn: () => T): T {
  return scopes.run({ pinned: false }, fn);
}

/** Words that make a statement a write (or a lock, or a side effect only the primary can hold). */
const WRITES = /\b(insert|update|delete|merge|truncate|copy|create|alter|drop|grant|revoke|lock|listen|notify|nextval|setval|set_config|pg_notify|pg_advisory\w*|for\s+(no\s+key\s+)?(update|share|key\s+share)|call|do|vacuum|analyze|refresh)\b/i;
const READ_START = /^\s*(\(\s*)*(select|with|values|table)\b/i;
/**
 * Reads only the primary can answer: the change feed's visibility horizon looks at the
 * primary's open transactions (pg_stat_activity), and the rows below it must be read where
 * they were committed, so such a statement pins its scope to the primary like a write.
 */
const PRIMARY_ONLY = /\bpg_stat_activity\b/i;
const readOnlyCache = new Map<string, boolean>();
const READ_ONLY_CACHE_MAX = 2_000;

/**
 * True when a replica may run `text`: a SELECT/WITH/VALUES with no writing word anywhere in
 * it and nothing only the primary knows.
 */
export function isReadOnly(text: string): boolean {
  let known = readOnlyCache.get(text);
  if (known === undefined) {
    known = READ_START.test(text) && !WRITES.test(text) && !PRIMARY_ONLY.test(text);
    if (readOnlyCache.size < READ_ONLY_CACHE_MAX) readOnlyCache.set(text, known);
  }
  return known;
}

/** `X/Y` (hex halves of a WAL position) as one number. */
function lsn(text: string | null): bigint | null {
  if (!text) return null;
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** An error worth retrying on the primary: the replica is unreachable or cancelled the read (recovery conflict). */
function replicaFault(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return !code || /^(08|57P|40001|53)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code);
}

interface Replica { db: Database; state: ReplicaState }

/** Primary positions kept for lag measurement (at 1 s checks, 10 minutes of history). */
const HEAD_SAMPLES = 600;

/** The primary plus its replicas, as one `Database`. */
export class ReplicatedDatabase implements Database {
  readonly kind = 'postgres' as const;
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private readonly replicas: Replica[];
  /** The primary's WAL position at each check where it moved, and when it was first seen there. */
  private readonly heads: { lsn: bigint; at: number }[] = [];
  readonly bulkLoad?: <T>(fn: (tx: BulkLoader) => Promise<T>) => Promise<T>;
  readonly listen?: (channel: string, handlers: ListenHandlers) => Promise<() => void>;

  constructor(private readonly primary: Database, replicas: { name: string; db: Database }[], private readonly options: ReplicaOptions) {
    // Taken as serving until `start` checks it (before the database is handed out), so one
    // that is down or lagging from the start gets its log line and skip like any other.
    this.replicas = replicas.map(({ name, db }) => ({ db, state: { name, serving: true, reason: null, lagMs: null, reads: 0, skips: 0 } }));
    if (primary.bulkLoad) this.bulkLoad = primary.bulkLoad.bind(primary);
    if (primary.listen) this.listen = primary.listen.bind(primary);
  }

  get roundTrips(): number {
    return this.replicas.reduce((n, r) => n + r.db.roundTrips, this.primary.roundTrips);
  }

  /** The replicas' states (for /metrics). */
  replicaStates(): ReplicaState[] {
    return this.replicas.map((r) => ({ ...r.state }));
  }

  /** Checks every replica now, then every `checkMs`. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkMs);
    this.timer.unref();
  }

  /** One health check of every replica (concurrent calls share one). */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => { this.checking = null; });
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    const head = await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn').then((r) => lsn(r.rows[0]!.lsn), () => null);
    if (head !== null && head !== this.heads.at(-1)?.lsn) {
      this.heads.push({ lsn: head, at: Date.now() });
      if (this.heads.length > HEAD_SAMPLES) this.heads.shift();
    }
    await Promise.all(this.replicas.map((r) => this.checkOne(r)));
  }

  /**
   * How long the replica has lacked WAL the primary had: the age of the oldest primary
   * position it has not replayed yet (0 when it has replayed them all). Measured against the
   * primary's positions, not replay timestamps, so an idle primary never looks like lag.
   */
  private lagMs(replayed: bigint): number {
    const missing = this.heads.find((h) => h.lsn > replayed);
    return missing ? Date.now() - missing.at : 0;
  }

  private async checkOne(replica: Replica): Promise<void> {
    try {
      const { rows } = await replica.db.query<{ standby: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      const row = rows[0]!;
      if (!row.standby) return this.mark(replica, 'not_standby', null);
      const lagMs = this.lagMs(lsn(row.replayed) ?? 0n);
      this.mark(replica, lagMs > this.options.maxLagMs ? 'lagging' : null, lagMs);
    } catch (err) {
      this.mark(replica, 'down', null, (err as Error).message);
    }
  }

  private mark(replica: Replica, reason: ReplicaState['reason'], lagMs: number | null, error?: string): void {
    const state = replica.state;
    const wasServing = state.serving;
    state.serving = reason === null;
    state.reason = reason;
    state.lagMs = lagMs;
    state.error = error;
    if (wasServing && !state.serving) state.skips++;
    if (wasServing !== state.serving) this.options.onState?.({ ...state });
  }

  /** The next serving replica (round robin), or null: read on the primary. */
  private pick(): Replica | null {
    const scope = scopes.getStore();
    if (!scope || scope.pinned) return null;
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length]!;
      if (replica.state.serving) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return null;
  }

  /** Pins the current scope to the primary: it is about to write. */
  private pin(): void {
    const scope = scopes.getStore();
    if (scope) scope.pinned = true;
  }

  async query<R extends QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    const replica = isReadOnly(text) ? this.pick() : null;
    if (!replica) {
      if (!isReadOnly(text)) this.pin();
      return this.primary.query<R>(text, params, options);
    }
    try {
      const result = await replica.db.query<R>(text, params, options);
      replica.state.reads++;
      return result;
    } catch (err) {
      if (!replicaFault(err)) throw err;
      this.mark(replica, 'down', null, (err as Error).message);
      return this.primary.query<R>(text, params, options);
    }
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.pin();
    return this.primary.transaction(fn);
  }

  stream<R extends QueryResultRow = Record<string, unknown>>(text: string, params: unknown[], options: { batchSize: number }): AsyncGenerator<StreamBatch<R>, void, undefined> {
    // A stream is one read-only transaction: a replica serves it whole, or the primary does.
    const replica = this.pick();
    if (replica) replica.state.reads++;
    return (replica?.db ?? this.primary).stream<R>(text, params, options);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking;
    await Promise.all([this.primary.close(), ...this.replicas.map((r) => r.db.close())]);
  }
}
