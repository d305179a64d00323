/**
 * The one database module: a `query` / `transaction` interface over either a `pg.Pool`
 * (DATABASE_URL) or the embedded PGlite, reached through the same `pg` API. Nothing else
 * imports `pg` or PGlite.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import type { PoolClient, QueryResultRow } from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { validationError } from './errors.ts';
import { createHash } from 'node:crypto';
import { PgListener, pgliteListen } from './db-listen.ts';
import { pgliteWasmAhead } from './pglite-wasm.ts';
import { SHARE_SOCKET_PORT, SessionGate, shareSession } from './db-share.ts';
import { ReplicatedDatabase } from './db-replicas.ts';
import type { ReplicaState } from './db-replicas.ts';

export { withReplicaReads, ReplicatedDatabase } from './db-replicas.ts';
export type { ReplicaState } from './db-replicas.ts';

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs parameterised SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R extends QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>>;
}

/** How one statement is sent. */
export interface QueryOptions {
  /**
   * Send it as a named prepared statement (parsed once per connection, name derived from
   * the text). Only for hot paths with a fixed text: every distinct text stays prepared on
   * each connection it ran on.
   */
  prepare?: boolean;
}

/** Callbacks of `Database.listen`. */
export interface ListenHandlers {
  /** A NOTIFY on the channel, from any session, delivered after its transaction committed. */
  notify(payload: string): void;
  /**
   * Whether notifications are being received: false while the listening connection is
   * down (notifications may be missed), true again once it listens anew.
   */
  state?(listening: boolean): void;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in BEGIN/COMMIT on one connection; ROLLBACK when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Reads a query's rows through a server-side cursor (`DECLARE … NO SCROLL CURSOR` and
   * `FETCH batchSize`) in one read-only REPEATABLE READ transaction on one connection, so
   * memory holds one batch however many rows match. Each batch comes with that
   * transaction, for follow-up reads of the same snapshot (on PGlite it is the only
   * connection). Ending the iteration early (`return()`, e.g. a client that went away)
   * closes the transaction and releases the connection.
   */
  stream<R extends QueryResultRow = Record<string, unknown>>(text: string, params: unknown[], options: { batchSize: number }): AsyncGenerator<StreamBatch<R>, void, undefined>;
  /** Round trips made so far (tests assert deterministic query counts with it). */
  readonly roundTrips: number;
  /** The embedded database's files as a tarball (PGlite only), to clone it fast in tests. */
  dump?(): Promise<Blob>;
  /**
   * Bulk load (PostgreSQL only; undefined on PGlite): runs `fn` in BEGIN/COMMIT on one
   * connection, where `tx.copyFrom` streams text-format rows into `COPY <target> FROM STDIN`.
   */
  bulkLoad?<T>(fn: (tx: BulkLoader) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` (a lower-case identifier) and calls `handlers.notify` for each
   * NOTIFY; resolves once listening, to a function that stops. PostgreSQL: one dedicated
   * connection per database, reconnecting when it drops (`state(false)` until then).
   * PGlite: the embedded session, so a notification arrives before the committing query returns.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<() => void>;
  /** The read replicas' states (PostgreSQL with DATABASE_REPLICA_URLS only). */
  replicaStates?(): ReplicaState[];
  close(): Promise<void>;
}

/** The transaction of `bulkLoad`: queries plus COPY FROM STDIN. */
export interface BulkLoader extends Queryable {
  /** Streams `rows` (COPY text format, each ending in a newline) into `COPY ${target} FROM STDIN`; returns the rows copied. */
  copyFrom(target: string, rows: AsyncIterable<string> | Iterable<string>): Promise<number>;
}

/**
 * One statement as the database ran it, for an opt-in listener (`onQuery`, set only by the
 * benchmark to replay a route's exact SQL). `tx` numbers the transaction or stream it ran
 * in (null for a pooled statement); times are `performance.now()` milliseconds.
 */
export interface QueryEvent {
  text: string;
  params: unknown[] | undefined;
  tx: number | null;
  /** Sent as a named prepared statement (`QueryOptions.prepare`). */
  prepare?: boolean;
  /** The replica (host:port/database) that ran it; absent for the primary. */
  replica?: string;
  startedAt: number;
  endedAt: number;
}

/**
 * `application_name` of a `stream`'s transaction while it is open. Such a transaction is
 * read-only, so it can never commit a change behind a reader: the change feed's visibility
 * horizon leaves it out and a long export does not hold the feed back.
 */
export const STREAM_APPLICATION_NAME = 'drugref-stream';

/** `application_name` of the connection `listen` holds open on PostgreSQL. */
export const LISTEN_APPLICATION_NAME = 'drugref-listen';

/** One batch of a `stream`: its rows and the transaction they were read in. */
export interface StreamBatch<R> {
  rows: R[];
  tx: Queryable;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent the embedded database is used. */
  url?: string | null;
  /** PGlite data folder, or `memory://`. */
  dataDir?: string;
  /** A PGlite data-folder tarball to start from (a migrated template). */
  loadDataDir?: Blob;
  /** Pool size for PostgreSQL. */
  max?: number;
  onError?: (err: Error) => void;
  /** Called after each statement (the benchmark's statement recorder); absent in the service. */
  onQuery?: (event: QueryEvent) => void;
  /**
   * PostgreSQL only: streaming replicas of `url` that serve the reads of replica-read scopes
   * (platform/db-replicas.ts). Ignored without `url`: the embedded database has no replicas.
   */
  replicaUrls?: string[];
  /** A replica further behind the primary than this is skipped (default 5,000 ms). */
  replicaMaxLagMs?: number;
  /** How often replicas are checked (default 1,000 ms). */
  replicaCheckMs?: number;
  /** Called when a replica starts or stops serving reads. */
  onReplicaState?: (state: ReplicaState) => void;
  /**
   * Embedded only: also serve the database to other local processes on a Unix socket in
   * this folder (platform/db-share.ts), so CLI commands work beside a running server.
   */
  shareDir?: string;
  /**
   * Reach an embedded database that another process shares from this folder (its
   * `shareDir`), over `pg`; it behaves as the embedded database (kind `pglite`).
   */
  sharedBy?: string;
}

