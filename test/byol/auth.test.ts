import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { vaultConfig } from './helpers.ts';

const ROUTES = [
  { method: 'GET', url: '/v1/byol/drugbank' },
  { method: 'PUT', url: '/v1/byol/drugbank', payload: { credentials: { api_key: 'dbk_live_0123456789abcdef0123' } } },
  { method: 'DELETE', url: '/v1/byol/drugbank' },
  { method: 'GET', url: '/v1/byol/drugbank/query?q=aspirin' },
] as const;

describe('BYOL routes: authentication and scope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: vaultConfig() });
  });
  afterAll(() => t.close());

  it('answers 401 unauthorized without a key, before anything else', async () => {
    for (const route of ROUTES) {
      const res = await t.app.inject({ ...route });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('answers 403 forbidden with tier and missing_scope for a key without byol:write', async () => {
    const pro = await t.key({ tier: 'pro' });
    const narrowed = await t.key({ tier: 'enterprise', scopes: ['drugs:read', 'chat:write'] });
    for (const key of [pro, narrowed]) {
      for (const route of ROUTES) {
        const res = await t.app.inject({ ...route, headers: bearer(key) });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'byol:write' });
      }
    }
    expect((await t.db.query('SELECT 1 FROM byol_credentials')).rowCount).toBe(0);
  });
});
