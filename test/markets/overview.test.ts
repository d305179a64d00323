import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import type { ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';
import { loadFxFile, DEMO_FX_FILE, parseEcbCsv, FxFileError } from '../../resolvers/markets/fx-file.ts';
import { completeGtin } from '../../vocabulary/check-digits.ts';

const SIMVASTATIN = 'AGG2FN16EV';

function product(key: string, country: ProductEntry['country'], strength: [number, string], packs: Array<{ units?: number; unit?: string; price?: [number, string] }>): ProductEntry {
  return {
    key, country, product_name: `Simva ${key}`, atc_code: 'C10AA01', route: 'oral', identifiers: [],
    ingredients: [{ unii: SIMVASTATIN, strength_value: strength[0], strength_unit: strength[1] }],
    packs: packs.map((p, i) => ({
      key: `${key}-${i}`, description: `${key} pack ${i}`, identifiers: [],
      ...(p.units !== undefined ? { units: p.units, unit: p.unit ?? 'tablets' } : {}),
      prices: p.price ? [{ amount: p.price[0], currency: p.price[1], kind: 'public' }] : [],
    })),
  };
}

const snapshot: Snapshot = {
  format: 'drugref-snapshot/1',
  source: { id: 'test-markets', name: 'Market test register', country: null, refresh_interval_hours: 24 },
  atc: [{ code: 'C', name: 'CARDIOVASCULAR SYSTEM' }, { code: 'C10', name: 'LIPID MODIFYING AGENTS' }, { code: 'C10A', name: 'LIPID MODIFYING AGENTS, PLAIN' },
    { code: 'C10AA', name: 'HMG CoA reductase inhibitors' }, { code: 'C10AA01', name: 'simvastatin', ddd: [{ value: 30, unit: 'mg', route: 'O' }] }],
  substances: [{ unii: SIMVASTATIN, name: 'simvastatin', atc_codes: ['C10AA01'] }],
  products: [
    // CH: 20 mg × 30 = 600 mg = 20 DDD for 26.04 CHF; 20 mg × 100 = 2000 mg = 66.67 DDD for 65.10 CHF.
    product('ch', 'CH', [20, 'mg'], [{ units: 30, price: [26.04, 'CHF'] }, { units: 100, price: [65.1, 'CHF'] }]),
    // GB: 0.04 g = 40 mg × 30 = 1200 mg = 40 DDD for 8.234 GBP.
    product('gb', 'GB', [0.04, 'g'], [{ units: 30, price: [8.234, 'GBP'] }]),
    // US: 10000 mcg = 10 mg × 90 = 900 mg = 30 DDD for 45 USD.
    product('us', 'US', [10000, 'mcg'], [{ units: 90, price: [45, 'USD'] }]),
    // DE: a release rate (per hour) cannot be normalised to the DDD: per unit.
    product('de', 'DE', [20, 'mcg/h'], [{ units: 20, unit: 'patches', price: [8, 'EUR'] }]),
    // FR: no unit count: per pack. IT: no price: none.
    product('fr', 'FR', [20, 'mg'], [{ price: [10, 'EUR'] }]),
    product('it', 'IT', [20, 'mg'], [{ units: 28 }]),
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await ingestSnapshots(t.db, [snapshot]);
  await loadFxFile(t.db, DEMO_FX_FILE);
});
afterAll(async () => { await t?.close(); });

interface Market { country: string; basis: string; price_per_ddd_usd: number | null; unit_price_usd: number | null; pack_price_usd: number | null; packs: number; priced_packs: number; currency: string | null }
interface Overview { resolved: { atc_codes: string[]; matched_by: string }; markets: Market[]; fx: { date: string; source: string; base: string; rates: Array<{ currency: string; per_eur: number }> }; _meta: { sources: Array<{ id: string }> } }

const get = async (query: string, key?: string) => t.app.inject({ method: 'GET', url: `/v1/markets/overview?${query}`, headers: bearer(key ?? await t.key({ tier: 'developer' })) });

describe('GET /v1/markets/overview', () => {
  it('computes price per DDD in USD by hand for CH, GB and US, with the ECB rates and date used', async () => {
    const res = await get('q=simvastatin');
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers['x-service-tier']).toBe('developer');
    const body = res.json<Overview>();
    expect(body.resolved).toMatchObject({ matched_by: 'substance_name', atc_codes: ['C10AA01'] });
    const by = new Map(body.markets.map((m) => [m.country, m]));
    // CH: 26.04 CHF / 1.3020 × 1.2725 = 25.45 USD / 20 DDD = 1.2725; 65.10 CHF → 63.625 USD / 66.667 DDD = 0.954375; median 1.1134375.
    expect(by.get('CH')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: 1.1134, packs: 2, priced_packs: 2, currency: 'CHF' });
    // GB: 8.234 GBP / 0.8234 × 1.2725 = 12.725 USD / 40 DDD = 0.318125.
    expect(by.get('GB')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: 0.3181 });
    // US: 45 USD / 30 DDD = 1.5 (mcg converted to mg).
    expect(by.get('US')).toMatchObject({ basis: 'per_ddd', price_per_ddd_usd: 1.5 });
    expect(by.get('DE')).toMatchObject({ basis: 'per_unit', price_per_ddd_usd: null, unit_price_usd: 0.509 });
    expect(by.get('FR')).toMatchObject({ basis: 'per_pack', price_per_ddd_usd: null, pack_price_usd: 12.725 });
    expect(by.get('IT')).toMatchObject({ basis: 'none', price_per_ddd_usd: null, unit_price_usd: null, pack_price_usd: null });
    expect(body.fx).toEqual({ date: '2010-09-10', source: 'ECB euro foreign exchange reference rates', base: 'EUR', rates: [
      { currency: 'CHF', per_eur: 1.302 }, { currency: 'EUR', per_eur: 1 }, { currency: 'GBP', per_eur: 0.8234 }, { currency: 'USD', per_eur: 1.2725 },
    ] });
    expect(body._meta.sources.map((s) => s.id)).toEqual(['test-markets']);
  });

  it('restricts to a comma list of countries and resolves an ATC code', async () => {
    const body = (await get('q=C10AA01&countries=ch,US')).json<Overview>();
    expect(body.resolved.matched_by).toBe('atc');
    expect(body.markets.map((m) => m.country)).toEqual(['CH', 'US']);
  });

  it('answers 404 when q resolves to nothing and 422 for an unknown country or a missing q', async () => {
    const missing = await get('q=nosuchsubstance');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
    const badCountry = await get('q=simvastatin&countries=CH,XX');
    expect(badCountry.statusCode).toBe(422);
    expect(badCountry.json()).toMatchObject({ error: 'validation', details: [{ field: 'countries' }] });
    expect((await get('countries=all')).statusCode).toBe(422);
  });

  it('answers 401 without a key and 403 without drugs:read', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/markets/overview?q=simvastatin' })).statusCode).toBe(401);
    const res = await get('q=simvastatin', await t.key({ tier: 'enterprise', scopes: ['atc:read'] }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
  });
});

