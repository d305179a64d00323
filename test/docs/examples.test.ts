/**
 * Every example request of the README and docs/*.md, sent over HTTP to one app serving the
 * demo catalogue as `npm start` does (demo catalogue, interaction set, ECB rates, the demo
 * account's Enterprise key), and held to what the page says: the status it names (a 2xx when
 * it names none) and the answer it shows. A page edited to a code the demo lacks fails here.
 * Upstreams the service calls (licensed providers, checkout, enrichment sources) are local
 * fakes, as in their own tests.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoAccount, ensureDemoCatalogue } from '../../cli/demo.ts';
import { updateDemoCatalogue } from '../../cli/demo-catalogue.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { containsShape, documentationFiles, htmlSteps, jqPath, readSteps } from './doc-examples.ts';
import type { DocStep } from './doc-examples.ts';
import { startExampleUpstreams } from './example-upstreams.ts';
import type { ExampleUpstreams } from './example-upstreams.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Hosts the pages use for "this server"; anything else in an example is a mistake. */
const SERVER_ORIGINS = ['https://drugref.example', 'https://api.example', 'http://localhost:3000'];

let t: TestApp;
let upstreams: ExampleUpstreams;
let base = '';
let key = '';
let demoUpdated = false;

beforeAll(async () => {
  upstreams = await startExampleUpstreams();
  const db = await openTestDatabase({ demo: true });
  await ensureDemoCatalogue(db);
  key = (await ensureDemoAccount(db)).lines[0]!.replace('Demo API key: ', '');
  t = await startTestApp({ db, config: { ...upstreams.config, webhookAllowPrivateTargets: true } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await t?.db.close();
  await upstreams?.close();
});

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The variables a page may use: the reader's own setup, then what earlier steps read. */
function pageVariables(): Map<string, string> {
  return new Map([['KEY', key], ['DRUGREF_KEY', key], ['BASE', base], ['H', `Authorization: Bearer ${key}`]]);
}

function onThisServer(url: string): string {
  const origin = SERVER_ORIGINS.find((o) => url.startsWith(o));
  if (origin) return base + url.slice(origin.length);
  if (url.startsWith(base)) return url;
  throw new Error(`the example sends to ${url}, not to this server ($BASE or ${SERVER_ORIGINS.join(', ')})`);
}

/** A curl command line as curl would send it (the options the pages use). */
function curlRequest(text: string, vars: Map<string, string>): Request {
  const missing: string[] = [];
  const words = parse(text, (name) => {
    if (!vars.has(name)) missing.push(name);
    return vars.get(name) ?? '';
  });
  if (missing.length) throw new Error(`the example uses $${missing.join(', $')}, which no step before it sets`);
  const request: Request = { method: '', url: '', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (typeof word !== 'string') {
      if ('comment' in word || ('op' in word && word.op === '>')) break;
      throw new Error(`unsupported shell syntax in the example: ${JSON.stringify(word)}`);
    }
    if (word === '-X') request.method = String(words[++i]);
    else if (word === '-H') {
      const header = String(words[++i]);
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-d' || word === '--data') request.body = String(words[++i]);
    else if (/^-[sN]+$/.test(word)) continue;
    else if (word.startsWith('-')) throw new Error(`curl option ${word} is not known to the examples test`);
    else request.url = word;
  }
  if (request.body !== undefined) request.headers['content-type'] ??= 'application/x-www-form-urlencoded';
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  if (/<[a-z0-9_|]+>/i.test(request.url + (request.body ?? ''))) {
    throw new Error('the example holds a placeholder: read the value from an earlier answer (NAME=$(curl … | jq -r .field))');
  }
  return { ...request, url: onThisServer(request.url) };
}

async function send(request: Request): Promise<{ status: number; text: string; json: unknown }> {
  const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? null });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text) as unknown;
  } catch { /* NDJSON, SDL, HTML: compared as text only */ }
  return { status: res.status, text, json };
}

