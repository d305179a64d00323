/** Reads an NDJSON answer over real HTTP, line by line, as a client would. */
import type { FastifyInstance } from 'fastify';

export interface NdjsonAnswer {
  status: number;
  headers: Headers;
  /** Every parsed line (only when `keep` is true; else empty). */
  lines: Array<Record<string, unknown>>;
  /** Lines read, the closing one included. */
  count: number;
  /** The last line. */
  last: Record<string, unknown> | null;
  /** The raw body when the answer was not 200. */
  text: string;
}

/** The app's base URL, listening on a free local port (once per app). */
export async function baseUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * GETs `url` and parses each line as it arrives (every line must be JSON); `onLine` sees
 * each one. Lines are kept only with `keep`, so a large export is not held in memory.
 */
export async function readNdjson(url: string, headers: Record<string, string>, options: { keep?: boolean; onLine?: (line: Record<string, unknown>) => void } = {}): Promise<NdjsonAnswer> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) return { status: res.status, headers: res.headers, lines: [], count: 0, last: null, text: await res.text() };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const lines: Array<Record<string, unknown>> = [];
  let pending = '';
  let count = 0;
  let last: Record<string, unknown> | null = null;
  const take = (text: string) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    count++;
    last = line;
    if (options.keep) lines.push(line);
    options.onLine?.(line);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      take(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
  }
  if (pending.length) throw new Error(`the stream ended inside a line: ${pending.slice(0, 80)}`);
  return { status: res.status, headers: res.headers, lines, count, last, text: '' };
}
