/**
 * A fake register publisher on 127.0.0.1 for sync tests. Each path serves a file with an
 * ETag and Last-Modified, answers conditional requests with 304 like a real web server, and
 * misbehaves on demand: a status, a hang past the client's timeout, a truncated body, an
 * endless body without Content-Length, or a delay (to make two workers overlap).
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync } from 'node:zlib';

export type Misbehaviour = { status: number } | 'hang' | 'truncate' | 'endless' | { delayMs: number };

export interface PublisherHit {
  path: string;
  headers: IncomingHttpHeaders;
  answered: number | 'hang';
}

interface Served {
  body: Buffer;
  etag: string;
  lastModified: string;
}

export class FakePublisher {
  readonly hits: PublisherHit[] = [];
  /** Misbehaviour per path, used until removed. */
  readonly misbehave = new Map<string, Misbehaviour>();
  url = '';
  private readonly files = new Map<string, Served>();
  private server: Server | null = null;
  private version = 0;

  /** Publishes `body` at `path` with a fresh ETag and Last-Modified (a new release). */
  publish(path: string, body: Buffer): this {
    this.version++;
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    const lastModified = new Date(Date.UTC(2026, 10, 1) + this.version * 60_000).toUTCString();
    this.files.set(path, { body, etag, lastModified });
    return this;
  }

  hitsOf(path: string): PublisherHit[] {
    return this.hits.filter((h) => h.path === path);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => this.answer(req.url ?? '/', req.headers, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(path: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const hit: PublisherHit = { path, headers, answered: 200 };
    this.hits.push(hit);
    const file = this.files.get(path);
    const bad = this.misbehave.get(path);
    if (bad === 'hang') {
      hit.answered = 'hang';
      return;
    }
    if (bad && typeof bad === 'object' && 'status' in bad) {
      hit.answered = bad.status;
      res.writeHead(bad.status, { 'content-type': 'text/plain' }).end('publisher failure');
      return;
    }
    if (!file) {
      hit.answered = 404;
      res.writeHead(404).end('not found');
      return;
    }
    if (bad === 'endless') return this.endless(res);
    const fresh = headers['if-none-match'] === file.etag || (!headers['if-none-match'] && headers['if-modified-since'] === file.lastModified);
    if (fresh && !bad) {
      hit.answered = 304;
      res.writeHead(304, { etag: file.etag, 'last-modified': file.lastModified }).end();
      return;
    }
    const body = bad === 'truncate' ? file.body.subarray(0, Math.floor(file.body.length / 2)) : file.body;
    const send = () => res.writeHead(200, { etag: file.etag, 'last-modified': file.lastModified, 'content-length': body.length }).end(body);
    if (bad && typeof bad === 'object' && 'delayMs' in bad) setTimeout(send, bad.delayMs);
    else send();
  }

  /** 64 KiB chunks with no Content-Length until the client gives up. */
  private endless(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const pump = () => {
      while (res.write(chunk)) if (res.destroyed) return;
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  }
}

/** A zip archive (deflated entries) built in memory, as publishers ship their releases. */
export function buildZip(entries: Array<{ name: string; content: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, content } of entries) {
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
