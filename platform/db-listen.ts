/**
 * LISTEN/NOTIFY for `Database.listen` (platform/db.ts hands in its driver objects, so this
 * module imports no driver). PostgreSQL: one dedicated connection per database that
 * LISTENs on every channel asked for and reconnects when it drops, reporting the gap
 * (`state(false)`) so a cache that relies on it stops trusting itself meanwhile. PGlite:
 * the embedded session itself, where a notification arrives before the committing query
 * returns.
 */
import type { ListenHandlers } from './db.ts';

/** The part of a `pg.Client` the listener uses. */
export interface ListenClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
  end(): Promise<void>;
}

/** Channels are spliced into LISTEN, which takes no parameters: plain identifiers only. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new RangeError(`Invalid notification channel: ${channel}`);
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

/** The PostgreSQL side: one connection, every channel, reconnect with backoff. */
export class PgListener {
  private readonly channels = new Map<string, Set<ListenHandlers>>();
  private client: ListenClient | null = null;
  private connecting: Promise<void> | null = null;
  private retryMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly connect: () => Promise<ListenClient>,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Listens on `channel`; resolves after the first attempt to connect, whatever its outcome. */
  async listen(channel: string, handlers: ListenHandlers): Promise<() => void> {
    checkChannel(channel);
    let set = this.channels.get(channel);
    const added = !set;
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(handlers);
    if (this.client && added) {
      await this.client.query(`LISTEN ${channel}`).catch((err: Error) => this.drop(err));
    }
    if (this.client) handlers.state?.(true);
    else await this.start();
    return () => {
      set.delete(handlers);
    };
  }

  /** Connects (once at a time) and LISTENs on every channel; on failure schedules a retry. */
  private start(): Promise<void> {
    this.connecting ??= (async () => {
      let client: ListenClient | null = null;
      try {
        client = await this.connect();
        client.on('notification', (m) => this.dispatch(m.channel, m.payload ?? ''));
        client.on('error', (err) => this.drop(err ?? new Error('listener connection failed')));
        client.on('end', () => this.drop(new Error('listener connection ended')));
        for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
        if (this.closed) {
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        this.retryMs = FIRST_RETRY_MS;
        for (const set of this.channels.values()) for (const h of set) h.state?.(true);
      } catch (err) {
        await client?.end().catch(() => undefined);
        this.onError(err as Error);
        this.retry();
      } finally {
        this.connecting = null;
      }
    })();
    return this.connecting;
  }

  private dispatch(channel: string, payload: string): void {
    for (const h of this.channels.get(channel) ?? []) h.notify(payload);
  }

  /** The connection failed: report the gap, forget the client, reconnect later. */
  private drop(err: Error): void {
    if (this.closed || !this.client) return;
    const client = this.client;
    this.client = null;
    this.onError(err);
    client.end().catch(() => undefined);
    for (const set of this.channels.values()) for (const h of set) h.state?.(false);
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.start();
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** The embedded side: LISTEN on the one session and filter its notifications by channel. */
export async function pgliteListen(
  session: { onNotification(callback: (channel: string, payload: string) => void): () => void },
  exec: (text: string) => Promise<unknown>,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => void> {
  checkChannel(channel);
  const off = session.onNotification((ch, payload) => {
    if (ch === channel) handlers.notify(payload);
  });
  await exec(`LISTEN ${channel}`);
  handlers.state?.(true);
  return off;
}
