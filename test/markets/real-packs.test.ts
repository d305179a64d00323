/**
 * /v1/markets/overview on packs as real registers describe them: pack sizes only in the
 * register's text (`28 Stk`, `plaquette(s) ... de 28 comprimé(s)`, FDA nested levels, dm+d
 * `28 tablet`, DE `N3 100 St`), strengths as text and in units (IE/UI), concentrations times
 * volumes, routes in the registers' words or missing; and `q` given as a pack code.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import type { Ingredient, PackEntry, ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';
import { loadFxFile, DEMO_FX_FILE } from '../../resolvers/markets/fx-file.ts';
import { completeGtin, completePzn } from '../../vocabulary/check-digits.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';

const SIMVASTATIN = 'AGG2FN16EV';
const CH_GTIN = completeGtin('768054321001');
const CH_HEPARIN_GTIN = completeGtin('768051234005');
const FR_CIP13 = completeGtin('340093912345');
const FR_HEPARIN_CIP13 = completeGtin('340095567891');
const DE_PZN = completePzn('1234567')!;
const US_NDC = '0093-7155-98';

type Extra = Partial<Pick<ProductEntry, 'route' | 'dose_form'>>;

function pack(key: string, description: string, price: [number, string, string], identifiers: PackEntry['identifiers'] = []): PackEntry {
  return { key, description, identifiers, prices: [{ amount: price[0], currency: price[1], kind: price[2] }] };
}

function product(key: string, country: ProductEntry['country'], atc: string, ingredient: Ingredient, packs: PackEntry[], extra: Extra = {}): ProductEntry {
  return { key, country, product_name: key, atc_code: atc, identifiers: [], ingredients: [ingredient], packs, ...extra };
}

const atc = (code: string, name: string, ddd?: { value: number; unit: string; route: string }) => ({ code, name, ...(ddd ? { ddd: [ddd] } : {}) });

const snapshot: Snapshot = {
  format: 'drugref-snapshot/1',
  source: { id: 'test-real-packs', name: 'Real pack texts', country: null, refresh_interval_hours: 24 },
  atc: [
    atc('C', 'CARDIOVASCULAR SYSTEM'), atc('C10', 'LIPID MODIFYING AGENTS'), atc('C10A', 'LIPID MODIFYING AGENTS, PLAIN'),
    atc('C10AA', 'HMG CoA reductase inhibitors'), atc('C10AA01', 'simvastatin', { value: 30, unit: 'mg', route: 'O' }),
    atc('B', 'BLOOD AND BLOOD FORMING ORGANS'), atc('B01', 'ANTITHROMBOTIC AGENTS'), atc('B01A', 'ANTITHROMBOTIC AGENTS'),
    atc('B01AB', 'Heparin group'), atc('B01AB01', 'heparin', { value: 10, unit: 'TU', route: 'P' }),
    atc('J', 'ANTIINFECTIVES FOR SYSTEMIC USE'), atc('J01', 'ANTIBACTERIALS FOR SYSTEMIC USE'), atc('J01C', 'BETA-LACTAM ANTIBACTERIALS, PENICILLINS'),
    atc('J01CA', 'Penicillins with extended spectrum'), atc('J01CA04', 'amoxicillin', { value: 1.5, unit: 'g', route: 'O' }),
  ],
  substances: [
    { unii: SIMVASTATIN, name: 'simvastatin', atc_codes: ['C10AA01'] },
    // The SL names substances in Latin and gives them no ATC code: only the product has one.
    { unii: 'name:SIMVASTATINUM', name: 'Simvastatinum', names: { la: 'Simvastatinum' }, provisional: true },
    { unii: 'name:HEPARINUM NATRICUM', name: 'Heparinum natricum', names: { la: 'Heparinum natricum' }, provisional: true },
    { unii: 'name:HEPARINE SODIQUE', name: 'héparine sodique', names: { fr: 'héparine sodique' }, provisional: true, atc_codes: ['B01AB01'] },
    { unii: 'name:AMOXICILLIN', name: 'amoxicillin', provisional: true, atc_codes: ['J01CA04'] },
  ],
  products: [
    // CH (SL): no route, no form, pack size only in the text.
    product('Zocor Filmtabl 20 mg', 'CH', 'C10AA01', { unii: 'name:SIMVASTATINUM', strength_value: 20, strength_unit: 'mg' },
      [pack(CH_GTIN, '28 Stk', [30, 'CHF', 'public'], [{ system: 'gtin', code: CH_GTIN }])]),
    // FR (BDPM): strength only as written, the blister label, the route in French.
    product('SIMVASTATINE ARROW 20 mg, comprimé pelliculé sécable', 'FR', 'C10AA01', { unii: SIMVASTATIN, strength_text: '20 mg' },
      [pack(FR_CIP13, 'plaquette(s) thermoformée(s) PVC-aluminium de 28 comprimé(s)', [6.02, 'EUR', 'public'],
        [{ system: 'cip13', code: FR_CIP13 }, { system: 'gtin', code: FR_CIP13 }])],
      { route: 'orale', dose_form: 'comprimé pelliculé sécable' }),
    // US (NDC): nested package levels, `mg/1`, the route in capitals.
    product('Simvastatin', 'US', 'C10AA01', { unii: SIMVASTATIN, strength_value: 40, strength_unit: 'mg/1' },
      [pack('00093715598', '1 BOTTLE in 1 CARTON (0093-7155-98) > 90 TABLET, FILM COATED in 1 BOTTLE', [45, 'USD', 'list'],
        [{ system: 'ndc', code: '0093715598' }, { system: 'ndc11', code: '00093715598' }])],
      { route: 'ORAL', dose_form: 'TABLET, FILM COATED' }),
    // GB (dm+d): the VMPP name carries the strength before the pack size; a Drug Tariff price.
    product('Simvastatin 40mg tablets', 'GB', 'C10AA01', { unii: SIMVASTATIN, strength_value: 40, strength_unit: 'mg' },
      [pack('gb-simva-28', 'Simvastatin 40mg tablets 28 tablet', [1.05, 'GBP', 'tariff'])], { route: 'Oral' }),
    // DE: the package size code before the count.
    product('Simva Aristo 20 mg Filmtabletten', 'DE', 'C10AA01', { unii: SIMVASTATIN, strength_value: 20, strength_unit: 'mg' },
      [pack(DE_PZN, 'N3 100 St', [15.37, 'EUR', 'public'], [{ system: 'pzn', code: DE_PZN }])], { dose_form: 'Filmtabletten' }),
    // Heparin: units (UI, IE) per volume times the pack's volume; routes in French, or none.
    product('HEPARINE SODIQUE 5 000 UI/ml', 'FR', 'B01AB01', { unii: 'name:HEPARINE SODIQUE', strength_text: '5 000 UI/ml' },
      [pack(FR_HEPARIN_CIP13, '10 ampoule(s) en verre de 1 ml', [10, 'EUR', 'public'], [{ system: 'cip13', code: FR_HEPARIN_CIP13 }])],
      { route: 'intraveineuse;sous-cutanée' }),
    product('Liquemine Inj Lös 25000 IE/5ml', 'CH', 'B01AB01', { unii: 'name:HEPARINUM NATRICUM', strength_value: 25000, strength_unit: 'IE/5 ml' },
      [pack(CH_HEPARIN_GTIN, 'Durchstf 5 ml', [20, 'CHF', 'public'], [{ system: 'gtin', code: CH_HEPARIN_GTIN }])]),
    // Amoxicillin: mg per 5 ml times a bottle volume; and a pack with no size at all.
    product('Amoxicillin 250mg/5ml oral suspension', 'GB', 'J01CA04', { unii: 'name:AMOXICILLIN', strength_value: 250, strength_unit: 'mg/5ml' },
      [pack('gb-amox-100', 'Amoxicillin 250mg/5ml oral suspension 100 ml', [1.2, 'GBP', 'tariff'])], { route: 'Oral' }),
    product('Amoxi Mepha Susp', 'CH', 'J01CA04', { unii: 'name:AMOXICILLIN', strength_value: 250, strength_unit: 'mg/5 ml' },
      [pack('ch-amox', 'Flasche', [9, 'CHF', 'public'])]),
  ],
};

const paracetamolAtc: Snapshot = {
  format: 'drugref-snapshot/1',
  source: { id: 'test-who-atc', name: 'WHO ATC excerpt', country: null, refresh_interval_hours: 24 },
  atc: [atc('N', 'NERVOUS SYSTEM'), atc('N02', 'ANALGESICS'), atc('N02B', 'OTHER ANALGESICS AND ANTIPYRETICS'),
    atc('N02BE', 'Anilides'), atc('N02BE01', 'paracetamol', { value: 3, unit: 'g', route: 'O' })],
  substances: [], products: [],
};

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  await ingestSnapshots(t.db, [snapshot]);
  // The SL as published, through its adapter: Latin substances without ATC, sizes as `16 Stk`.
  const sl = await findAdapter('ch-sl')!.parse([{ name: 'Preparations.xml', content: readFileSync(new URL('../fixtures/registers/ch-sl/Preparations.xml', import.meta.url)) }]);
  await ingestSnapshots(t.db, [paracetamolAtc, sl.snapshot]);
  await loadFxFile(t.db, DEMO_FX_FILE);
  key = await t.key({ tier: 'enterprise' });
});
afterAll(async () => { await t?.close(); });

interface Market { country: string; basis: string; price_per_ddd_usd: number | null; pack_price_usd: number | null; packs: number; priced_packs: number }
interface Overview { resolved: { atc_codes: string[]; matched_by: string }; markets: Market[] }

async function overview(q: string): Promise<{ status: number; body: Overview }> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/markets/overview?q=${encodeURIComponent(q)}`, headers: bearer(key) });
  return { status: res.statusCode, body: res.json<Overview>() };
}

// ECB 2010-09-10: USD 1.2725, CHF 1.3020, GBP 0.8234 per EUR.
const usd = (amount: number, perEur: number): number => (amount / perEur) * 1.2725;
const r4 = (v: number): number => Math.round(v * 10_000) / 10_000;

describe('price per DDD on packs described only in text', () => {
  it('reaches per_ddd in every simvastatin market', async () => {
    const { status, body } = await overview('simvastatin');
    expect(status).toBe(200);
    const by = new Map(body.markets.map((m) => [m.country, m]));
    // CH: `28 Stk` × 20 mg = 560 mg = 18.667 DDD; route from the only DDD route (O).
    expect(by.get('CH')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(30, 1.302) / (560 / 30)) });
    // FR: 28 comprimés × `20 mg` (strength text only).
    expect(by.get('FR')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(6.02, 1) / (560 / 30)) });
    // US: 1 bottle × 90 tablets × 40 mg/1 = 3600 mg = 120 DDD.
    expect(by.get('US')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(45 / 120) });
    // GB: `28 tablet` × 40 mg (the 40mg in the name is a strength, not a pack size); tariff price.
    expect(by.get('GB')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(1.05, 0.8234) / (1120 / 30)) });
    // DE: `N3 100 St` × 20 mg = 2000 mg.
    expect(by.get('DE')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(15.37, 1) / (2000 / 30)) });
  });

  it('multiplies units per volume by the pack volume (UI/ml, IE/5 ml against a DDD in TU)', async () => {
    const by = new Map((await overview('B01AB01')).body.markets.map((m) => [m.country, m]));
    // FR: 10 ampoules × 1 ml × 5 000 UI/ml = 50 000 U = 5 DDD of 10 TU.
    expect(by.get('FR')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(10, 1) / 5) });
    // CH: a 5 ml vial of 25 000 IE/5 ml = 2.5 DDD; parenteral from the vial.
    expect(by.get('CH')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(20, 1.302) / 2.5) });
  });

  it('multiplies mg per 5 ml by a bottle volume, and keeps per_pack where the text gives no size', async () => {
    const by = new Map((await overview('amoxicillin')).body.markets.map((m) => [m.country, m]));
    // GB: 250 mg/5 ml × 100 ml = 5 g = 3.333 DDD of 1.5 g.
    expect(by.get('GB')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: r4(usd(1.2, 0.8234) / (5000 / 1500)) });
    expect(by.get('CH')).toMatchObject({ basis: 'per_pack', price_per_ddd_usd: null, pack_price_usd: r4(usd(9, 1.302)) });
  });
});

describe('the SL fixture through its adapter', () => {
  it('prices `16 Stk` of 500 mg tablets per DDD and resolves the pack GTIN', async () => {
    const { status, body } = await overview('7680653170010');
    expect(status).toBe(200);
    expect(body.resolved.atc_codes).toEqual(['N02BE01']);
    // 16 × 500 mg = 8 g = 2.667 DDD of 3 g for 3.90 CHF (the fixture's `32 Stk` pack has a bad GTIN and is skipped).
    expect(body.markets).toEqual([expect.objectContaining({ country: 'CH', basis: 'per_ddd', packs: 1, priced_packs: 1, price_per_ddd_usd: r4(usd(3.9, 1.302) / (8 / 3)) })]);
  });
});

describe('q as a pack code', () => {
  it.each([
    ['a Swiss GTIN whose substance has no ATC code of its own', CH_GTIN, 'gtin'],
    ['a CIP13', FR_CIP13, 'cip13'],
    ['a PZN', DE_PZN, 'pzn'],
    ['a PZN written PZN-', `PZN-${DE_PZN}`, 'pzn'],
    ['a 4-4-2 NDC', US_NDC, 'ndc11'],
    ['a 5-4-2 billing NDC', '00093-7155-98', 'ndc11'],
    // The 10 digits as printed are also stored under `ndc`; either reading reaches the pack.
    ['an undashed 10-digit NDC', '0093715598', /^ndc(11)?$/],
    ['an 11-digit NDC', '00093715598', 'ndc11'],
    ['an NDC written "NDC 0093-7155-98"', `NDC ${US_NDC}`, 'ndc11'],
    ['an NDC written with spaces', 'NDC 0093 7155 98', /^ndc(11)?$/],
  ] as Array<[string, string, string | RegExp]>)('resolves %s to the substance ATC', async (_label, q, matchedBy) => {
    const { status, body } = await overview(q);
    expect(status).toBe(200);
    expect(body.resolved.atc_codes).toEqual(['C10AA01']);
    expect(body.resolved.matched_by).toMatch(matchedBy);
    expect(body.markets.map((m) => m.country)).toEqual(['CH', 'DE', 'FR', 'GB', 'US']);
  });

  it('resolves a heparin CIP13 and GTIN to B01AB01', async () => {
    expect((await overview(FR_HEPARIN_CIP13)).body.resolved.atc_codes).toEqual(['B01AB01']);
    expect((await overview(CH_HEPARIN_GTIN)).body.resolved.atc_codes).toEqual(['B01AB01']);
  });

  it('answers 404 for a well-formed code no pack has', async () => {
    expect((await overview(completeGtin('768099999999'))).status).toBe(404);
  });
});
