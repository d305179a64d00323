import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { signPayload } from '../../resolvers/chat/payment.ts';
import { accountIdOf, startFake } from './helpers.ts';
import type { FakeServer } from './helpers.ts';

const SECRET_KEY = 'sk_test_fakeSecretKeyForCheckout123';
const WEBHOOK_SECRET = 'whsec_fakeWebhookSigningSecret456';

function completedEvent(sessionId: string, orderId: string, eventId = 'evt_1') {
  return JSON.stringify({
    id: eventId, object: 'event', type: 'checkout.session.completed',
    data: { object: { id: sessionId, object: 'checkout.session', client_reference_id: orderId, payment_status: 'paid', metadata: { order_id: orderId } } },
  });
}

describe('POST /v1/chat/subscribe (retired)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 410 gone with a pointer to the pricing page for any valid key', async () => {
    for (const tier of ['developer', 'enterprise'] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/chat/subscribe', headers: bearer(await t.key({ tier, scopes: ['drugs:read'] })), payload: { plan: 'pro' } });
      expect(res.statusCode).toBe(410);
      expect(Object.keys(res.json())[0]).toBe('error');
      expect(res.json()).toMatchObject({ error: 'gone', pricing_url: t.config.pricingUrl });
      expect(res.headers.link).toBe(`<${t.config.pricingUrl}>; rel="alternate"`);
    }
  });

  it('answers 410 even to a malformed body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/subscribe', headers: { ...bearer(await t.key({ tier: 'pro' })), 'content-type': 'application/json' }, payload: '{"plan":' });
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toBe('gone');
  });

  it('still answers 401 without a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/subscribe' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /v1/chat/packs and the signed payment callback', () => {
  let t: TestApp;
  let stripe: FakeServer;
  let pro: string;
  let sessions = 0;

  beforeAll(async () => {
    stripe = await startFake((req) => {
      if (req.url !== '/v1/checkout/sessions' || req.headers.authorization !== `Bearer ${SECRET_KEY}`) return { status: 401, body: { error: { message: 'bad key' } } };
      const form = new URLSearchParams(req.body);
      sessions++;
      return { status: 200, body: { id: `cs_test_${sessions}`, object: 'checkout.session', url: `https://checkout.example/c/pay/cs_test_${sessions}`, client_reference_id: form.get('client_reference_id') } };
    });
    t = await startTestApp({ config: { paymentBaseUrl: stripe.url, paymentSecretKey: SECRET_KEY, paymentWebhookSecret: WEBHOOK_SECRET } });
    pro = await t.key({ tier: 'pro' });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('refuses the Free plan (developer tier) with 403 upgrade_required', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(await t.key({ tier: 'developer' })), payload: { pack: 'answers_100' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'upgrade_required', tier: 'developer', upgrade_url: t.config.upgradeUrl });
    expect(stripe.seen.length).toBe(0);
  });

  it('answers 404 for an unknown pack and 400 for a malformed body', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(pro), payload: { pack: 'answers_1000' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
    for (const payload of [{}, { pack: 100 }, { pack: 'answers_100', extra: true }]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(pro), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'bad_request', details: [{ field: 'pack' }] });
    }
  });

  it('answers 403 forbidden when the key lacks chat:write', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(await t.key({ tier: 'pro', scopes: ['drugs:read'] })), payload: { pack: 'answers_100' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'chat:write' });
  });

  it('starts a hosted checkout of 100 answers for $15, then credits once however often the signed callback repeats', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(pro), payload: { pack: 'answers_100' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ pack: 'answers_100', answers: 100, amount: 15, currency: 'USD', status: 'pending', checkout_url: expect.stringMatching(/^https:\/\/checkout\.example\/c\/pay\/cs_test_/) });
    expect(res.headers['x-service-tier']).toBe('pro');
    const form = new URLSearchParams(stripe.seen.at(-1)!.body);
    expect(form.get('mode')).toBe('payment');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('1500');
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('client_reference_id')).toBe(body.order_id);

    const sessionId = `cs_test_${sessions}`;
    const raw = completedEvent(sessionId, body.order_id);
    const now = Math.floor(Date.now() / 1000);
    const first = await t.app.inject({ method: 'POST', url: '/v1/chat/packs/callback', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET, now) }, payload: raw });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, credited: true, answers: 100 });
    for (let i = 0; i < 3; i++) {
      const again = await t.app.inject({ method: 'POST', url: '/v1/chat/packs/callback', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET, now + i) }, payload: raw });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ received: true, credited: false, answers: 0 });
    }
    const balance = await t.db.query<{ credits: number }>('SELECT credits FROM chat_pack_balance WHERE account_id = $1', [await accountIdOf(t, pro)]);
    expect(balance.rows[0]!.credits).toBe(100);
  });

  it('refuses a callback whose signature is wrong, stale or missing with 400, crediting nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(pro), payload: { pack: 'answers_500' } });
    expect(res.json()).toMatchObject({ answers: 500, amount: 60 });
    const raw = completedEvent(`cs_test_${sessions}`, res.json().order_id, 'evt_2');
    const now = Math.floor(Date.now() / 1000);
    const attempts = [signPayload(raw, 'whsec_wrong', now), signPayload(raw, WEBHOOK_SECRET, now - 3600), signPayload(`${raw} `, WEBHOOK_SECRET, now), undefined];
    for (const signature of attempts) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/chat/packs/callback', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, payload: raw });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('bad_request');
    }
    const balance = await t.db.query<{ credits: number }>('SELECT credits FROM chat_pack_balance WHERE account_id = $1', [await accountIdOf(t, pro)]);
    expect(balance.rows[0]!.credits).toBe(100);
  });

  it('acknowledges other signed events without crediting', async () => {
    const raw = JSON.stringify({ id: 'evt_3', type: 'checkout.session.expired', data: { object: { id: 'cs_test_1', payment_status: 'unpaid' } } });
    const r = await t.app.inject({ method: 'POST', url: '/v1/chat/packs/callback', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(raw, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) }, payload: raw });
    expect(r.json()).toEqual({ received: true, credited: false, answers: 0 });
  });

  it('keeps the payment secrets out of the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(SECRET_KEY);
    expect(logs).not.toContain(WEBHOOK_SECRET);
  });
});

