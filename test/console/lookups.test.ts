import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bearer } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { startInteractionApp } from '../interactions/helpers.ts';
import { consoleAuth, signIn } from './helpers.ts';

/** The console's lookups against the demo CH register and interaction set. */
describe('console lookups share the account quota', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startInteractionApp(); });
  afterAll(async () => { await t?.close(); });

  interface Call { method: 'GET' | 'POST'; path: string; payload?: object }
  const viaConsole = (token: string, call: Call) =>
    t.app.inject({ method: call.method, url: `/console/api${call.path}`, headers: consoleAuth(token), ...(call.payload ? { payload: call.payload } : {}) });
  const viaKey = (key: string, call: Call) =>
    t.app.inject({ method: call.method, url: call.path, headers: bearer(key), ...(call.payload ? { payload: call.payload } : {}) });
  const usage = async (token: string) => (await t.app.inject({ url: "/console/api/usage", headers: consoleAuth(token) })).json();

  /** The same answer: status, body and the headers a client reads. */
  function sameAnswer(a: LightMyRequestResponse, b: LightMyRequestResponse): void {
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.json()).toEqual(b.json());
    for (const name of ['content-type', 'etag', 'x-service-tier']) expect(a.headers[name]).toEqual(b.headers[name]);
  }

  it('runs each lookup exactly like its /v1 route and moves the usage by exactly one, as the console entry', async () => {
    const key = await t.key({ tier: 'pro', account: 'lookup-pro' });
    const token = await signIn(t, 'lookup-pro');
    const search = await viaKey(key, { method: 'GET', path: '/v1/drugs?q=ibuprofen&country=CH' });
    expect(search.statusCode).toBe(200);
    const drugId = search.json().results[0].id as string;
    const calls: Call[] = [
      { method: 'GET', path: '/v1/drugs?q=ibuprofen&country=CH' },
      { method: 'GET', path: `/v1/drugs/${drugId}/profile` },
      { method: 'GET', path: '/v1/markets/overview?q=ibuprofen' },
    ];
    for (const call of calls) {
      const before = await usage(token);
      const mine = await viaConsole(token, call);
      const after = await usage(token);
      expect(mine.statusCode).toBe(200);
      expect(after.windows[0].used - before.windows[0].used).toBe(1);
      expect(after.windows[1].used - before.windows[1].used).toBe(1);
      const consoleEntry = (body: { keys: Array<{ prefix: string; requests: number }> }) => body.keys.find((k) => k.prefix === 'console')!.requests;
      expect(consoleEntry(after) - consoleEntry(before)).toBe(1);
      expect(Number(mine.headers['x-ratelimit-remaining'])).toBe(after.windows[1].remaining);
      sameAnswer(mine, await viaKey(key, call));
    }
    // The per-key entry of the key moved only through its own calls (1 search + 3 comparisons).
    const final = await usage(token);
    expect(final.keys).toEqual([
      { prefix: 'svc_live_', last4: key.slice(-4), requests: 4 },
      { prefix: 'console', last4: null, requests: 3 },
    ]);
    // Reading usage in the console costs nothing.
    expect(final.windows[0].used).toBe(7);
  });

  it('counts an interaction check only when it delivers licensed rows, as /v1 does', async () => {
    const growth = await t.key({ tier: 'growth', account: 'lookup-growth' });
    const token = await signIn(t, 'lookup-growth');
    const call: Call = { method: 'POST', path: '/v1/interactions/check', payload: { drugs: ['simvastatin', 'clarithromycin'] } };
    const licensed = await viaConsole(token, call);
    expect(licensed.statusCode).toBe(200);
    expect(licensed.json().interactions.some((r: { commercial: boolean }) => r.commercial)).toBe(true);
    expect((await usage(token)).keys.at(-1)).toEqual({ prefix: 'console', last4: null, requests: 1 });
    sameAnswer(licensed, await viaKey(growth, call));

    await t.key({ tier: 'developer', account: 'lookup-dev' });
    const devToken = await signIn(t, 'lookup-dev');
    const open = await viaConsole(devToken, call);
    expect(open.statusCode).toBe(200);
    expect(open.json().locked).toEqual({ count: expect.any(Number), why: 'plan_does_not_include' });
    expect((await usage(devToken)).windows[0].used).toBe(0);
  });

  it('validates, answers 404 and 304 exactly as /v1, and counts them', async () => {
    const key = await t.key({ tier: 'pro', account: 'lookup-errors' });
    const token = await signIn(t, 'lookup-errors');
    for (const call of [
      { method: 'GET', path: '/v1/drugs' },
      { method: 'GET', path: '/v1/drugs?q=x&colour=red' },
      { method: 'GET', path: '/v1/drugs/00000000-0000-4000-8000-000000000000/profile' },
      { method: 'POST', path: '/v1/interactions/check', payload: { drugs: ['only one'] } },
    ] satisfies Call[]) {
      const mine = await viaConsole(token, call);
      expect([404, 422]).toContain(mine.statusCode);
      sameAnswer(mine, await viaKey(key, call));
    }
    const first = await viaConsole(token, { method: 'GET', path: '/v1/markets/overview?q=ibuprofen' });
    const cached = await t.app.inject({ url: '/console/api/v1/markets/overview?q=ibuprofen', headers: { ...consoleAuth(token), 'if-none-match': first.headers.etag as string } });
    expect(cached.statusCode).toBe(304);
    // 3 counted refusals of metered routes + markets twice; the interaction check's 422 is not metered.
    expect((await usage(token)).keys.at(-1)).toEqual({ prefix: 'console', last4: null, requests: 5 });
  });

  it('refuses without a console token, with an API key, and with 429 when the quota is spent', async () => {
    const key = await t.key({ tier: 'developer', account: 'lookup-spent' });
    const none = await t.app.inject({ url: '/console/api/v1/drugs?q=ibuprofen' });
    expect(none.statusCode).toBe(401);
    expect((await viaConsole(key, { method: 'GET', path: '/v1/drugs?q=ibuprofen' })).statusCode).toBe(401);
    const token = await signIn(t, 'lookup-spent');
    for (let i = 0; i < 10; i++) await viaKey(key, { method: 'GET', path: '/v1/usage' });
    const refused = await viaConsole(token, { method: 'GET', path: '/v1/drugs?q=ibuprofen&country=CH' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ error: 'quota_exceeded', tier: 'developer', limit: 10 });
    // The console's own usage page still answers: it is not counted.
    const page = await t.app.inject({ url: '/console/api/usage', headers: consoleAuth(token) });
    expect(page.statusCode).toBe(200);
    expect(page.json().windows[0]).toMatchObject({ used: 10, remaining: 0 });
    expect(page.headers['x-ratelimit-remaining']).toBeUndefined();
  });
});
