import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoSnapshots, DEMO_ATC_SOURCE_ID, demoSourceId } from '../../data/demo/build.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  await ingestSnapshots(t.db, buildDemoSnapshots().filter((s) => [DEMO_ATC_SOURCE_ID, demoSourceId('CH')].includes(s.source.id)));
  key = await t.key({ tier: 'growth' });
});
afterAll(async () => { await t?.close(); });

/** A code of the first Swiss pack whose description starts so. */
async function code(system: string, description: string): Promise<string> {
  const { rows } = await t.db.query<{ code: string }>(
    `SELECT i.code FROM packs k JOIN identifiers i ON i.pack_id = k.id AND i.system = $1 JOIN products p ON p.id = k.product_id
      WHERE p.country = 'CH' AND k.description LIKE $2 || '%' ORDER BY k.description LIMIT 1`, [system, description]);
  if (!rows[0]) throw new Error(`no pack ${description}`);
  return rows[0].code;
}

const post = (path: string, body: unknown, k = key) => t.app.inject({ method: 'POST', url: path, headers: bearer(k), payload: body as object });

describe('POST /v1/ch/claims/validate', () => {
  it('checks a listed pack: capped price, no limitation, 10 % co-insurance, not a LiMA case', async () => {
    const res = await post('/v1/ch/claims/validate', { pack: await code('gtin', 'Zocor 20 mg Filmtabletten, 30'), quantity: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-tier']).toBe('growth');
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(res.json()).toMatchObject({
      listed: true, status: 'reimbursable', quantity: 3, public_price_chf: 15.5, total_public_price_chf: 46.5,
      limitation: { limited: false, text: null, points: null },
      coinsurance: { percent: 10, basis: 'sl_entry', amount_chf: 4.65 },
      lima: { applicable: false }, off_label_path: { applicable: false },
      pack: { product_name: 'Zocor 20 mg Filmtabletten', atc_code: 'C10AA01', sl_flag: 'O', units: 30 },
      _meta: { sources: [{ id: 'demo-ch' }] },
    });
  });

  it('reports an unlisted pack as not reimbursed, with the LiMA and Art. 71a–d answers', async () => {
    const body = (await post('/v1/ch/claims/validate', { pack: { system: 'pharmacode', code: await code('pharmacode', 'Panadol 500 mg') } })).json();
    expect(body).toMatchObject({ listed: false, status: 'not_listed', public_price_chf: null, coinsurance: null, lima: { applicable: false }, off_label_path: { applicable: true } });
    expect(body.lima.reason).toContain('not reimbursed through the LiMA');
    expect(body.off_label_path.rule).toContain('Art. 71a');
  });

  it('reports a limited pack with its limitation text and points', async () => {
    const { rows } = await t.db.query<{ description: string; points: number }>(
      "SELECT k.description, (k.sl -> 'limitation' ->> 'points')::int AS points FROM packs k WHERE k.sl -> 'limitation' ->> 'points' IS NOT NULL ORDER BY k.description LIMIT 1");
    const body = (await post('/v1/ch/claims/validate', { pack: await code('swissmedic_no', rows[0]!.description) })).json();
    expect(body).toMatchObject({ listed: true, status: 'reimbursable_with_limitation', limitation: { limited: true, points: rows[0]!.points }, off_label_path: { applicable: true } });
    expect(body.limitation.text.length).toBeGreaterThan(20);
  });

  it('applies 40 % co-insurance where the SL entry says so', async () => {
    const body = (await post('/v1/ch/claims/validate', { pack: await code('pharmacode', 'Voltaren 25 mg magensaftresistente Tabletten, 30') })).json();
    expect(body).toMatchObject({ listed: true, public_price_chf: 14.3, coinsurance: { percent: 40, basis: 'sl_entry', amount_chf: 5.72 } });
  });

  it('answers 422 for a code of no Swiss pack and for a malformed body', async () => {
    const unknown = await post('/v1/ch/claims/validate', { pack: '7680000000000' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: 'validation', details: [{ field: 'pack' }] });
    expect((await post('/v1/ch/claims/validate', { pack: 'x', quantity: 0 })).statusCode).toBe(422);
    expect((await post('/v1/ch/claims/validate', { pack: '7680000000000', patient: 'x' })).statusCode).toBe(422);
  });

  it('answers 401 without a key and 403 without ch:claims', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v1/ch/claims/validate', payload: { pack: '1' } })).statusCode).toBe(401);
    const res = await post('/v1/ch/claims/validate', { pack: '1' }, await t.key({ tier: 'starter' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'ch:claims' });
  });
});

describe('POST /v1/ch/price-comparison', () => {
  it('lists cheaper substitutes of the same ATC, pack size and strength with saving and co-insurance delta', async () => {
    const res = await post('/v1/ch/price-comparison', { pack: await code('gtin', 'Zocor 20 mg Filmtabletten, 30'), quantity: 2 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ listed: true, public_price_chf: 15.5, coinsurance_percent: 10, quantity: 2 });
    const mepha = body.substitutes.find((s: { pack: { product_name: string } }) => s.pack.product_name === 'Simvastatin Mepha 20 mg Filmtabletten');
    // 15.50 − 8.10 = 7.40 per pack; co-insurance 1.55 − 0.81 = 0.74 per pack.
    expect(mepha).toMatchObject({ public_price_chf: 8.1, coinsurance_percent: 10, saving_per_pack_chf: 7.4, saving_total_chf: 14.8, coinsurance_delta_per_pack_chf: 0.74 });
    for (const s of body.substitutes) expect(s.pack).toMatchObject({ atc_code: 'C10AA01', units: 30, strength: '20 mg' });
    const prices = body.substitutes.map((s: { public_price_chf: number }) => s.public_price_chf);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('shows the co-insurance delta of moving from a 40 % original to a 10 % generic', async () => {
    const body = (await post('/v1/ch/price-comparison', { pack: await code('gtin', 'Voltaren 25 mg magensaftresistente Tabletten, 30') })).json();
    expect(body.coinsurance_percent).toBe(40);
    expect(body.substitutes.length).toBeGreaterThan(0);
    for (const s of body.substitutes) {
      expect(s.public_price_chf).toBeLessThan(14.3);
      expect(s.coinsurance_delta_per_pack_chf).toBeCloseTo(14.3 * 0.4 - s.public_price_chf * s.coinsurance_percent / 100, 2);
    }
  });

  it('answers 422, 401 and 403 like the claims check', async () => {
    expect((await post('/v1/ch/price-comparison', { pack: '7680000000000' })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'POST', url: '/v1/ch/price-comparison', payload: { pack: '1' } })).statusCode).toBe(401);
    expect((await post('/v1/ch/price-comparison', { pack: '1' }, await t.key({ tier: 'pro' }))).statusCode).toBe(403);
  });
});