/**
 * PostgreSQL text cannot hold U+0000 and refuses the whole statement. The facades refuse NUL in
 * every declared field first; this is the net under every other path (public GraphQL
 * arguments, register data), so a NUL is a 422 `validation`, never a database error.
 */
function refuseNul(params: unknown[] | undefined): void {
  if (params?.some((p) => typeof p === 'string' ? p.includes('\u0000') : Array.isArray(p) && p.some((v) => typeof v === 'string' && v.includes('\u0000')))) {
    throw validationError('Invalid request: a text value contains a NUL (U+0000) character.');
  }
}

class PoolDatabase implements Database {
  roundTrips = 0;
  onQuery?: (event: QueryEvent) => void;
  /** The shared embedded session's turn-taking (db-share.ts); each operation takes a turn. */
  gate?: SessionGate;
  /** Named prepared statements off: another process shares the session and its names. */
  noPrepare = false;
  private txCount = 0;

  constructor(
    readonly kind: 'postgres' | 'pglite',
    private readonly pool: pg.Pool,
    private readonly closeEmbedded?: () => Promise<void>,
    readonly dump?: () => Promise<Blob>,
  ) {}

  async query<R extends QueryResultRow>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    refuseNul(params);
    this.roundTrips++;
    const startedAt = this.onQuery ? performance.now() : 0;
    const send = () => options?.prepare && !this.noPrepare
      ? this.pool.query<R>({ name: statementName(text), text, values: params ?? [] })
      : this.pool.query<R>(text, params);
    const result = this.gate ? await this.gate.run(send) : await send();
    this.onQuery?.({ text, params, tx: null, prepare: options?.prepare === true, startedAt, endedAt: performance.now() });
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.onClientInTransaction((_client, tx) => fn(tx));
  }

  /** BEGIN/COMMIT on one pooled client, ROLLBACK on error, released in every case. */
  private async onClientInTransaction<T>(fn: (client: PoolClient, tx: Queryable) => Promise<T>): Promise<T> {
    if (this.gate) return this.gate.run(() => this.inTransaction(fn));
    return this.inTransaction(fn);
  }

  private async inTransaction<T>(fn: (client: PoolClient, tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx = this.clientQueryable(client);
    try {
      await tx.query('BEGIN');
      const result = await fn(client, tx);
      await tx.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async *stream<R extends QueryResultRow>(text: string, params: unknown[], options: { batchSize: number }): AsyncGenerator<StreamBatch<R>, void, undefined> {
    const batchSize = options.batchSize;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
    refuseNul(params);
    const turn = {};
    await this.gate?.acquire(turn);
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      this.gate?.release(turn);
      throw err;
    }
    const tx = this.clientQueryable(client);
    let done = false;
    try {
      await tx.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await tx.query(`SET LOCAL application_name = '${STREAM_APPLICATION_NAME}'`);
      await tx.query(`DECLARE drugref_stream NO SCROLL CURSOR FOR ${text}`, params);
      for (;;) {
        const { rows } = await tx.query<R>(`FETCH ${batchSize} FROM drugref_stream`);
        if (rows.length) yield { rows, tx };
        if (rows.length < batchSize) break;
      }
      await tx.query('CLOSE drugref_stream');
      await tx.query('COMMIT');
      done = true;
    } finally {
      // Early return or failure: nothing was written, so ROLLBACK is the cheap, safe end.
      if (!done) await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      this.gate?.release(turn);
    }
  }

  private clientQueryable(client: PoolClient): Queryable {
    const tx = ++this.txCount;
    return {
      query: async <R extends QueryResultRow>(text: string, params?: unknown[]) => {
        refuseNul(params);
        this.roundTrips++;
        const startedAt = this.onQuery ? performance.now() : 0;
        const result = await client.query<R>(text, params);
        this.onQuery?.({ text, params, tx, startedAt, endedAt: performance.now() });
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    };
  }

  /** `Database.bulkLoad`, attached to PostgreSQL databases only (PGlite has no COPY FROM STDIN over the pg API). */
  bulkLoadOnPostgres<T>(fn: (tx: BulkLoader) => Promise<T>): Promise<T> {
    return this.onClientInTransaction((client, tx) => {
      const copyFrom = async (target: string, rows: AsyncIterable<string> | Iterable<string>): Promise<number> => {
        this.roundTrips++;
        const stream = client.query(copyFromStdin(`COPY ${target} FROM STDIN`));
        await pipeline(Readable.from(rows), stream);
        return stream.rowCount;
      };
      return fn({ query: tx.query, copyFrom });
    });
  }

  /** `Database.listen`, attached by `openDatabase` for the backend. */
  listen?: (channel: string, handlers: ListenHandlers) => Promise<() => void>;
  /** Stops `listen`'s connection (PostgreSQL). */
  closeListener?: () => Promise<void>;

  /** Stops sharing the embedded database (db-share.ts), before the database closes. */
  closeShare?: () => Promise<void>;

  async close(): Promise<void> {
    await this.closeShare?.();
    await this.closeListener?.();
    await this.pool.end();
    await this.closeEmbedded?.();
  }
}

const statementNames = new Map<string, string>();

/** A prepared statement's name: a digest of its text, so one name never stands for two texts. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `drugref_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Opens PostgreSQL when `url` is given (with its replicas, if any), else the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const onError = options.onError ?? (() => undefined);
  if (options.url) {
    const primary = openPostgres(options.url, options, onError);
    if (!options.replicaUrls?.length) return primary;
    const replicas = options.replicaUrls.map((url) => {
      const name = replicaName(url);
      const onQuery = options.onQuery;
      return { name, db: openPostgres(url, { ...options, onQuery: onQuery && ((e) => onQuery({ ...e, replica: name })) }, onError, false) };
    });
    const db = new ReplicatedDatabase(primary, replicas, {
      maxLagMs: options.replicaMaxLagMs ?? 5_000,
      checkMs: options.replicaCheckMs ?? 1_000,
      onState: options.onReplicaState,
    });
    await db.start();
    return db;
  }
  if (options.sharedBy) return openShared(options.sharedBy, onError, options.onQuery);
  return openEmbedded(options, onError);
}

/** A replica's URL as logged and labelled: host, port and database, never the credentials. */
function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

/** One PostgreSQL server's pool; the primary also gets LISTEN and bulk load. */
function openPostgres(url: string, options: DatabaseOptions, onError: (err: Error) => void, primary = true): PoolDatabase {
  // JIT off: every statement here is short, but the typeahead's gated tiers carry large
  // cost estimates for branches that rarely run, and on a million products PostgreSQL
  // spent ~10 s compiling each of them (docs/performance.md, "Large catalogue").
  // A replica that does not answer is skipped after 2 s rather than holding a read.
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, options: '-c jit=off', ...(primary ? {} : { connectionTimeoutMillis: 2_000 }) });
  pool.on('error', onError);
  const db = new PoolDatabase('postgres', pool);
  db.onQuery = options.onQuery;
  if (!primary) return db;
  const listener = new PgListener(async () => {
    const client = new pg.Client({ connectionString: url, application_name: LISTEN_APPLICATION_NAME });
    await client.connect();
    return client;
  }, onError);
  db.listen = (channel, handlers) => listener.listen(channel, handlers);
  db.closeListener = () => listener.close();
  return Object.assign(db, { bulkLoad: db.bulkLoadOnPostgres.bind(db) });
}

