/**
 * The one database module: a `query` / `transaction` interface over either a `pg.Pool`
 * (DATABASE_URL) or the embedded PGlite, reached through the same `pg` API. Nothing else
 * imports `pg` or PGlite.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { validationError } from './errors.ts';

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs parameterised SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R extends QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
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
  close(): Promise<void>;
}

/**
 * `application_name` of a `stream`'s transaction while it is open. Such a transaction is
 * read-only, so it can never commit a change behind a reader: the change feed's visibility
 * horizon leaves it out and a long export does not hold the feed back.
 */
export const STREAM_APPLICATION_NAME = 'drugref-stream';

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

  constructor(
    readonly kind: 'postgres' | 'pglite',
    private readonly pool: pg.Pool,
    private readonly closeEmbedded?: () => Promise<void>,
    readonly dump?: () => Promise<Blob>,
  ) {}

  async query<R extends QueryResultRow>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    refuseNul(params);
    this.roundTrips++;
    const result = await this.pool.query<R>(text, params);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx = this.clientQueryable(client);
    try {
      await tx.query('BEGIN');
      const result = await fn(tx);
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
    const client = await this.pool.connect();
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
    }
  }

  private clientQueryable(client: PoolClient): Queryable {
    return {
      query: async <R extends QueryResultRow>(text: string, params?: unknown[]) => {
        refuseNul(params);
        this.roundTrips++;
        const result = await client.query<R>(text, params);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.closeEmbedded?.();
  }
}

/** Opens PostgreSQL when `url` is given, else the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const onError = options.onError ?? (() => undefined);
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 });
    pool.on('error', onError);
    return new PoolDatabase('postgres', pool);
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) await mkdir(dirname(dataDir), { recursive: true });
  // pg_trgm must be handed to PGlite on every open, not only when it is created.
  const embedded = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  // PGlite is single-connection: a pool of one, so transactions must use their own client.
  const pool = new pg.Pool({ ...createPgConfig(embedded), max: 1 });
  pool.on('error', onError);
  return new PoolDatabase(
    'pglite',
    pool,
    () => embedded.close(),
    async () => (await embedded.dumpDataDir('none')) as Blob,
  );
}
