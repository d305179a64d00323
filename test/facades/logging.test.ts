import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { maskKeys } from '../../platform/logger.ts';

describe('logs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ config: { logLevel: 'trace' } });
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  it('never contain a key, from the header, a query string or a legacy key', async () => {
    const key = await t.key();
    const legacy = `legacy_live_${'Q'.repeat(32)}`;
    await t.app.inject({ url: '/v1/atc/N02', headers: bearer(key) });
    await t.app.inject({ url: `/v1/atc/N02?api_key=${key}` });
    await t.app.inject({ url: '/v1/atc/N02', headers: bearer(legacy) });
    await t.app.inject({ url: `/v1/no-such-path/${key}` });
    const text = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(4);
    // Paths are logged as their route's pattern; a path no route answers, not at all.
    expect(text).toContain('"url":"/v1/atc/:code"');
    expect(text).toContain('"url":"/v1/atc/:code?[unknown]=*"');
    expect(text).toContain('"url":"[no route]"');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(9));
    expect(text).not.toContain(legacy);
  });

  it('masks key-shaped tokens wherever they appear in text', () => {
    expect(maskKeys('x svc_test_abcDEF-_123 y legacy_test_zz')).toBe('x svc_test_[redacted] y legacy_test_[redacted]');
  });
});
