/**
 * A local fake of every enrichment upstream: one node:http server on 127.0.0.1, each
 * source under its own path prefix (`/rxnav/REST/...`), replaying recorded payloads from
 * test/fixtures/upstreams/. Tests switch a source (or one route) to failing, and read
 * the hit log to prove what reached the "upstream".
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const FIXTURES = fileURLToPath(new URL('../fixtures/upstreams/', import.meta.url));

/** A recorded payload, `rxnav/properties-617312.json`. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(FIXTURES + name, 'utf8')) as unknown;
}

export interface FakeRoute {
  method?: 'GET' | 'POST';
  /** Path including the source prefix, e.g. `/rxnav/REST/rxcui/617312/properties.json`. */
  path: string;
  /** Query parameters that must match exactly (others are ignored). */
  query?: Record<string, string>;
  /** For POST (Open Targets GraphQL): substrings the body must all contain. */
  bodyIncludes?: string | string[];
  status?: number;
  /** Fixture file name, or an inline body. */
  fixture?: string;
  body?: unknown;
  /** Answer only after this many milliseconds (to observe the concurrency cap). */
  delayMs?: number;
}

export interface FakeHit {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  authorization: string | null;
}

export class FakeUpstream {
  readonly hits: FakeHit[] = [];
  /** Path prefixes (e.g. `/rxnav` or `/rxnav/REST/ndcs`) that answer 500 while listed. */
  readonly failing = new Set<string>();
  /** The text a failing upstream sends: tests assert it never reaches a client. */
  static readonly SECRET = 'UPSTREAM-INTERNAL-DETAIL db=prod-7 trace=0xdeadbeef';
  /** Requests being answered right now, and the most at once so far. */
  active = 0;
  maxActive = 0;
  private routes: FakeRoute[] = [];
  private server: Server | null = null;
  url = '';

  /** Adds routes; later routes win over earlier ones with the same match. */
  on(...routes: FakeRoute[]): this {
    this.routes = [...routes, ...this.routes];
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Base URL of one source on this fake. */
  base(source: string): string {
    return `${this.url}/${source}`;
  }

  hitsOf(prefix: string): FakeHit[] {
    return this.hits.filter((h) => h.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const hit = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body, authorization: req.headers.authorization ?? null };
    this.hits.push(hit);
    if ([...this.failing].some((p) => hit.path.startsWith(p))) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(FakeUpstream.SECRET);
      return;
    }
    const route = this.routes.find((r) => matches(r, hit));
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No matches found!' } }));
      return;
    }
    const payload = route.fixture ? fixture(route.fixture) : route.body;
    if (route.delayMs) {
      this.maxActive = Math.max(this.maxActive, ++this.active);
      await new Promise((resolve) => setTimeout(resolve, route.delayMs));
      this.active--;
    }
    res.writeHead(route.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  }
}

function matches(route: FakeRoute, hit: FakeHit): boolean {
  if ((route.method ?? 'GET') !== hit.method || route.path !== hit.path) return false;
  const needles = route.bodyIncludes === undefined ? [] : ([] as string[]).concat(route.bodyIncludes);
  if (!needles.every((n) => hit.body.includes(n))) return false;
  return Object.entries(route.query ?? {}).every(([k, v]) => hit.query[k] === v);
}
