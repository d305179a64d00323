import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../resolvers/chat/payment.ts';
import { turnCost } from '../../resolvers/chat/allowance.ts';

describe('payment callback signature (t=…,v1=… over "<t>.<raw body>")', () => {
  const raw = '{"id":"evt_1","type":"checkout.session.completed"}';
  const now = new Date('2026-11-21T12:00:00Z');
  const t = Math.floor(now.getTime() / 1000);

  it('accepts the exact bytes within 300 s, with any of several v1 values', () => {
    expect(verifySignature(raw, signPayload(raw, 'whsec_a', t), 'whsec_a', now)).toBe(true);
    expect(verifySignature(raw, signPayload(raw, 'whsec_a', t - 299), 'whsec_a', now)).toBe(true);
    const rolled = `${signPayload(raw, 'whsec_old', t)},v1=${signPayload(raw, 'whsec_a', t).split('v1=')[1]}`;
    expect(verifySignature(raw, rolled, 'whsec_a', now)).toBe(true);
  });

  it('refuses other bytes, other secrets, old timestamps and malformed headers', () => {
    expect(verifySignature(`${raw}\n`, signPayload(raw, 'whsec_a', t), 'whsec_a', now)).toBe(false);
    expect(verifySignature(raw, signPayload(raw, 'whsec_b', t), 'whsec_a', now)).toBe(false);
    expect(verifySignature(raw, signPayload(raw, 'whsec_a', t - 301), 'whsec_a', now)).toBe(false);
    for (const header of [undefined, '', 'v1=abc', `t=${t}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifySignature(raw, header, 'whsec_a', now)).toBe(false);
    }
  });
});

describe('turn cost', () => {
  it('counts one answer per started 4,000 characters', () => {
    expect([1, 4_000, 4_001, 8_000, 8_001, 32_000].map(turnCost)).toEqual([1, 1, 2, 2, 3, 8]);
  });
});
