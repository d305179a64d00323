import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { consumeQuota } from '../../resolvers/accounts/quota.ts';

describe('quota', () => {
  const clock = manualClock('2026-03-10T12:00:00Z');
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ now: clock.now });
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  const accountId = async (name: string) =>
    (await t.db.query<{ id: string }>('SELECT id FROM accounts WHERE name = $1', [name])).rows[0]!.id;

  it('counts down x-ratelimit-remaining and refuses the 11th Free request with 429', async () => {
    clock.set('2026-03-10T12:00:00Z');
    const key = await t.key({ tier: 'developer', account: 'free-1' });
    for (let i = 1; i <= 10; i++) {
      const res = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(10 - i));
    }
    const refused = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'quota_exceeded',
      message: expect.stringContaining('monthly'),
      tier: 'developer',
      limit: 10,
      window: 'monthly',
      resets: '2026-04-01T00:00:00.000Z',
      upgrade_url: t.config.upgradeUrl,
    });
    expect(refused.headers['retry-after']).toBe(String((Date.parse('2026-04-01T00:00:00Z') - Date.parse('2026-03-10T12:00:00Z')) / 1000));
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('counts 4xx answers and 304s, and shares one counter across the keys of an account', async () => {
    const a = await t.key({ tier: 'developer', account: 'free-2' });
    const b = await t.key({ tier: 'developer', account: 'free-2' });
    const first = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(a) });
    expect(first.headers['x-ratelimit-remaining']).toBe('9');
    expect((await t.app.inject({ url: '/v1/atc/Z99', headers: bearer(b) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v1/atc/9', headers: bearer(a) })).statusCode).toBe(422);
    const cached = await t.app.inject({ url: '/v1/atc/N02', headers: { ...bearer(b), 'if-none-match': first.headers.etag as string } });
    expect(cached.statusCode).toBe(304);
    expect(cached.headers['x-ratelimit-remaining']).toBe('6');
    expect(cached.headers['x-service-tier']).toBe('developer');
    const next = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(a) });
    expect(next.headers['x-ratelimit-remaining']).toBe('5');
  });

  it('applies the daily cap of Pro and resets it the next UTC day', async () => {
    clock.set('2026-03-10T23:59:00Z');
    const key = await t.key({ tier: 'pro', account: 'pro-daily' });
    await t.db.query(`INSERT INTO quota_usage (account_id, month_start, month_used, day_start, day_used)
                      VALUES ($1, '2026-03-01', 700, '2026-03-10', 500)`, [await accountId('pro-daily')]);
    const refused = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ window: 'daily', limit: 500, resets: '2026-03-11T00:00:00.000Z', tier: 'pro' });
    expect(refused.headers['retry-after']).toBe('60');
    clock.set('2026-03-11T00:00:01Z');
    const admitted = await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    expect(admitted.statusCode).toBe(200);
    // Monthly 1500 - 701 = 799 left, daily 500 - 1 = 499 left: the tighter wins.
    expect(admitted.headers['x-ratelimit-remaining']).toBe('499');
  });

  it('admits exactly the remaining 50 of 200 parallel requests', async () => {
    clock.set('2026-03-12T08:00:00Z');
    const key = await t.key({ tier: 'pro', account: 'pro-race' });
    await t.db.query(`INSERT INTO quota_usage (account_id, month_start, month_used, day_start, day_used)
                      VALUES ($1, '2026-03-01', 450, '2026-03-12', 450)`, [await accountId('pro-race')]);
    const answers = await Promise.all(Array.from({ length: 200 }, () => t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) })));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    const remaining = answers.filter((r) => r.statusCode === 200).map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const usage = await t.db.query<{ day_used: number }>('SELECT day_used FROM quota_usage WHERE account_id = $1', [await accountId('pro-race')]);
    expect(usage.rows[0]!.day_used).toBe(500);
  });

  it('admits exactly the limit of concurrent requests on a fresh row, counts only those, per key', async () => {
    clock.set('2026-03-13T08:00:00Z');
    const a = await t.key({ tier: 'developer', account: 'free-race' });
    const b = await t.key({ tier: 'developer', account: 'free-race' });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => t.app.inject({ url: '/v1/atc/N02', headers: bearer(i % 2 ? b : a) })));
    const ok = answers.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
    expect(ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const id = await accountId('free-race');
    const month = await t.db.query<{ month_used: number; day_used: number }>('SELECT month_used, day_used FROM quota_usage WHERE account_id = $1', [id]);
    expect(month.rows).toEqual([{ month_used: 10, day_used: 10 }]);
    const perKey = await t.db.query<{ n: number }>('SELECT sum(requests)::int AS n FROM request_usage WHERE account_id = $1', [id]);
    expect(perKey.rows[0]!.n).toBe(10);
  });

  it('counts every one of N concurrent requests of two keys below the limit, each key on its own row', async () => {
    clock.set('2026-03-13T09:00:00Z');
    const a = await t.key({ tier: 'pro', account: 'pro-two-keys' });
    const b = await t.key({ tier: 'pro', account: 'pro-two-keys' });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => t.app.inject({ url: '/v1/atc/N02', headers: bearer(i < 12 ? a : b) })));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    // Daily 500 is the tighter window: each request saw its own place, 499 down to 470.
    expect(answers.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => y - x)).toEqual(Array.from({ length: 30 }, (_, i) => 499 - i));
    const id = await accountId('pro-two-keys');
    const month = await t.db.query<{ month_used: number }>('SELECT month_used FROM quota_usage WHERE account_id = $1', [id]);
    expect(month.rows[0]!.month_used).toBe(30);
    const perKey = await t.db.query<{ requests: number }>(
      'SELECT r.requests FROM request_usage r JOIN api_keys k ON k.id = r.key_id WHERE r.account_id = $1 ORDER BY r.requests', [id]);
    expect(perKey.rows.map((r) => r.requests)).toEqual([12, 18]);
  });

  it('counts requests that arrive while a count is in flight with one shared statement, in arrival order', async () => {
    clock.set('2026-03-14T08:00:00Z');
    await t.key({ tier: 'developer', account: 'free-batch' });
    const id = await accountId('free-batch');
    const before = t.db.roundTrips;
    // The first starts its statement at once; the 14 others arrive while it is in flight.
    const decisions = await Promise.all(Array.from({ length: 15 }, () => consumeQuota(t.db, id, 'developer', clock.now(), null)));
    expect(t.db.roundTrips - before).toBe(2);
    expect(decisions.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => ({ admitted: true, remaining: 9 - i })));
    expect(decisions.slice(10).every((d) => !d.admitted && d.window === 'monthly' && d.limit === 10)).toBe(true);
    const again = t.db.roundTrips;
    const late = await Promise.all([consumeQuota(t.db, id, 'developer', clock.now(), null), consumeQuota(t.db, id, 'developer', clock.now(), null)]);
    expect(t.db.roundTrips - again).toBe(2);
    expect(late.every((d) => !d.admitted)).toBe(true);
    const row = await t.db.query<{ month_used: number }>('SELECT month_used FROM quota_usage WHERE account_id = $1', [id]);
    expect(row.rows[0]!.month_used).toBe(10);
  });
});