/** `NAME=$(curl … | jq -r PATH)`, `NAME=$(date …)` or `NAME=value`. */
async function assign(step: DocStep, vars: Map<string, string>): Promise<void> {
  const [, name, rest] = /^([A-Z_][A-Z0-9_]*)=(.*)$/s.exec(step.text)!;
  if (['KEY', 'DRUGREF_KEY', 'BASE', 'H'].includes(name!)) return; // the reader's setup: the test's own values
  const command = /^\$\((.*)\)(\s+#.*)?$/s.exec(rest!)?.[1];
  if (command === undefined) {
    vars.set(name!, String(parse(rest!)[0] ?? ''));
    return;
  }
  if (/^date\s/.test(command)) {
    vars.set(name!, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
    return;
  }
  const piped = /^(curl\s.*?)\s*\|\s*jq -r ('?)(\S+?)\2$/s.exec(command);
  if (!piped) throw new Error(`the examples test reads a value with NAME=$(curl … | jq -r PATH), not: ${command}`);
  const answer = await send(curlRequest(piped[1]!, vars));
  expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(300);
  const value = jqPath(answer.json, piped[3]!);
  expect(value, `${piped[3]} of ${answer.text.slice(0, 500)}`).not.toBeNull();
  vars.set(name!, String(value));
}

/**
 * Why a 2xx answer shows nothing the example promises (a search that finds nothing, a FHIR
 * `result` false, an empty expansion), or null. Pages that mean such an answer show it.
 */
function emptyAnswer(json: unknown): string | null {
  if (!json || typeof json !== 'object') return null;
  const body = json as Record<string, unknown>;
  if (body.count === 0 || (Array.isArray(body.results) && body.results.length === 0)) return 'the search finds nothing in the demo catalogue';
  if (body.resourceType === 'Parameters' && Array.isArray(body.parameter)
    && (body.parameter as { name?: string; valueBoolean?: boolean }[]).some((p) => p.name === 'result' && p.valueBoolean === false)) return 'the FHIR answer is result false';
  const expansion = body.expansion as { contains?: unknown[] } | undefined;
  if (body.resourceType === 'ValueSet' && !expansion?.contains?.length) return 'the expansion is empty';
  return null;
}

async function runStep(step: DocStep, vars: Map<string, string>): Promise<void> {
  if (step.kind === 'assign') return assign(step, vars);
  if (step.kind === 'command') {
    // A feed example reads the changes a demo update writes (from a SINCE taken before it).
    if (vars.has('SINCE') && !demoUpdated) await updateDemoCatalogue(t.db);
    demoUpdated ||= vars.has('SINCE');
    return;
  }
  const request = step.kind === 'curl'
    ? curlRequest(step.text, vars)
    : { method: step.text.split(' ')[0]!, url: base + step.text.split(' ')[1]!, headers: { authorization: `Bearer ${key}` } };
  const answer = await send(request);
  const where = `${step.file}:${step.line} answered ${answer.status}: ${answer.text.slice(0, 600)}`;
  if (step.status !== null) expect(answer.status, where).toBe(step.status);
  else expect(answer.status >= 200 && answer.status < 300, where).toBe(true);
  if (step.status === null && step.answer === undefined) expect(emptyAnswer(answer.json), where).toBeNull();
  if (step.answer !== undefined) expect(containsShape(answer.json, step.answer), `${where}\nexpected to contain ${JSON.stringify(step.answer)}`).toBe(true);
}

// The README's feed example updates the demo catalogue, so the pages under docs/ run first.
const files = documentationFiles(ROOT).sort((a, b) => Number(a === 'README.md') - Number(b === 'README.md'));

const isDemoUpdate = (s: DocStep) => s.kind === 'command' && /^npx drugref demo update\b/.test(s.text);

describe('documentation examples against the demo catalogue', () => {
  it('the landing page\'s first-request steps, as the page serves them', async () => {
    const page = await (await fetch(`${base}/`)).text();
    const steps = htmlSteps('/', page).filter((s) => s.kind !== 'command');
    expect(steps.map((s) => s.kind)).toEqual(['curl', 'assign', 'curl', 'curl']);
    const vars = pageVariables();
    for (const step of steps) await runStep(step, vars);
    expect(vars.get('ID')).toMatch(/^[0-9a-f-]{36}$/);
  });

  for (const file of files) {
    const steps = readSteps(ROOT, file).filter((s) => s.kind !== 'command' || isDemoUpdate(s));
    if (!steps.length) continue;
    describe(file, () => {
      const vars = new Map<string, string>();
      for (const step of steps) {
        it(`line ${step.line}: ${step.text.split('\n')[0]!.slice(0, 100)}`, async () => {
          if (!vars.size) for (const [k, v] of pageVariables()) vars.set(k, v);
          await runStep(step, vars);
        });
      }
    });
  }
});
