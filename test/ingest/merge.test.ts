import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeGtin } from '../../vocabulary/check-digits.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { planMerge } from '../../workers/ingest/merge.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { PackEntry, ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const gtin = (no8: string) => completeGtin(`7680${no8}`)!;
const PONSTAN_250 = gtin('43004001');
const PONSTAN_500 = gtin('43004002');
const PONSTAN_FORTE = gtin('43004101');

function pack(no8: string, extra: Partial<PackEntry> = {}): PackEntry {
  return {
    key: gtin(no8), description: '12 Stk', units: 12, unit: 'Stk',
    identifiers: [{ system: 'gtin', code: gtin(no8) }, { system: 'swissmedic_no', code: no8 }], ...extra,
  };
}

function product(key: string, name: string, packs: PackEntry[], extra: Partial<ProductEntry> = {}): ProductEntry {
  return { key, country: 'CH', product_name: name, identifiers: [{ system: 'swissmedic_no', code: '43004' }], ingredients: [], packs, ...extra };
}

function source(id: string, products: ProductEntry[]): Snapshot {
  return { format: SNAPSHOT_FORMAT, source: { id, name: id, country: 'CH', refresh_interval_hours: 24 * 30 }, products };
}

/** The SL lists two strengths of one Swissmedic number as two preparations. */
const sl = () => source('ch-sl', [
  product('P250', 'Ponstan 250 mg', [pack('43004001', {
    prices: [{ amount: 5.2, currency: 'CHF', kind: 'public' }],
    sl: { listed: true, public_price: 5.2, coinsurance_percent: 10, flag: 'O', limitation: null },
  })], { atc_code: 'M01AG01' }),
  product('P500', 'Ponstan 500 mg', [pack('43004002')], { atc_code: 'M01AG01' }),
]);

/** Swissmedic: one product per number with every strength's packs, one of them not in the SL. */
const swissmedic = () => source('ch-swissmedic', [
  product('43004', 'Ponstan', [
    pack('43004001', { dispensing_category: 'B' }),
    pack('43004002', { dispensing_category: 'B' }),
    pack('43004101', { dispensing_category: 'B', narcotic_list: 'b' }),
  ], { dispensing_category: 'B', holder: 'Pfizer AG' }),
]);

/** Zur Rose: pharmacodes and prices of the same packs, keyed by pharmacode. */
const zurRose = (withSecond = true) => source('ch-zurrose', [
  product('ZR1', 'PONSTAN Filmtabl 250 mg 12 Stk', [{
    key: '1336630', description: '12 Stk',
    identifiers: [{ system: 'pharmacode', code: '1336630' }, { system: 'gtin', code: PONSTAN_250 }],
    prices: [{ amount: 2.6, currency: 'CHF', kind: 'ex_factory' }],
  }], { identifiers: [] }),
  ...(withSecond ? [product('ZR2', 'PONSTAN forte', [{
    key: '2222222', description: '12 Stk', identifiers: [{ system: 'pharmacode', code: '2222222' }, { system: 'gtin', code: PONSTAN_FORTE }],
  }], { identifiers: [] })] : []),
]);

describe('merging sources that describe the same pack', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    for (const snapshot of [zurRose(), swissmedic(), sl()]) await ingestSnapshot(t.db, snapshot);
  });
  afterAll(() => t.close());

  it('answers a pharmacode only Zur Rose knows with the SL product, its pack merged with every source', async () => {
    const res = await get('/v1/drugs/lookup?system=pharmacode&code=1336630');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ product_name: 'Ponstan 250 mg', atc_code: 'M01AG01' });
    expect(body.matched_pack).toMatchObject({
      description: '12 Stk', dispensing_category: 'B', sources: ['ch-sl', 'ch-swissmedic', 'ch-zurrose'],
      sl: expect.objectContaining({ public_price: 5.2, flag: 'O' }),
    });
    expect(body.matched_pack.prices).toEqual([
      { kind: 'ex_factory', amount: 2.6, currency: 'CHF', valid_from: null },
      { kind: 'public', amount: 5.2, currency: 'CHF', valid_from: null },
    ]);
    expect(body.matched_pack.identifiers.map((i: { system: string; code: string }) => `${i.system}:${i.code}`).sort())
      .toEqual([`gtin:${PONSTAN_250}`, 'pharmacode:1336630', 'swissmedic_no:43004001']);
    expect(body._meta.sources.map((s: { id: string }) => s.id).sort()).toEqual(['ch-sl', 'ch-swissmedic', 'ch-zurrose']);
  });

  it('keeps two SL strengths of one Swissmedic number apart, and the authorisation with a pack only it lists as its own product', async () => {
    const p500 = (await get(`/v1/drugs/lookup?system=gtin&code=${PONSTAN_500}`)).json();
    expect(p500).toMatchObject({ product_name: 'Ponstan 500 mg', matched_pack: { dispensing_category: 'B', sources: ['ch-sl', 'ch-swissmedic'] } });
    const forte = (await get(`/v1/drugs/lookup?system=gtin&code=${PONSTAN_FORTE}`)).json();
    expect(forte).toMatchObject({ product_name: 'Ponstan', dispensing_category: 'B', holder: 'Pfizer AG' });
    expect(forte.matched_pack).toMatchObject({ narcotic_list: 'b', sources: ['ch-swissmedic', 'ch-zurrose'] });
    // The authorisation lists every strength's pack, each as its representative.
    expect(forte.packs.map((k: { sources: string[] }) => k.sources[0]).sort()).toEqual(['ch-sl', 'ch-sl', 'ch-swissmedic']);
    const search = (await get('/v1/drugs?q=ponstan&country=CH')).json();
    expect(search.results.map((r: { product_name: string }) => r.product_name).sort()).toEqual(['Ponstan', 'Ponstan 250 mg', 'Ponstan 500 mg']);
  });

  it('lets a member id answer with its representative record', async () => {
    const { rows } = await t.db.query<{ id: string; merged_into: string }>(`SELECT id, merged_into FROM products WHERE source = 'ch-zurrose' AND natural_key = 'ZR1'`);
    const res = await get(`/v1/drugs/${rows[0]!.id}`);
    expect(res.json().id).toBe(rows[0]!.merged_into);
  });

  it('never removes another source\'s rows when one source is ingested again, and unmerges what it dropped', async () => {
    const before = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE source <> 'ch-zurrose'`);
    const report = await ingestSnapshot(t.db, zurRose(false));
    expect(report.tables.products).toMatchObject({ delete: 1 });
    expect((await t.db.query(`SELECT count(*)::int AS n FROM products WHERE source <> 'ch-zurrose'`)).rows).toEqual(before.rows);
    const forte = (await get(`/v1/drugs/lookup?system=gtin&code=${PONSTAN_FORTE}`)).json();
    expect(forte.matched_pack.sources).toEqual(['ch-swissmedic']);
    expect((await get('/v1/drugs/lookup?system=pharmacode&code=2222222')).statusCode).toBe(404);
  });
});

describe('planMerge', () => {
  const row = (product: string, source: string, pack: string | null, system: string, code: string) => ({ product, source, pack, system, code });

  it('never joins two products of one source through a product code', () => {
    const plan = planMerge([
      row('sl-a', 'ch-sl', 'sl-a1', 'gtin', '1'), row('sl-a', 'ch-sl', null, 'swissmedic_no', '43004'),
      row('sl-b', 'ch-sl', 'sl-b1', 'gtin', '2'), row('sl-b', 'ch-sl', null, 'swissmedic_no', '43004'),
      row('sm', 'ch-swissmedic', 'sm-1', 'gtin', '1'), row('sm', 'ch-swissmedic', 'sm-2', 'gtin', '2'),
      row('sm', 'ch-swissmedic', null, 'swissmedic_no', '43004'),
    ]);
    // Its packs lie in two SL products and it keeps none of its own: it joins the first.
    expect([...plan.products]).toEqual([['sm', 'sl-a']]);
    expect(new Map(plan.packs)).toEqual(new Map([['sm-1', 'sl-a1'], ['sm-2', 'sl-b1']]));
  });

  it('joins a product without pack codes to the one product sharing its product code, and none when two do', () => {
    const one = planMerge([row('sl', 'ch-sl', null, 'swissmedic_no', '43004'), row('r', 'ch-refdata', null, 'swissmedic_no', '43004')]);
    expect([...one.products]).toEqual([['r', 'sl']]);
    const two = planMerge([
      row('sl-a', 'ch-sl', null, 'swissmedic_no', '43004'), row('sl-b', 'ch-sl', null, 'swissmedic_no', '43004'),
      row('r', 'ch-refdata', null, 'swissmedic_no', '43004'),
    ]);
    expect(two.products.size).toBe(0);
  });

  it('chooses the representative by source precedence, whatever the order of the rows', () => {
    const rows = [row('r', 'ch-refdata', 'r1', 'gtin', '9'), row('z', 'ch-zurrose', 'z1', 'gtin', '9'), row('s', 'ch-swissmedic', 's1', 'gtin', '9')];
    expect(new Map(planMerge(rows).products)).toEqual(new Map([['r', 's'], ['z', 's']]));
    expect(new Map(planMerge([...rows].reverse()).products)).toEqual(new Map([['r', 's'], ['z', 's']]));
  });
});
