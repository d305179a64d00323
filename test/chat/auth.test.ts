import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { createServices } from '../../facades/services.ts';
import { testConfig } from '../../platform/config.ts';

describe('chat routes: authentication, scope, quota and an instance without the assistant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 without a key on the turn, the packs and the subscription', async () => {
    for (const url of ['/v1/chat', '/v1/chat/packs', '/v1/chat/subscribe']) {
      const res = await t.app.inject({ method: 'POST', url, payload: { message: 'hi' } });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
  });

  it('answers 403 forbidden naming chat:write for a key narrowed without it', async () => {
    const key = await t.key({ tier: 'growth', scopes: ['drugs:read'] });
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: { message: 'What is N02BE01?' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', tier: 'growth', missing_scope: 'chat:write' });
  });

  it('answers 429 quota_exceeded once the Free plan\'s 10 requests are used, before any answer is spent', async () => {
    const key = await t.key({ tier: 'developer' });
    for (let i = 0; i < 10; i++) await t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: {} });
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: { message: 'What is N02BE01?' } });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: 'quota_exceeded', tier: 'developer' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.db.query('SELECT 1 FROM chat_allowance_usage WHERE answers_used > 0')).rowCount).toBe(0);
  });

  it('answers 503 with retry-after on an instance built without the assistant', async () => {
    const { chat: _omitted, ...others } = createServices(testConfig(), t.db, pino({ level: 'silent' }));
    const bare = await startTestApp({ db: t.db, services: others });
    try {
      const key = await bare.key({ tier: 'pro' });
      const res = await bare.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: { message: 'What is N02BE01?' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'unavailable' });
      expect(res.headers['retry-after']).toBe('300');
    } finally {
      await bare.close();
    }
  });
});
