/**
 * Sends a valid request for every operation of the OpenAPI document, and the documented
 * refusals, through Stoplight Prism's validating proxy to a running drugref, and prints
 * every answer (or request) Prism finds at odds with the document, then the counts.
 *
 *   DRUGREF_URL=http://127.0.0.1:3000 DRUGREF_KEY=svc_live_… DRUGREF_NARROW_KEY=svc_live_… \
 *     node --import tsx bench/prism-run.ts
 *
 * DRUGREF_KEY is the demo key `npm start` prints on an empty DATA_DIR (the demo catalogue
 * supplies the values); DRUGREF_NARROW_KEY a key without interactions:write (`drugref keys
 * create --tier developer --account prism-narrow`, an account of its own), for the 403.
 * Prism runs through `npx -y @stoplight/prism-cli@5`
 * (not a dependency): once validating requests, for the valid calls, and once with
 * `--validate-request=false`, so the refusals reach drugref and its answers are checked.
 * The 429 comes last: the keyless document is fetched past PUBLIC_RATE_LIMIT_PER_MINUTE.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusalCalls, validCalls } from './prism-calls.ts';
import type { Call, Sample } from './prism-calls.ts';

const upstream = (process.env.DRUGREF_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const key = process.env.DRUGREF_KEY ?? '';
const narrowKey = process.env.DRUGREF_NARROW_KEY ?? '';
const port = Number(process.env.PRISM_PORT ?? 4010);
if (!key || !narrowKey) throw new Error('set DRUGREF_KEY (the demo key) and DRUGREF_NARROW_KEY (a developer-tier key)');

function startPrism(document: string, at: number, validateRequest: boolean): ChildProcess {
  const args = ['-y', '@stoplight/prism-cli@5', 'proxy', '--errors', '-p', String(at), '-v', 'error', document, upstream];
  if (!validateRequest) args.push('--validate-request=false');
  return spawn('npx', args, { stdio: ['ignore', 'inherit', 'inherit'] });
}

async function waitFor(base: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      await fetch(`${base}/v1/openapi.json`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`Prism did not start at ${base}`);
}

async function send(base: string, call: Call): Promise<Response> {
  const headers: Record<string, string> = {};
  const sent = call.key === undefined ? key : call.key;
  if (sent) headers.authorization = `Bearer ${sent}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.accept) headers.accept = call.accept;
  return fetch(`${base}${call.path}`, { method: call.method, headers, body: call.body === undefined ? null : JSON.stringify(call.body) });
}

/** Prism's own error answer (a violation under --errors), or null for drugref's answer. */
async function violation(res: Response): Promise<string | null> {
  const text = await res.text();
  if (!/problem\+json/.test(res.headers.get('content-type') ?? '')) return null;
  const body = JSON.parse(text) as { type?: string; detail?: string; validation?: Array<{ location?: string[]; message?: string }> };
  if (!body.type?.startsWith('https://stoplight.io/prism/errors')) return null;
  const found = (body.validation ?? []).map((v) => `${(v.location ?? []).join('.')}: ${v.message}`);
  return `${body.type.split('#')[1]}: ${found.length ? found.join('; ') : body.detail}`;
}

async function sample(): Promise<Sample> {
  const get = async (path: string): Promise<unknown> => (await fetch(`${upstream}${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
  const drug = await get('/v1/drugs/lookup?system=pzn&code=19581324') as { id: string; ingredients: Array<{ unii: string }> };
  const classes = await get('/v1/classes?system=epc&q=vitamin') as { results: Array<{ code: string }> };
  return { drugId: drug.id, unii: drug.ingredients[0]!.unii, classCode: classes.results[0]!.code };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'drugref-prism-'));
  const document = join(dir, 'openapi.json');
  await writeFile(document, await (await fetch(`${upstream}/v1/openapi.json`)).text());
  const strict = startPrism(document, port, true);
  const lenient = startPrism(document, port + 1, false);
  let calls = 0;
  let violations = 0;
  let refusedByPrism = 0;
  const check = async (base: string, call: Call) => {
    calls++;
    const res = await send(base, call);
    const found = await violation(res);
    const expected = call.refusal && res.status !== call.refusal && !found ? ` (expected ${call.refusal})` : '';
    // Prism's VIOLATIONS concern drugref's answer; its other errors refuse the request before it reaches drugref.
    if (found?.startsWith('VIOLATIONS')) violations++;
    else if (found) refusedByPrism++;
    if (found || expected) console.log(`${call.method} ${call.path} → ${res.status}${expected}${found ? `\n    ${found}` : ''}`);
  };
  try {
    await Promise.all([waitFor(`http://127.0.0.1:${port}`), waitFor(`http://127.0.0.1:${port + 1}`)]);
    for (const call of validCalls(await sample())) await check(`http://127.0.0.1:${port}`, call);
    for (const call of refusalCalls(narrowKey)) await check(`http://127.0.0.1:${port + 1}`, call);
    await tooMany(`http://127.0.0.1:${port + 1}`, check);
  } finally {
    strict.kill();
    lenient.kill();
  }
  console.log(`calls: ${calls}, answers violating the document: ${violations}, requests Prism answered itself: ${refusedByPrism}`);
}

/** The keyless document fetched until the per-IP budget answers 429; that answer checked. */
async function tooMany(base: string, check: (base: string, call: Call) => Promise<void>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${upstream}/.well-known/jwks.json`);
    await res.arrayBuffer();
    if (res.status === 429) break;
  }
  await check(base, { method: 'GET', path: '/.well-known/jwks.json', key: null, refusal: 429 });
}

await main();
