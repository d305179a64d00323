import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertChanges, seedSource } from '../changes/fixtures.ts';
import { createWebhookReceiver } from '../../docs/examples/webhook-receiver.ts';
import type { Change } from '../../docs/examples/webhook-receiver.ts';
import { signatureValid, startReceiver, testDispatcher } from './receiver.ts';
import type { TestReceiver } from './receiver.ts';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('docs/examples/webhook-receiver.ts', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    // The receiver listens on loopback, which creation refuses unless private targets are allowed.
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    await seedSource(t.db);
    key = await t.key({ tier: 'starter' });
  });
  afterAll(() => t.close());

  it('takes real deliveries from the worker, each change once and in order', async () => {
    const handled: Change[] = [];
    // Subscribe first to learn the secret, then point the subscription's URL at the receiver.
    const created = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: 'http://127.0.0.1:1/placeholder' } });
    const { id, secret } = created.json() as { id: string; secret: string };
    const server = createWebhookReceiver({ secret, onChange: (c) => void handled.push(c) });
    const url = await listen(server);
    await t.db.query('UPDATE webhook_subscriptions SET url = $1 WHERE id = $2', [`${url}/hooks`, id]);
    const first = await insertChanges(t.db, 4);
    const worker = testDispatcher(t.db, t.config);
    await worker.runOnce();
    const second = await insertChanges(t.db, 2);
    await worker.runOnce();
    await worker.close();
    server.close();
    expect(handled.map((c) => c.id)).toEqual([...first, ...second].map((c) => c.id));
    const { rows } = await t.db.query<{ status_code: number }>('SELECT status_code FROM webhook_deliveries WHERE subscription_id = $1', [id]);
    expect(rows.map((r) => r.status_code)).toEqual([204, 204]);
    await t.db.query('DELETE FROM webhook_subscriptions');
  });

  it('rejects a tampered or unsigned body with 401 and ignores a replayed batch', async () => {
    // Capture one genuine signed batch with the recording receiver, then replay it.
    const recorder: TestReceiver = await startReceiver();
    const created = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${recorder.url}/rec` } });
    const { secret } = created.json() as { secret: string };
    await insertChanges(t.db, 3);
    const worker = testDispatcher(t.db, t.config);
    await worker.runOnce();
    await worker.close();
    await recorder.close();
    const batch = recorder.received[0]!;
    expect(signatureValid(secret, batch)).toBe(true);

    const handled: string[] = [];
    const server = createWebhookReceiver({ secret, onChange: (c) => void handled.push(c.id) });
    const url = await listen(server);
    const send = (body: Buffer | string, signature?: string) =>
      fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature ? { 'x-service-signature': signature } : {}) } });
    const signature = String(batch.headers['x-service-signature']);
    expect((await send(batch.raw, signature)).status).toBe(204);
    expect((await send(batch.raw, signature)).status).toBe(204);
    expect(handled).toEqual(batch.body.changes.map((c) => c.id));
    const reformatted = JSON.stringify(JSON.parse(batch.raw.toString()), null, 2);
    expect((await send(reformatted, signature)).status).toBe(401);
    expect((await send(batch.raw)).status).toBe(401);
    expect((await send(batch.raw, `sha256=${'0'.repeat(64)}`)).status).toBe(401);
    expect(handled).toHaveLength(3);
    server.close();
  });
});
