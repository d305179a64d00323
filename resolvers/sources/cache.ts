/**
 * The catalogue sources behind every `_meta.sources` block, cached in the process: the
 * table is small and changes only when an ingest commits, the sync worker confirms a
 * source or one is configured, and each of those NOTIFYs `drugref_sources`
 * (migrations/0840_hot_path.sql). The cache trusts itself only while the database reports
 * it is listening; before that, and while the listening connection is down, every read
 * goes to the database. Freshness (`schema_state`) is still derived per request from the
 * clock, so a cached row never shows a stale state.
 */
import type { Database, Queryable } from '../../platform/db.ts';

/** The channel 0840_hot_path.sql notifies on. */
export const SOURCES_CHANNEL = 'drugref_sources';

/** Rows of all sources by id, read fresh by `load`. */
export type SourceRows<R> = Map<string, R>;

/** One database's cache. `load` reads every source row. */
export class SourceCache<R> {
  private rows: Promise<SourceRows<R>> | null = null;
  private listening = false;

  constructor(private readonly load: () => Promise<SourceRows<R>>) {}

  /** Every source row: the cached map while listening, else a fresh read. */
  get(): Promise<SourceRows<R>> {
    if (!this.listening) return this.load();
    if (!this.rows) {
      const loading = this.load();
      this.rows = loading;
      // A failed read is not remembered; the next request tries again.
      loading.catch(() => {
        if (this.rows === loading) this.rows = null;
      });
    }
    return this.rows;
  }

  /**
   * Forgets the rows. A read already under way keeps answering the callers waiting on it
   * (they asked before the change was announced); the next caller reads again.
   */
  invalidate(): void {
    this.rows = null;
  }

  /** Follows the listening state: the cache is used only while notifications arrive. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.rows = null;
  }
}

const caches = new WeakMap<Database, SourceCache<unknown>>();
const subscriptions = new WeakMap<Database, Promise<unknown>>();

function canListen(db: Queryable): db is Database & Required<Pick<Database, 'listen'>> {
  return typeof (db as Partial<Database>).listen === 'function';
}

/**
 * The cache of `db`, created (and subscribed) on first use; null for a transaction or a
 * database that cannot LISTEN, which then read the table every time.
 */
export function sourceCacheFor<R>(db: Queryable, load: () => Promise<SourceRows<R>>): SourceCache<R> | null {
  if (!canListen(db)) return null;
  let cache = caches.get(db) as SourceCache<R> | undefined;
  if (!cache) {
    const created = new SourceCache<R>(load);
    cache = created;
    caches.set(db, created as SourceCache<unknown>);
    subscriptions.set(db, db.listen(SOURCES_CHANNEL, { notify: () => created.invalidate(), state: (on) => created.setListening(on) })
      .catch(() => created.setListening(false)));
  }
  return cache;
}

/**
 * Settles once `db`'s cache has made its first attempt to LISTEN (at once when nothing
 * has asked for sources yet). The connection is opened on first use, in the background;
 * tests that count round trips wait for it.
 */
export async function sourceCacheSettled(db: Database): Promise<void> {
  await subscriptions.get(db);
}