/**
 * The embedded database another process shares (db-share.ts): one connection, as the
 * embedded database has; no named statements, whose names the sharing process also uses;
 * no LISTEN, since notifications go to the sharing process.
 */
async function openShared(dir: string, onError: (err: Error) => void, onQuery?: (event: QueryEvent) => void): Promise<Database> {
  const pool = new pg.Pool({ host: dir, port: SHARE_SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1 });
  pool.on('error', onError);
  const db = new PoolDatabase('pglite', pool);
  db.onQuery = onQuery;
  db.noPrepare = true;
  await db.query('SELECT 1');
  return db;
}

async function openEmbedded(options: DatabaseOptions, onError: (err: Error) => void): Promise<Database> {
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) await mkdir(dirname(dataDir), { recursive: true });
  // pg_trgm and fuzzystrmatch (LASA names, 0830_lasa.sql) must be handed to PGlite on every open, not only when created.
  const pgliteWasmModule = await pgliteWasmAhead();
  const embedded = await PGlite.create({
    dataDir,
    extensions: { pg_trgm, fuzzystrmatch },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
  });
  // PGlite is single-connection: a pool of one, so transactions must use their own client.
  const pool = new pg.Pool({ ...createPgConfig(embedded), max: 1 });
  pool.on('error', onError);
  const db = new PoolDatabase(
    'pglite',
    pool,
    () => embedded.close(),
    async () => (await embedded.dumpDataDir('none')) as Blob,
  );
  db.onQuery = options.onQuery;
  if (options.shareDir) await startShare(embedded, db, options.shareDir, onError);
  const exec = (text: string) => (db.gate ? db.gate.run(() => pool.query(text)) : pool.query(text));
  // PGlite delivers a NOTIFY to `onNotification` whichever connection's transaction sent it.
  db.listen = (channel, handlers) => pgliteListen(embedded, exec, channel, handlers);
  return db;
}

/**
 * Shares the embedded session on a socket in `dir`; from then on every operation of `db`
 * takes its turn at the session. A socket that cannot be opened (e.g. a folder path too
 * long for a Unix socket) is reported to `onError` and the database stays private.
 */
async function startShare(embedded: PGlite, db: PoolDatabase, dir: string, onError: (err: Error) => void): Promise<void> {
  const gate = new SessionGate();
  const session = { execProtocolRaw: (m: Uint8Array) => embedded.execProtocolRaw(m), runExclusive: <T>(fn: () => Promise<T>) => embedded.runExclusive(fn) };
  try {
    const share = await shareSession(session, gate, dir);
    db.gate = gate;
    db.closeShare = () => share.close();
  } catch (err) {
    onError(new Error(`The embedded database is not shared with other processes: ${(err as Error).message}`));
  }
}
