import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const TOKEN = 'metrics-token-0123456789';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('/metrics behind METRICS_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ config: { metricsToken: TOKEN } });
  });
  afterAll(() => t.close());

  it('answers 401 without the token or with another, and the Prometheus text with it', async () => {
    const none = await t.app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body).toContain('METRICS_TOKEN');
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode).toBe(401);
    const ok = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('drugref_http_requests_total');
  });

  it('leaves the health checks open', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('/metrics on METRICS_PORT', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({ config: { metricsToken: TOKEN, metricsPort: port, host: '127.0.0.1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('serves the metrics on their own port only, still asking for the token', async () => {
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('process_cpu_user_seconds_total');
    expect((await fetch(`${base}/v1/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});

describe('the metrics configuration', () => {
  it('refuses a short token and a port that is not one, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters');
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow('METRICS_PORT');
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT must be a port number');
    expect(loadConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' })).toMatchObject({ metricsToken: TOKEN, metricsPort: 9464 });
    expect(loadConfig({})).toMatchObject({ metricsToken: null, metricsPort: null });
  });
});
