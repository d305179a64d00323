/** Local fakes speaking the real protocols: an OpenAI-compatible model and a Stripe-style checkout API. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helpers/app.ts';

export interface Recorded {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  url: string;
  seen: Recorded[];
  close(): Promise<void>;
}

/** An HTTP server whose answer to each request is chosen by `answer`. */
export async function startFake(answer: (req: Recorded, index: number) => { status: number; body: unknown }): Promise<FakeServer> {
  const seen: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      const reply = answer(entry, seen.length - 1);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A chat-completions answer carrying text. */
export function textCompletion(content: string) {
  return { id: 'chatcmpl-1', object: 'chat.completion', model: 'fake-model', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] };
}

/** A chat-completions answer asking for one tool call. */
export function toolCompletion(name: string, args: Record<string, unknown>, id = 'call_1') {
  return {
    id: 'chatcmpl-2', object: 'chat.completion', model: 'fake-model',
    choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] } }],
  };
}

export async function accountIdOf(t: TestApp, key: string): Promise<string> {
  const { rows } = await t.db.query<{ account_id: string }>('SELECT account_id FROM api_keys WHERE last_four = $1', [key.slice(-4)]);
  return rows[0]!.account_id;
}
