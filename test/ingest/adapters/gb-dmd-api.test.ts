/**
 * Round trip of the dm+d adapter: release fixture → adapter → ingest engine → the HTTP answer
 * a pharmacist checks (lookup by AMPP id and by GTIN), plus the stored facts the API does not
 * serialise yet (dispensing category, availability, previous names).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGbDmd } from '../../../workers/ingest/adapters/gb-dmd.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import type { Snapshot } from '../../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const DIR = new URL('../../fixtures/registers/gb-dmd/', import.meta.url);
const release = () => readdirSync(DIR).filter((n) => n.endsWith('.xml')).map((name) => ({ name, content: readFileSync(new URL(name, DIR)) }));

describe('gb-dmd round trip: release files → ingest → lookup API', () => {
  let t: TestApp;
  let key: string;
  let snapshot: Snapshot;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    snapshot = parseGbDmd(release()).snapshot;
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 5 }, packs: { insert: 6 } });
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('answers an AMPP id with the product, the pack, its Drug Tariff and list prices in GBP and its GTIN', async () => {
    const res = await get('/v1/drugs/lookup?system=dmd_amppid&code=4744711000001105');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'Adenocor 6mg/2ml solution for injection vials', country: 'GB', holder: 'Sanofi',
      dose_form: 'Solution for injection', route: 'Intravenous', atc_code: 'C01EB10', marketing_status: 'active',
      matched_pack: { description: 'Adenocor 6mg/2ml solution for injection vials (Sanofi) 6 vial', units: 6, unit: 'vial' },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      { kind: 'tariff', amount: 29.24, currency: 'GBP', valid_from: '2019-04-01' },
      { kind: 'list', amount: 6.45, currency: 'GBP', valid_from: '2017-06-01' },
    ]));
    expect(body.matched_pack.identifiers).toEqual(expect.arrayContaining([
      expect.objectContaining({ system: 'gtin', code: '5000283101086' }),
      expect.objectContaining({ system: 'dmd_vmppid', code: '4744111000001109' }),
    ]));
    expect(body._meta.sources[0].id).toBe('gb-dmd');
  });

  it('answers a GTIN printed in 14 digits with the pack it was folded into', async () => {
    const res = await get('/v1/drugs/lookup?system=gtin&code=05060064792018');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ product_name: 'Adenosine 6mg/2ml solution for injection vials', holder: 'Advanz Pharma' });
    expect(res.json().matched_pack.prices).toContainEqual({ kind: 'list', amount: 29.24, currency: 'GBP', valid_from: null });
    const special = await get('/v1/drugs/lookup?system=gtin&code=15012345000012');
    expect(special.json()).toMatchObject({ holder: 'Laboratoires Théa', matched_pack: { units: 10, unit: 'ml' } });
    expect(special.json().matched_pack.prices).toEqual([{ kind: 'list', amount: 118.5, currency: 'GBP', valid_from: '2021-02-15' }]);
  });

  it('stores the dispensing category, availability, withdrawal and previous name of the looked-up rows', async () => {
    const { rows } = await t.db.query<{ natural_key: string; marketing_status: string; dispensing: string | null; availability: string | null }>(
      `SELECT natural_key, marketing_status, record->>'dispensing_category' AS dispensing, record->>'availability' AS availability
         FROM packs WHERE source = 'gb-dmd' AND natural_key IN ('4744711000001105', '90000041000001103', '24531011000001108') ORDER BY natural_key`);
    expect(rows).toEqual([
      { natural_key: '24531011000001108', marketing_status: 'withdrawn', dispensing: 'POM', availability: 'not_available' },
      { natural_key: '4744711000001105', marketing_status: 'active', dispensing: 'POM', availability: null },
      { natural_key: '90000041000001103', marketing_status: 'active', dispensing: 'POM', availability: 'special_order' },
    ]);
    const product = await t.db.query<{ previous: unknown }>(`SELECT record->'previous_names' AS previous FROM products WHERE source = 'gb-dmd' AND natural_key = '4744411000001104'`);
    expect(product.rows[0]?.previous).toEqual([{ name: 'Adenocor 3mg/ml injection 2ml vials', until: '2004-07-12' }]);
  });

  it('answers the history a release carries: previous prices, the payment category, a previous VMP id and a generic AMP\'s previous name', async () => {
    const res = await get('/v1/drugs/lookup?system=dmd_amppid&code=22479711000001106');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.matched_pack.tariff_category).toBe('Part VIIIA Category C');
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      { kind: 'tariff_previous', amount: 5.99, currency: 'GBP', valid_from: null },
      { kind: 'list_previous', amount: 6.29, currency: 'GBP', valid_from: null },
    ]));
    const generic = (await get('/v1/drugs/lookup?system=dmd_amppid&code=21855511000001108')).json();
    expect(generic.previous_names).toEqual([{ name: 'Adenosine 3mg/ml injection 2ml vials', until: '2004-04-29' }]);
    expect(generic.identifiers).toContainEqual(expect.objectContaining({ system: 'dmd_vmpid', code: '318338001' }));
  });

  it('writes no change when the same release is ingested again', async () => {
    expect((await ingestSnapshot(t.db, parseGbDmd(release()).snapshot)).changes).toBe(0);
    expect(snapshot.products).toHaveLength(5);
  });
});
