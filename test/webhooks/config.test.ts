import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { optionsFromConfig } from '../../workers/webhooks/worker.ts';

describe('webhook configuration', () => {
  it('defaults to the spec constants and refuses private targets', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ webhookSecretKey: null, webhookIntervalMs: 60_000, webhookTimeoutMs: 15_000, webhookBatchCap: 500, webhookAllowPrivateTargets: false });
    expect(optionsFromConfig(config)).toEqual({
      intervalMs: 60_000, timeoutMs: 15_000, batchCap: 500, leaseMs: 6_000, orphanScanMs: 2_000, minGapMs: 55_000, concurrency: 8, allowPrivateTargets: false,
    });
  });

  it('accepts a 32-byte WEBHOOK_SECRET_KEY as hex or base64 and names the variable when it is not', () => {
    const key = randomBytes(32);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('hex') }).webhookSecretKey).toBe(key.toString('hex'));
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('base64') }).webhookSecretKey).toBe(key.toString('base64'));
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: randomBytes(16).toString('hex') })).toThrow(/WEBHOOK_SECRET_KEY must be 32 bytes/);
    expect(() => loadConfig({ WEBHOOK_INTERVAL_MS: 'soon' })).toThrow(/WEBHOOK_INTERVAL_MS must be an integer/);
    expect(() => loadConfig({ WEBHOOK_BATCH_CAP: '0' })).toThrow(/WEBHOOK_BATCH_CAP must be an integer >= 1/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/);
  });
});
