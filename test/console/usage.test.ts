import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';
import { addPackCredits } from '../../resolvers/chat/allowance.ts';

describe('GET /v1/usage', () => {
  const clock = manualClock('2026-03-03T10:00:00Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ now: clock.now });
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  const accountId = async (name: string) => (await t.db.query<{ id: string }>('SELECT id FROM accounts WHERE name = $1', [name])).rows[0]!.id;
  const usage = (key: string, url = '/v1/usage') => t.app.inject({ url, headers: bearer(key) });

  it('reports both windows, the AI allowance, requests per key and per day, counting itself', async () => {
    clock.set('2026-03-03T10:00:00Z');
    const a = await t.key({ tier: 'developer', account: 'usage-dev' });
    const b = await t.key({ tier: 'developer', account: 'usage-dev' });
    const id = await accountId('usage-dev');
    await t.db.query('INSERT INTO chat_allowance_usage (account_id, month_start, answers_used) VALUES ($1, $2, 2)', [id, '2026-03-01']);
    await addPackCredits(t.db, id, 7);
    for (const key of [a, a, b]) expect((await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) })).statusCode).toBe(200);

    const res = await usage(a);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('6');
    expect(res.headers['x-service-tier']).toBe('developer');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({
      tier: 'developer',
      windows: [
        { window: 'monthly', used: 4, limit: 10, remaining: 6, resets: '2026-04-01T00:00:00.000Z' },
        { window: 'daily', used: 4, limit: 10, remaining: 6, resets: '2026-03-04T00:00:00.000Z' },
      ],
      ai: { answers_used: 2, answers_left: 1, pack_credits: 7 },
      keys: [
        { prefix: 'svc_live_', last4: a.slice(-4), requests: 3 },
        { prefix: 'svc_live_', last4: b.slice(-4), requests: 1 },
        { prefix: 'console', last4: null, requests: 0 },
      ],
      daily: [
        { date: '2026-03-01', requests: 0 },
        { date: '2026-03-02', requests: 0 },
        { date: '2026-03-03', requests: 4 },
      ],
      _meta: { generated_at: '2026-03-03T10:00:00.000Z', time_zone: 'UTC' },
    });
    // Never the key itself, anywhere in the answer.
    expect(res.body).not.toContain(a);
    expect(res.body).not.toContain(b);
  });

  it('starts a new day window, keeps the month, lists a revoked key used this month but not an unused one', async () => {
    const a = await t.key({ tier: 'pro', account: 'usage-pro' });
    const used = await t.key({ tier: 'pro', account: 'usage-pro' });
    const unused = await t.key({ tier: 'pro', account: 'usage-pro' });
    clock.set('2026-03-05T23:00:00Z');
    await t.app.inject({ url: '/v1/atc/N02', headers: bearer(used) });
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE last_four = ANY($1)', [[used.slice(-4), unused.slice(-4)]]);
    clock.set('2026-03-06T01:00:00Z');
    const body = (await usage(a)).json();
    expect(body.windows).toEqual([
      { window: 'monthly', used: 2, limit: 1500, remaining: 1498, resets: '2026-04-01T00:00:00.000Z' },
      { window: 'daily', used: 1, limit: 500, remaining: 499, resets: '2026-03-07T00:00:00.000Z' },
    ]);
    expect(body.keys).toEqual([
      { prefix: 'svc_live_', last4: a.slice(-4), requests: 1 },
      { prefix: 'svc_live_', last4: used.slice(-4), requests: 1 },
      { prefix: 'console', last4: null, requests: 0 },
    ]);
    expect(body.daily).toHaveLength(6);
    expect(body.daily.slice(4)).toEqual([{ date: '2026-03-05', requests: 1 }, { date: '2026-03-06', requests: 1 }]);
    expect(body.ai).toEqual({ answers_used: 0, answers_left: 50, pack_credits: 0 });
  });

  it('says null for a window the tier does not cap, and forgets last month', async () => {
    clock.set('2026-02-27T12:00:00Z');
    const key = await t.key({ tier: 'starter', account: 'usage-starter' });
    await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    clock.set('2026-03-01T00:00:05Z');
    const body = (await usage(key)).json();
    expect(body.windows).toEqual([
      { window: 'monthly', used: 1, limit: 20000, remaining: 19999, resets: '2026-04-01T00:00:00.000Z' },
      { window: 'daily', used: 1, limit: null, remaining: null, resets: '2026-03-02T00:00:00.000Z' },
    ]);
    expect(body.keys[0]).toEqual({ prefix: 'svc_live_', last4: key.slice(-4), requests: 1 });
    expect(body.daily).toEqual([{ date: '2026-03-01', requests: 1 }]);
  });

  it('answers 401 without a key, 422 for an unknown parameter (counted), 429 when the quota is spent', async () => {
    clock.set('2026-03-10T08:00:00Z');
    const none = await t.app.inject({ url: '/v1/usage' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    const key = await t.key({ tier: 'developer', account: 'usage-limits' });
    const bad = await usage(key, '/v1/usage?month=2026-03');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'month', message: 'is not a known parameter' }] });
    for (let i = 0; i < 8; i++) await usage(key);
    const last = await usage(key);
    expect(last.statusCode).toBe(200);
    expect(last.json().windows[0]).toMatchObject({ used: 10, remaining: 0 });
    const refused = await usage(key);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ error: 'quota_exceeded', window: 'monthly', limit: 10 });
  });

  it('counts per key exactly under concurrency, and a refused request in no key', async () => {
    clock.set('2026-03-12T09:00:00Z');
    const a = await t.key({ tier: 'developer', account: 'usage-race' });
    const b = await t.key({ tier: 'developer', account: 'usage-race' });
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => t.app.inject({ url: '/v1/atc/N02', headers: bearer(i % 2 ? a : b) })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(6);
    const { rows } = await t.db.query<{ requests: number }>(
      'SELECT coalesce(sum(requests), 0)::int AS requests FROM request_usage WHERE account_id = $1',
      [await accountId('usage-race')],
    );
    expect(rows[0]!.requests).toBe(10);
    const month = await t.db.query<{ month_used: number }>('SELECT month_used FROM quota_usage WHERE account_id = $1', [await accountId('usage-race')]);
    expect(month.rows[0]!.month_used).toBe(10);
  });

  it('is in the OpenAPI document for any valid key and is the MCP tool get_usage, answering the same body', async () => {
    clock.set('2026-03-13T09:00:00Z');
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.paths['/v1/usage'].get).toMatchObject({ operationId: 'getUsage', 'x-required-scope': null, security: [{ bearer: [] }] });
    expect(Object.keys(doc.paths['/v1/usage'].get.responses)).toEqual(['200', '401', '414', '422', '429']);
    const key = await t.key({ tier: 'developer', account: 'usage-mcp', scopes: ['atc:read'] });
    const listed = await mcpPost(t, key, rpc('tools/list'));
    expect(listed.json().result.tools.map((tool: { name: string }) => tool.name)).toContain('get_usage');
    const called = toolText(await mcpPost(t, key, rpc('tools/call', { name: 'get_usage', arguments: {} })));
    expect(called.isError).toBe(false);
    // Only tools/call is metered (once); a key narrowed to atc:read still reads its usage.
    expect(called.json).toMatchObject({
      tier: 'developer',
      windows: [{ window: 'monthly', used: 1 }, { window: 'daily', used: 1 }],
      keys: [{ prefix: 'svc_live_', last4: key.slice(-4), requests: 1 }, { prefix: 'console', last4: null, requests: 0 }],
    });
    const rest = (await usage(key)).json();
    expect(rest).toEqual({ ...(called.json as object), windows: rest.windows, keys: rest.keys, daily: rest.daily });
    expect(rest.windows[0]).toMatchObject({ used: 2 });
  });
});
