/**
 * Shares the embedded database with other local processes: a PostgreSQL wire-protocol
 * listener on a Unix socket beside the data folder, so `drugref keys create` and the other
 * commands work while `drugref serve` holds the folder, and their writes are the server's
 * own rows at once (one database, no copy). platform/db.ts hands in the PGlite session; this
 * module imports no driver.
 *
 * PGlite runs one backend session. Every statement of every connection, the host process's
 * included, runs in it, so one connection's transaction must not be entered by another:
 * a `SessionGate` hands the session to one owner at a time, and a socket connection keeps
 * it from its first message until the backend reports "idle" again (ReadyForQuery 'I'),
 * which spans a whole BEGIN … COMMIT and a whole Parse … Sync exchange.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The socket file's name: what libpq and `pg` derive from `host=<folder>` and port 5432. */
export const SHARE_SOCKET_PORT = 5432;
export const SHARE_SOCKET_NAME = `.s.PGSQL.${SHARE_SOCKET_PORT}`;

/**
 * A connection that holds the session mid-transaction and then goes quiet this long is
 * closed (and rolled back), so a stuck client cannot stall the server's requests for ever.
 */
const IDLE_IN_TRANSACTION_MS = 30_000;

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;

/** The part of a PGlite instance the bridge uses. */
export interface SharedSession {
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** Hands the one backend session to one owner at a time, in arrival order. */
export class SessionGate {
  private owner: object | null = null;
  private readonly waiting: { owner: object; resolve: () => void }[] = [];

  /** Resolves once `owner` holds the session (at once when it already does). */
  async acquire(owner: object): Promise<void> {
    if (this.owner === owner) return;
    if (this.owner === null && this.waiting.length === 0) {
      this.owner = owner;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push({ owner, resolve }));
  }

  /** Passes the session on to the next waiting owner; a no-op for a non-holder. */
  release(owner: object): void {
    if (this.owner !== owner) return;
    const next = this.waiting.shift();
    this.owner = next?.owner ?? null;
    next?.resolve();
  }

  /** Runs `fn` holding the session as an owner of its own. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const owner = {};
    await this.acquire(owner);
    try {
      return await fn();
    } finally {
      this.release(owner);
    }
  }
}

/**
 * The transaction status of a reply's last ReadyForQuery ('I' idle, 'T' in a transaction,
 * 'E' in a failed one), or null when it has none (mid extended-query exchange). Walks the
 * backend messages: type byte, int32 length including itself, body.
 */
export function readyStatus(reply: Uint8Array): string | null {
  const buf = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  let status: string | null = null;
  let at = 0;
  while (at + 5 <= buf.length) {
    if (buf[at] === 0x5a) status = String.fromCharCode(buf[at + 5]!);
    at += 1 + buf.readInt32BE(at + 1);
  }
  return status;
}

/** Splits complete frontend messages off `buf`; the first of a connection has no type byte. */
function takeMessages(buf: Buffer, started: boolean): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let at = 0;
  for (;;) {
    const headed = started || messages.length > 0;
    const lengthAt = headed ? at + 1 : at;
    if (lengthAt + 4 > buf.length) break;
    const end = lengthAt + buf.readInt32BE(lengthAt);
    if (end > buf.length) break;
    messages.push(buf.subarray(at, end));
    at = end;
  }
  return { messages, rest: buf.subarray(at) };
}

const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const ROLLBACK = (() => {
  const text = Buffer.from('ROLLBACK\0');
  const head = Buffer.alloc(5);
  head.write('Q');
  head.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([head, text]);
})();

/** One socket client: forwards its messages into the session while holding the gate. */
class ShareConnection {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;
  private holding = false;
  private chain: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly session: SharedSession,
    private readonly gate: SessionGate,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => { this.chain = this.chain.then(() => this.end()); });
  }

  private receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    const { messages, rest } = takeMessages(this.pending, this.started);
    this.pending = rest;
    for (const message of messages) {
      const first = !this.started;
      this.started = true;
      this.chain = this.chain.then(() => this.handle(message, first)).catch(() => { this.socket.destroy(); });
    }
  }

  private async handle(message: Buffer, first: boolean): Promise<void> {
    if (first && message.length === 8 && message.readInt32BE(4) === SSL_REQUEST) {
      this.started = false; // the real startup message follows
      this.socket.write('N');
      return;
    }
    if (first && message.readInt32BE(4) === CANCEL_REQUEST) return void this.socket.end();
    if (!first && message[0] === 0x58) return void this.socket.end(); // Terminate
    this.clearIdle();
    await this.gate.acquire(this);
    this.holding = true;
    const reply = await this.session.runExclusive(() => this.session.execProtocolRaw(message));
    if (!this.socket.destroyed) this.socket.write(reply);
    // PGlite hands the NOTIFYs of this reply to its own listeners (the host's LISTENs) itself.
    if (readyStatus(reply) === 'I') this.letGo();
    else this.idleTimer = setTimeout(() => this.socket.destroy(), IDLE_IN_TRANSACTION_MS);
  }

  private letGo(): void {
    this.holding = false;
    this.gate.release(this);
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** A client gone mid-exchange: end its extended query and its transaction, then let go. */
  private async end(): Promise<void> {
    this.clearIdle();
    if (!this.holding) return;
    await this.session.runExclusive(async () => {
      await this.session.execProtocolRaw(SYNC);
      await this.session.execProtocolRaw(ROLLBACK);
    }).catch(() => undefined);
    this.letGo();
  }
}

/** A running share: its socket folder and how to stop it. */
export interface DatabaseShare {
  /** The folder holding the socket: `host` for a `pg` client (port 5432). */
  readonly dir: string;
  close(): Promise<void>;
}

/**
 * Listens on `<dir>/.s.PGSQL.5432`. A socket file left by a process that died is removed
 * first: the caller holds the data folder's lock, so no live process owns it.
 */
export async function shareSession(session: SharedSession, gate: SessionGate, dir: string): Promise<DatabaseShare> {
  const path = join(dir, SHARE_SOCKET_NAME);
  await rm(path, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new ShareConnection(socket, session, gate);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => { server.off('error', reject); resolve(); });
  });
  return {
    dir,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}
