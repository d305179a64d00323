/**
 * /v1/markets/overview end to end on a catalogue built from several registers' fixtures at
 * once, each through its own adapter: the WHO DDD table, the Swiss SL (forms only in the
 * product name, salts in Latin, an insulin vial whose strength lacks its `/ml`, a multipack
 * of ampoules), dm+d (metoprolol tartrate tablets, insulin vials and a pack of five
 * cartridges, ATC codes from its BNF/ATC file), the FDA NDC directory and the German
 * Festbetrag list (neither gives an ATC code, so they take no part in a market). Every expected
 * price per DDD is worked out by hand from the fixture rows.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import type { InputFile } from '../../workers/ingest/adapters/common.ts';
import { loadFxFile, DEMO_FX_FILE } from '../../resolvers/markets/fx-file.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';

const REGISTERS = new URL('../fixtures/registers/', import.meta.url);
const file = (path: string, name = path.split('/').pop()!): InputFile => ({ name, content: readFileSync(new URL(path, REGISTERS)) });
const dmd = (dir: string): InputFile[] => readdirSync(new URL(dir, REGISTERS)).filter((n) => n.endsWith('.xml')).map((n) => file(`${dir}${n}`));

async function parse(adapter: string, files: InputFile[]) {
  return (await findAdapter(adapter)!.parse(files)).snapshot;
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  const snapshots = [
    await parse('who-atc', [file('who-atc/markets-atc-ddd.csv', 'atc.csv')]),
    await parse('ch-sl', [file('ch-sl/markets/Preparations.xml')]),
    await parse('gb-dmd', dmd('gb-dmd/markets/')),
    await parse('fda-ndc', [file('fda-ndc/product.txt'), file('fda-ndc/package.txt')]),
    await parse('de-pzn', [file('de-pzn/festbetraege.csv')]),
  ];
  await ingestSnapshots(t.db, snapshots);
  await loadFxFile(t.db, DEMO_FX_FILE);
  key = await t.key({ tier: 'enterprise' });
});
afterAll(async () => { await t?.close(); });

interface Market { country: string; basis: string; price_per_ddd_usd: number | null; packs: number; priced_packs: number }

async function markets(q: string): Promise<Map<string, Market>> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/markets/overview?q=${encodeURIComponent(q)}`, headers: bearer(key) });
  expect(res.statusCode).toBe(200);
  return new Map(res.json<{ markets: Market[] }>().markets.map((m) => [m.country, m]));
}

// ECB reference rates of 10 September 2010 (the bundled file): USD 1.2725, CHF 1.3020, GBP 0.8234 per EUR.
const usd = (chf: number): number => (chf / 1.302) * 1.2725;
const usdOfGbp = (gbp: number): number => (gbp / 0.8234) * 1.2725;
const r4 = (v: number): number => Math.round(v * 10_000) / 10_000;
// Metoprolol tartrate (2:1): 2 × 267.36 g/mol of metoprolol in 2 × 267.36 + 150.09 = 684.81 g/mol.
const METOPROLOL_IN_TARTRATE = 534.72 / 684.81;

describe('price per DDD from the registers\' own files', () => {
  it('prices the Latin-salt metoprolol tablet and the ampoule multipack per DDD of the moiety', async () => {
    const ch = (await markets('C07AB02')).get('CH');
    // Tablets `Retard Divitabs 200 mg`, `14 Stk`, 19.85 CHF; no route in the SL, O and P both 0.15 g:
    //   14 × 200 mg tartrate × 0.78082 = 2 186.3 mg metoprolol = 14.575 DDD → 19.4004 USD ÷ 14.575 = 1.3310 USD/DDD.
    const tablets = usd(19.85) / ((14 * 200 * METOPROLOL_IN_TARTRATE) / 150);
    // Ampoules `i.v. Inj Lös 5 mg/5ml`, `Amp 5 x 5 ml`, 16.50 CHF; route P from `Inj Lös`:
    //   5 × 5 ml × 1 mg/ml = 25 mg tartrate × 0.78082 = 19.52 mg = 0.13014 DDD → 16.1261 USD ÷ 0.13014 = 123.91 USD/DDD.
    const ampoules = usd(16.5) / ((5 * 5 * METOPROLOL_IN_TARTRATE) / 150);
    // The market's value is the median of its two packs.
    expect(ch).toMatchObject({ basis: 'per_ddd', packs: 2, priced_packs: 2, price_per_ddd_usd: r4((tablets + ampoules) / 2) });
    expect(r4(tablets)).toBe(1.331);
  });

  it('prices dm+d metoprolol tartrate tablets per DDD of metoprolol', async () => {
    const gb = (await markets('metoprolol')).get('GB');
    // `Metoprolol 50mg tablets (Accord Healthcare Ltd) 28 tablet`, list price 0.96 GBP, route `Oral`, ingredient
    // `Metoprolol tartrate` (basis of strength: the salt): 28 × 50 mg × 0.78082 = 1 093.1 mg = 7.2877 DDD
    //   → 1.4836 USD ÷ 7.2877 = 0.2036 USD/DDD.
    expect(gb).toMatchObject({ basis: 'per_ddd', packs: 1, price_per_ddd_usd: r4(usdOfGbp(0.96) / ((28 * 50 * METOPROLOL_IN_TARTRATE) / 150)) });
    expect(gb!.price_per_ddd_usd).toBe(0.2036);
  });

  it('counts the insulin vial at 100 IE/ml × 10 ml, not 100 IE', async () => {
    const ch = (await markets('A10AB01')).get('CH');
    // `Inj Lös 100 IE/ml`, substance 100 U.I., `Durchstf 10 ml`, 30.50 CHF:
    //   100 IE/ml × 10 ml = 1 000 IE = 25 DDD of 40 U → 29.8090 USD ÷ 25 = 1.1924 USD/DDD.
    expect(ch).toMatchObject({ basis: 'per_ddd', packs: 1, priced_packs: 1, price_per_ddd_usd: r4(usd(30.5) / 25) });
    expect(ch!.price_per_ddd_usd).toBe(1.1924);
  });

  it('counts dm+d insulin by vial and by five cartridges, each at 100 units/ml', async () => {
    const gb = (await markets('A10AB01')).get('GB');
    // `… 10ml vials … 1 vial`, 15.68 GBP: 1 × 10 ml × 100 U/ml = 1 000 U = 25 DDD → 24.2320 USD ÷ 25 = 0.9693 USD/DDD.
    const vial = usdOfGbp(15.68) / 25;
    // `… 3ml cartridges … 5 cartridge`, 19.08 GBP: 5 × 3 ml × 100 U/ml = 1 500 U = 37.5 DDD → 29.4862 USD ÷ 37.5 = 0.7863.
    const cartridges = usdOfGbp(19.08) / 37.5;
    expect(gb).toMatchObject({ basis: 'per_ddd', packs: 2, priced_packs: 2, price_per_ddd_usd: r4((vial + cartridges) / 2) });
  });

  it('resolves the pack codes of the SL fixture to their ATC codes', async () => {
    // The SL tablet's GTIN resolves to metoprolol's ATC code, which the dm+d tablets share.
    expect([...(await markets('7680591230142')).keys()]).toEqual(['CH', 'GB']);
    expect((await markets('7680591250188')).get('CH')?.basis).toBe('per_ddd');
  });

  it('lists each pack with its own price per DDD, the price used and the strength counted, on request only', async () => {
    const url = '/v1/markets/overview?q=C07AB02&countries=CH';
    const plain = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    expect(plain.json().markets[0]).not.toHaveProperty('pack_prices');
    const res = await t.app.inject({ method: 'GET', url: `${url}&detail=packs`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const packs = res.json<{ markets: Array<{ pack_prices: Array<{ description: string; pricing: Record<string, unknown> }> }> }>().markets[0]!.pack_prices;
    const tablets = packs.find((p) => p.description === '14 Stk')!;
    expect(tablets.pricing).toEqual({
      basis: 'per_ddd', price_per_ddd_usd: 1.331, ddds: r4((14 * 200 * METOPROLOL_IN_TARTRATE) / 150), unit_price_usd: null,
      pack_price_usd: r4(usd(19.85)), reason: null, reason_text: null, price_kind: 'public', price_amount: 19.85, price_currency: 'CHF',
      strength_basis: 'salt_converted', strength_basis_why: expect.stringMatching(/tartras salt; WHO's DDD is of the moiety, 0\.781 of the salt's mass/),
    });
    // The market's figure is the median of the packs' own.
    const own = packs.map((p) => p.pricing.price_per_ddd_usd as number).sort((a, b) => a - b);
    expect(res.json().markets[0].price_per_ddd_usd).toBeCloseTo((own[0]! + own[1]!) / 2, 3);
  });

  it('gives each pack of the drug record its price per DDD with include=price_per_ddd, and a reason where it stops short', async () => {
    const search = await t.app.inject({ method: 'GET', url: '/v1/drugs/lookup?system=gtin&code=7680591230142', headers: bearer(key) });
    expect(search.statusCode).toBe(200);
    const id = search.json<{ id: string }>().id;
    const plain = await t.app.inject({ method: 'GET', url: `/v1/drugs/${id}`, headers: bearer(key) });
    expect(plain.json().packs[0]).not.toHaveProperty('price_per_ddd');
    const res = await t.app.inject({ method: 'GET', url: `/v1/drugs/${id}?include=price_per_ddd`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const packs = res.json<{ packs: Array<{ description: string; price_per_ddd: Record<string, unknown> }> }>().packs;
    expect(packs.find((p) => p.description === '14 Stk')!.price_per_ddd).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: 1.331, strength_basis: 'salt_converted' });
    const bad = await t.app.inject({ method: 'GET', url: `/v1/drugs/${id}?include=everything`, headers: bearer(key) });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation' });
  });

  it('says why a pack of the Festbetrag list, which carries no ATC code, has no price per DDD', async () => {
    // `ACC akut 600 Brausetabletten`, PZN 04884562, Festbetrag 14,35 EUR: the list names no ATC code, so no DDD.
    const found = await t.app.inject({ method: 'GET', url: '/v1/drugs/lookup?system=pzn&code=04884562', headers: bearer(key) });
    expect(found.statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: `/v1/drugs/${found.json<{ id: string }>().id}?include=price_per_ddd`, headers: bearer(key) });
    const packs = res.json<{ packs: Array<{ identifiers: Array<{ code: string }>; price_per_ddd: Record<string, unknown> }> }>().packs;
    const pack = packs.find((p) => p.identifiers.some((i) => i.code === '04884562'))!;
    expect(pack.price_per_ddd).toMatchObject({
      basis: 'per_unit', price_per_ddd_usd: null, reason: 'no_ddd', reason_text: 'WHO gives no DDD for the ATC code.',
      price_amount: 13.97, price_currency: 'EUR', strength_basis: 'substance',
    });
  });

  it('offers the same per-pack detail to the MCP tools market_prices and get_drug', async () => {
    const tools = (await mcpPost(t, key, rpc('tools/list'))).json().result.tools as Array<{ name: string; inputSchema: { properties: Record<string, { enum?: string[] }> } }>;
    expect(tools.find((x) => x.name === 'market_prices')!.inputSchema.properties.detail).toMatchObject({ enum: ['packs'] });
    expect(tools.find((x) => x.name === 'get_drug')!.inputSchema.properties.include).toMatchObject({ enum: ['price_per_ddd'] });
    const res = await mcpPost(t, key, rpc('tools/call', { name: 'market_prices', arguments: { q: 'C07AB02', countries: 'CH', detail: 'packs' } }));
    const answer = toolText(res).json as { markets: Array<{ pack_prices: Array<{ pricing: { price_per_ddd_usd: number | null } }> }> };
    expect(answer.markets[0]!.pack_prices.map((p) => p.pricing.price_per_ddd_usd)).toContain(1.331);
  });
});
