/**
 * The payment-provider interface of prepaid answer packs, and its default: a client of
 * Stripe's hosted Checkout protocol (form-encoded POST /v1/checkout/sessions, and the
 * signed `t=…,v1=…` completion callback: HMAC-SHA256 of "<t>.<raw body>" with the
 * endpoint secret, compared in constant time, with a 5-minute replay window).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { request } from 'undici';

/** What a one-off hosted checkout is opened for. */
export interface CheckoutRequest {
  orderId: string;
  accountId: string;
  label: string;
  amountCents: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

/** The provider's checkout session: its id and the hosted page URL. */
export interface CheckoutSession {
  sessionId: string;
  url: string;
}

/** A verified, paid checkout as the callback reports it. */
export interface PaidCheckout {
  eventId: string;
  sessionId: string;
  orderId: string | null;
}

/** A callback is invalid (bad signature), or valid and maybe reporting a paid checkout. */
export type CallbackOutcome = { valid: false } | { valid: true; paid: PaidCheckout | null };

export interface PaymentProvider {
  readonly name: string;
  /** Starts a one-off hosted checkout; throws PaymentError when the provider fails. */
  createCheckout(input: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies a callback's signature over the raw body; `paid` is set for a completed, paid checkout. */
  verifyCallback(raw: string, headers: Record<string, string | string[] | undefined>, now: Date): CallbackOutcome;
}

export class PaymentError extends Error {
  override readonly name = 'PaymentError';
}

/** Accepted clock difference between the provider's signature timestamp and ours. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** `t=<unix>,v1=<hex>` over `${t}.${raw}`, as the provider signs (used by tests and fakes too). */
export function signPayload(raw: string, secret: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

/** Checks a `t=…,v1=…` header in constant time; any v1 may match (secret rollover). */
export function verifySignature(raw: string, header: string | undefined, secret: string, now: Date): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const candidates = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v as string);
  if (!Number.isInteger(t) || !candidates.length) return false;
  if (Math.abs(now.getTime() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  return candidates.some((c) => c.length === expected.length && timingSafeEqual(Buffer.from(c), expected));
}

interface StripeEvent {
  id?: string;
  type?: string;
  data?: { object?: { id?: string; client_reference_id?: string | null; payment_status?: string; metadata?: Record<string, string> } };
}

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** The default provider: Stripe's Checkout API at a configurable base URL. */
export class StripeCheckout implements PaymentProvider {
  readonly name = 'stripe';

  constructor(private readonly options: { baseUrl: string; secretKey: string; webhookSecret: string | null; timeoutMs: number }) {}

  async createCheckout(input: CheckoutRequest): Promise<CheckoutSession> {
    const form = new URLSearchParams({
      mode: 'payment',
      client_reference_id: input.orderId,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': input.currency.toLowerCase(),
      'line_items[0][price_data][unit_amount]': String(input.amountCents),
      'line_items[0][price_data][product_data][name]': input.label,
      'metadata[order_id]': input.orderId,
      'metadata[account_id]': input.accountId,
    });
    let body: { id?: unknown; url?: unknown };
    try {
      const res = await request(new URL('v1/checkout/sessions', withSlash(this.options.baseUrl)), {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': input.orderId },
        body: form.toString(),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump();
        throw new PaymentError(`checkout answered ${res.statusCode}`);
      }
      body = (await res.body.json()) as typeof body;
    } catch (err) {
      throw err instanceof PaymentError ? err : new PaymentError('checkout unreachable');
    }
    if (typeof body.id !== 'string' || typeof body.url !== 'string') throw new PaymentError('checkout answer lacks id or url');
    return { sessionId: body.id, url: body.url };
  }

  verifyCallback(raw: string, headers: Record<string, string | string[] | undefined>, now: Date): CallbackOutcome {
    const header = headers['stripe-signature'];
    const secret = this.options.webhookSecret;
    if (!secret || !verifySignature(raw, Array.isArray(header) ? header[0] : header, secret, now)) return { valid: false };
    let event: StripeEvent;
    try {
      event = JSON.parse(raw) as StripeEvent;
    } catch {
      return { valid: false };
    }
    const session = event.data?.object;
    if (!event.id || !PAID_EVENTS.has(event.type ?? '') || !session?.id || session.payment_status !== 'paid') return { valid: true, paid: null };
    return { valid: true, paid: { eventId: event.id, sessionId: session.id, orderId: session.client_reference_id ?? session.metadata?.order_id ?? null } };
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