describe('ECB reference-rate files', () => {
  it('reads the daily and the history layouts and refuses anything else', () => {
    expect(parseEcbCsv('Date,USD,CHF,\n2024-01-02,1.0956,N/A,\n')).toEqual([{ date: '2024-01-02', currency: 'USD', perEur: 1.0956 }]);
    expect(parseEcbCsv('Date, USD\n2 January 2024, 1.0956\n')[0]).toEqual({ date: '2024-01-02', currency: 'USD', perEur: 1.0956 });
    expect(() => parseEcbCsv('Currency,Rate\nUSD,1')).toThrow(FxFileError);
    expect(() => parseEcbCsv('Date, USD\n2 Foo 2024, 1.1')).toThrow(FxFileError);
  });
});

describe('GET /v1/markets/overview with several sources describing the same packs', () => {
  it('counts each pack once, as its representative, and a price only another source gives still counts', async () => {
    const gtin = (n: string) => completeGtin(`7680${n}`)!;
    const sl: Snapshot = {
      format: 'drugref-snapshot/1', source: { id: 'ch-sl', name: 'SL', country: 'CH', refresh_interval_hours: 24 },
      products: [{
        key: 'S1', country: 'CH', product_name: 'Simva SL', atc_code: 'C10AA01', route: 'oral', identifiers: [],
        ingredients: [{ unii: SIMVASTATIN, strength_value: 20, strength_unit: 'mg' }],
        packs: [{ key: gtin('55555001'), description: '30 Tabl', units: 30, unit: 'tablets', identifiers: [{ system: 'gtin', code: gtin('55555001') }] }],
      }],
    };
    const zurRose: Snapshot = {
      format: 'drugref-snapshot/1', source: { id: 'ch-zurrose', name: 'Zur Rose', country: 'CH', refresh_interval_hours: 24 },
      products: [{
        key: 'Z1', country: 'CH', product_name: 'SIMVA SL Tabl 20 mg 30 Stk', atc_code: 'C10AA01', identifiers: [],
        ingredients: [{ unii: SIMVASTATIN, strength_value: 20, strength_unit: 'mg' }],
        packs: [{
          key: '1234567', description: '30 Stk', units: 30, unit: 'tablets',
          identifiers: [{ system: 'gtin', code: gtin('55555001') }, { system: 'pharmacode', code: '1234567' }],
          prices: [{ amount: 26.04, currency: 'CHF', kind: 'public' }],
        }],
      }],
    };
    const own = await startTestApp();
    try {
      await ingestSnapshots(own.db, [snapshot, sl, zurRose]);
      await loadFxFile(own.db, DEMO_FX_FILE);
      const res = await own.app.inject({ url: '/v1/markets/overview?q=simvastatin&countries=CH', headers: bearer(await own.key({ tier: 'developer' })) });
      expect(res.statusCode).toBe(200);
      const ch = res.json<Overview>().markets.find((m) => m.country === 'CH');
      // The register's two packs plus the SL pack, whose only price comes from Zur Rose: three packs, not four.
      expect(ch).toMatchObject({ packs: 3, priced_packs: 3, basis: 'per_ddd' });
    } finally {
      await own.close();
    }
  });
});
