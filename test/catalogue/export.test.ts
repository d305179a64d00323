import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeGtin } from '../../vocabulary/check-digits.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { PackEntry, ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { baseUrl, readNdjson } from '../helpers/ndjson.ts';

const gtin = (no8: string) => completeGtin(`7680${no8}`)!;

function pack(no8: string, extra: Partial<PackEntry> = {}): PackEntry {
  return {
    key: gtin(no8), description: '12 Stk', units: 12, unit: 'Stk',
    identifiers: [{ system: 'gtin', code: gtin(no8) }, { system: 'swissmedic_no', code: no8 }], ...extra,
  };
}

function product(key: string, name: string, packs: PackEntry[], extra: Partial<ProductEntry> = {}): ProductEntry {
  return { key, country: 'CH', product_name: name, identifiers: [{ system: 'swissmedic_no', code: key.slice(0, 5) }], ingredients: [], packs, ...extra };
}

function source(id: string, country: Snapshot['source']['country'], products: ProductEntry[]): Snapshot {
  return { format: SNAPSHOT_FORMAT, source: { id, name: id, country, refresh_interval_hours: 24 * 30 }, products };
}

/** Three sources describe the same Swiss pack; a second product is only in the SL. */
const sl = () => source('ch-sl', 'CH', [
  product('43004', 'Ponstan 250 mg', [pack('43004001', {
    prices: [{ amount: 5.2, currency: 'CHF', kind: 'public' }],
    sl: { listed: true, public_price: 5.2, coinsurance_percent: 10, flag: 'O', limitation: null },
  })], { atc_code: 'M01AG01' }),
  product('55555', 'Dafalgan 500 mg', [pack('55555001'), pack('55555002')], { atc_code: 'N02BE01' }),
]);
const swissmedic = () => source('ch-swissmedic', 'CH', [
  product('43004', 'Ponstan', [pack('43004001', { dispensing_category: 'B' })], { holder: 'Pfizer AG' }),
]);
const zurRose = () => source('ch-zurrose', 'CH', [
  product('ZR1', 'PONSTAN Filmtabl 250 mg 12 Stk', [{
    key: '1336630', description: '12 Stk',
    identifiers: [{ system: 'pharmacode', code: '1336630' }, { system: 'gtin', code: gtin('43004001') }],
    prices: [{ amount: 2.6, currency: 'CHF', kind: 'ex_factory' }],
  }], { identifiers: [] }),
]);
const fr = () => source('fr-bdpm', 'FR', [{ key: '6000001', country: 'FR', product_name: 'Doliprane', identifiers: [], ingredients: [], packs: [] }]);

interface Product { id: string; product_name: string; country: string; packs: Array<{ sources: string[]; prices: Array<{ kind: string }>; identifiers: Array<{ system: string; code: string }> }>; identifiers: unknown[] }

describe('GET /v1/catalogue/export', () => {
  let t: TestApp;
  let base: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    base = await baseUrl(t.app);
    key = await t.key({ tier: 'developer', account: 'catalogue-exporter' });
    for (const snapshot of [zurRose(), swissmedic(), sl(), fr()]) await ingestSnapshot(t.db, snapshot);
  });
  afterAll(() => t.close());

  it('lists each product of a country once, merged sources gathered, with packs, prices and identifiers', async () => {
    const res = await readNdjson(`${base}/v1/catalogue/export?country=CH`, bearer(key), { keep: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const products = res.lines.slice(0, -1) as unknown as Product[];
    expect(products.map((p) => p.product_name).sort()).toEqual(['Dafalgan 500 mg', 'Ponstan 250 mg']);
    expect(new Set(products.map((p) => p.id)).size).toBe(2);
    expect(products.every((p) => p.country === 'CH')).toBe(true);
    const ponstan = products.find((p) => p.product_name === 'Ponstan 250 mg')!;
    expect(ponstan.packs).toHaveLength(1);
    expect(ponstan.packs[0]!.sources).toEqual(['ch-sl', 'ch-swissmedic', 'ch-zurrose']);
    expect(ponstan.packs[0]!.prices.map((p) => p.kind).sort()).toEqual(['ex_factory', 'public']);
    expect(ponstan.packs[0]!.identifiers.map((i) => `${i.system}:${i.code}`).sort())
      .toEqual([`gtin:${gtin('43004001')}`, 'pharmacode:1336630', 'swissmedic_no:43004001']);
    expect(products.find((p) => p.product_name === 'Dafalgan 500 mg')!.packs).toHaveLength(2);
    // Each line is the drug record's main fields, as GET /v1/drugs/{id} answers them.
    const record = (await t.app.inject({ url: `/v1/drugs/${ponstan.id}`, headers: bearer(key) })).json() as Record<string, unknown>;
    for (const [field, value] of Object.entries(ponstan)) expect(record[field], field).toEqual(value);
    expect(res.last).toEqual({ _end: { country: 'CH', count: 2, as_of: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) } });
  });

  it('exports one register only, an empty one with just its closing line, and counts one request each', async () => {
    const frRes = await readNdjson(`${base}/v1/catalogue/export?country=FR`, bearer(key), { keep: true });
    expect(frRes.lines.map((l) => (l as { product_name?: string }).product_name ?? '_end')).toEqual(['Doliprane', '_end']);
    const left = Number(frRes.headers.get('x-ratelimit-remaining'));
    const empty = await readNdjson(`${base}/v1/catalogue/export?country=NO`, bearer(key), { keep: true });
    expect(empty.lines).toEqual([{ _end: { country: 'NO', count: 0, as_of: expect.any(String) } }]);
    expect(Number(empty.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
  });

  it('answers 401, 403 and 422 as JSON errors', async () => {
    const noKey = await readNdjson(`${base}/v1/catalogue/export?country=CH`, {});
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.text)).toMatchObject({ error: 'unauthorized' });
    const changesOnly = await t.key({ scopes: ['changes:read'] });
    const forbidden = await readNdjson(`${base}/v1/catalogue/export?country=CH`, bearer(changesOnly));
    expect(forbidden.status).toBe(403);
    expect(JSON.parse(forbidden.text)).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
    for (const query of ['', '?country=XX', '?country=ALL', '?country=CH&limit=3']) {
      const bad = await readNdjson(`${base}/v1/catalogue/export${query}`, bearer(key));
      expect(bad.status, query).toBe(422);
      expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(bad.text), query).toMatchObject({ error: 'validation' });
    }
  });
});
