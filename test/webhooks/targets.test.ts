import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertChanges, seedSource } from '../changes/fixtures.ts';
import { isPublicAddress } from '../../platform/net/targets.ts';
import { startReceiver, testDispatcher } from './receiver.ts';

describe('delivery targets', () => {
  it('treats loopback, private, link-local, shared and mapped addresses as non-public', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(ip), ip).toBe(true);
  });

  describe('with private targets refused at delivery', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Created while allowed (creation would refuse them); delivery must still refuse on its own, as DNS can change.
      t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
      await seedSource(t.db);
    });
    afterAll(() => t.close());

    it('sends nothing to loopback by IP or by name, records a connection_error and keeps the cursor', async () => {
      const receiver = await startReceiver();
      const key = await t.key({ tier: 'starter' });
      const port = new URL(receiver.url).port;
      for (const url of [`http://127.0.0.1:${port}/ip`, `http://localhost:${port}/name`]) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url } });
        expect(res.statusCode).toBe(201);
      }
      const written = await insertChanges(t.db, 2);
      const refusing = testDispatcher(t.db, t.config, { allowPrivateTargets: false });
      expect(await refusing.runOnce()).toEqual({ delivered: 0, failed: 2, idle: 0 });
      await refusing.close();
      expect(receiver.received).toHaveLength(0);
      const listed = (await t.app.inject({ url: '/v1/webhooks', headers: bearer(key) })).json().webhooks as Array<{ last_delivery: { outcome: string; error: string; status_code: null } }>;
      for (const w of listed) {
        expect(w.last_delivery).toMatchObject({ outcome: 'connection_error', status_code: null });
        expect(w.last_delivery.error).toMatch(/not a public address/);
      }
      // Once allowed (local development), the same window goes out in full.
      const allowing = testDispatcher(t.db, t.config, { allowPrivateTargets: true });
      expect((await allowing.runOnce()).delivered).toBe(2);
      await allowing.close();
      expect(receiver.received.map((r) => r.body.changes.map((c) => c.id))).toEqual([written.map((c) => c.id), written.map((c) => c.id)]);
      await receiver.close();
    });
  });
});