describe('POST /v1/chat/packs when the payment provider repeats a session id', () => {
  it('answers 502 bad_gateway and records one order for one opened checkout', async () => {
    const repeating = await startFake(() => ({ status: 200, body: { id: 'cs_test_same', object: 'checkout.session', url: 'https://checkout.example/c/pay/cs_test_same' } }));
    const t = await startTestApp({ config: { paymentBaseUrl: repeating.url, paymentSecretKey: SECRET_KEY, paymentWebhookSecret: WEBHOOK_SECRET } });
    try {
      const key = await t.key({ tier: 'starter' });
      const first = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(key), payload: { pack: 'answers_100' } });
      expect(first.statusCode).toBe(200);
      const second = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(key), payload: { pack: 'answers_100' } });
      expect(second.statusCode).toBe(502);
      expect(second.json()).toEqual({ error: 'bad_gateway', message: 'The payment provider failed to open a checkout; nothing was charged. Try again.' });
      const { rows } = await t.db.query<{ session_id: string | null }>('SELECT session_id FROM chat_pack_orders');
      expect(rows).toEqual([{ session_id: 'cs_test_same' }]);
    } finally {
      await t.close();
      await repeating.close();
    }
  });
});

describe('POST /v1/chat/packs when the payment provider is down or not configured', () => {
  it('answers 502 when checkout fails and 503 when no provider is configured', async () => {
    const down = await startFake(() => ({ status: 500, body: { error: { message: 'internal at db-7' } } }));
    const t = await startTestApp({ config: { paymentBaseUrl: down.url, paymentSecretKey: SECRET_KEY, paymentWebhookSecret: WEBHOOK_SECRET } });
    const off = await startTestApp({ db: t.db });
    try {
      const key = await t.key({ tier: 'starter' });
      const failed = await t.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(key), payload: { pack: 'answers_100' } });
      expect(failed.statusCode).toBe(502);
      expect(failed.json()).toMatchObject({ error: 'bad_gateway' });
      expect(failed.body).not.toContain('db-7');
      const unconfigured = await off.app.inject({ method: 'POST', url: '/v1/chat/packs', headers: bearer(key), payload: { pack: 'answers_100' } });
      expect(unconfigured.statusCode).toBe(503);
      expect(unconfigured.headers['retry-after']).toBeDefined();
    } finally {
      await off.close();
      await t.close();
      await down.close();
    }
  });
});
