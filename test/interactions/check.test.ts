import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { startInteractionApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await startInteractionApp(); });
afterAll(async () => { await t?.close(); });

interface Row { atc_codes: string[]; severity: string; commercial: boolean; licence: string; attributions: string[]; mechanism: string | null; management: string | null; rule: { key: string } }
interface Check { inputs: Array<{ index: number; resolved: boolean; matched_by: string | null; atc_codes: string[] }>; unresolved: number[]; pairs_checked: number; interactions: Row[]; locked: { count: number; why: string | null }; _meta: { sources: Array<{ id: string }>; notice: string | null } }

async function check(key: string, drugs: unknown[]) {
  return t.app.inject({ method: 'POST', url: '/v1/interactions/check', headers: bearer(key), payload: { drugs } });
}

describe('POST /v1/interactions/check', () => {
  it('resolves names and ATC codes and finds warfarin + ibuprofen through the NSAID class rule, open rows only for the free plan', async () => {
    const key = await t.key({ tier: 'developer' });
    const res = await check(key, ['warfarin', 'M01AE01', 'no such drug xyz']);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-tier']).toBe('developer');
    const body = res.json<Check>();
    expect(body.inputs.map((i) => [i.resolved, i.matched_by, i.atc_codes])).toEqual([
      [true, 'substance_name', ['B01AA03']], [true, 'atc', ['M01AE01']], [false, null, []],
    ]);
    expect(body.unresolved).toEqual([2]);
    expect(body.pairs_checked).toBe(1);
    expect(body.interactions).toHaveLength(1);
    const row = body.interactions[0]!;
    expect(row).toMatchObject({ atc_codes: ['B01AA03', 'M01AE01'], severity: 'major', commercial: false, licence: 'CC-BY-NC-4.0', mechanism: null, management: null });
    expect(row.rule.key).toBe('B01AA~M01A');
    expect(row.attributions[0]).toContain('not for clinical use');
    expect(body.locked).toEqual({ count: 1, why: 'plan_does_not_include' });
    expect(body._meta.sources.map((s) => s.id)).toEqual(['demo-interactions']);
    expect(body._meta.notice).toContain('not for clinical use');
  });

  it('is not metered for open rows: the free plan can check more often than its 10-request quota', async () => {
    const key = await t.key({ tier: 'developer' });
    for (let i = 0; i < 12; i++) expect((await check(key, ['simvastatin', 'clarithromycin'])).statusCode).toBe(200);
    const last = await check(key, ['simvastatin', 'clarithromycin']);
    expect(last.headers['x-ratelimit-remaining']).toBe('10');
    expect(last.json<Check>().interactions[0]).toMatchObject({ severity: 'contraindicated', commercial: false });
  });

  it('delivers licensed rows with mechanism and management to interactions:write and counts one request', async () => {
    const key = await t.key({ tier: 'growth' });
    const res = await check(key, ['simvastatin', 'clarithromycin']);
    expect(res.statusCode).toBe(200);
    const body = res.json<Check>();
    expect(body.locked).toEqual({ count: 0, why: null });
    expect(body.interactions.map((r) => [r.commercial, r.licence])).toEqual([[false, 'CC-BY-NC-4.0'], [true, 'drugref-demo-commercial-1.0']]);
    const licensed = body.interactions[1]!;
    expect(licensed.mechanism).toContain('CYP3A4');
    expect(licensed.management).toMatch(/Suspend simvastatin/);
    expect(res.headers['x-ratelimit-remaining']).toBe('149999');
  });

  it.each([
    ['developer', 'plan_does_not_include'], ['pro', 'plan_does_not_include'], ['starter', 'plan_does_not_include'], ['growth', null], ['enterprise', null],
  ] as const)('gives the %s tier the open rows and locked.why %s for the licensed ones', async (tier, why) => {
    const body = (await check(await t.key({ tier }), ['methotrexate', 'trimethoprim', 'ibuprofen'])).json<Check>();
    const open = body.interactions.filter((r) => !r.commercial);
    expect(open.map((r) => r.rule.key).sort()).toEqual(['J01EA01~L04AX03', 'L04AX03~M01A']);
    expect(body.interactions.filter((r) => r.commercial)).toHaveLength(why ? 0 : 2);
    expect(body.locked).toEqual(why ? { count: 2, why } : { count: 0, why: null });
  });

  it('withholds licensed rows with no_credit_left when the quota is used up, still answering the open rows', async () => {
    const key = await t.key({ tier: 'growth' });
    const { rows } = await t.db.query<{ account_id: string }>(
      "SELECT k.account_id FROM api_keys k WHERE k.last_four = $1", [key.slice(-4)]);
    const month = new Date().toISOString().slice(0, 8) + '01';
    await t.db.query(`INSERT INTO quota_usage (account_id, month_start, month_used, day_start, day_used) VALUES ($1, $2, 150000, $3, 0)
      ON CONFLICT (account_id, month_start) DO UPDATE SET month_used = 150000`, [rows[0]!.account_id, month, new Date().toISOString().slice(0, 10)]);
    const res = await check(key, ['warfarin', 'amiodarone', 'fluconazole']);
    expect(res.statusCode).toBe(200);
    const body = res.json<Check>();
    expect(body.pairs_checked).toBe(3);
    expect(body.interactions.every((r) => !r.commercial && r.mechanism === null)).toBe(true);
    expect(body.interactions.map((r) => r.atc_codes.join('+')).sort()).toEqual(['B01AA03+C01BD01', 'B01AA03+J02AC01']);
    expect(body.locked).toEqual({ count: 2, why: 'no_credit_left' });
  });

  it('resolves pack codes, uuids and explicit {system, code} references to the same substance', async () => {
    const { rows } = await t.db.query<{ id: string; code: string; system: string }>(
      `SELECT p.id, i.code, i.system FROM products p JOIN product_ingredients pi ON pi.product_id = p.id
         JOIN substances s ON s.unii = pi.unii JOIN identifiers i ON i.drug_id = p.id AND i.pack_id IS NOT NULL
        WHERE s.moiety_unii = 'AGG2FN16EV' AND i.system = 'gtin' ORDER BY p.id LIMIT 1`);
    const simvastatin = rows[0]!;
    const key = await t.key({ tier: 'developer' });
    const body = (await check(key, [simvastatin.id, { system: 'gtin', code: simvastatin.code }, simvastatin.code, 'clarithromycin'])).json<Check>();
    expect(body.inputs.map((i) => i.matched_by)).toEqual(['id', 'gtin', 'gtin', 'substance_name']);
    expect(body.inputs.every((i) => i.atc_codes.includes('C10AA01') || i.atc_codes.includes('J01FA09'))).toBe(true);
    expect(body.pairs_checked).toBe(1);
    expect(body.interactions).toHaveLength(1);
  });

  it('costs the same number of SQL round trips for 5 and for 50 drugs (1,225 pairs)', async () => {
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM substances WHERE unii = moiety_unii AND cardinality(atc_codes) > 0 ORDER BY name LIMIT 50');
    expect(rows).toHaveLength(50);
    const key = await t.key({ tier: 'enterprise' });
    await check(key, rows.slice(0, 5).map((r) => r.name));
    const trips = async (n: number) => {
      const before = t.db.roundTrips;
      const res = await check(key, rows.slice(0, n).map((r) => r.name));
      expect(res.statusCode).toBe(200);
      return { trips: t.db.roundTrips - before, pairs: res.json<Check>().pairs_checked };
    };
    const five = await trips(5);
    const fifty = await trips(50);
    expect(fifty.pairs).toBeGreaterThanOrEqual(1225);
    expect(fifty.trips).toBe(five.trips);
  });

  it('answers 422 for fewer than 2 or more than 50 drugs and for malformed references', async () => {
    const key = await t.key({ tier: 'developer' });
    for (const drugs of [['warfarin'], Array.from({ length: 51 }, () => 'warfarin'), ['warfarin', { system: 'nope', code: '1' }]]) {
      const res = await check(key, drugs);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'validation' });
    }
  });

  it('answers 401 without a key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/interactions/check', payload: { drugs: ['a', 'b'] } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });
});
