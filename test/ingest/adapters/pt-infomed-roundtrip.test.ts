/**
 * Round trip of the Infomed fixture: adapter → ingest engine (what `drugref ingest pt-infomed`
 * runs) → the HTTP answers, asserted against the fixture rows. Portugal has no lookup system in
 * the public contract, so products are reached by name and by id; their national codes are
 * shown as identifiers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

interface Result { id: string; product_name: string; country: string }

describe('pt-infomed round trip: fixture → ingest → /v1/drugs?q= and /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const search = async (q: string): Promise<Result[]> => {
    const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=PT`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const content = readFileSync(new URL('../../fixtures/registers/pt-infomed/lista_infomed.csv', import.meta.url));
    const { snapshot } = await findAdapter('pt-infomed')!.parse([{ name: 'lista_infomed.csv', content }]);
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 7 }, packs: { insert: 8 } });
  }, 120_000);
  afterAll(() => t.close());

  it('finds products by brand name in Portugal', async () => {
    expect((await search('glucophage')).map((r) => r.product_name)).toEqual(['Glucophage 500 mg Comprimido revestido por película']);
    expect((await search('abasaglar')).map((r) => r.country)).toEqual(['PT']);
  });

  it('shows the record with its presentations, national codes, prices, escalão rate and source', async () => {
    const [hit] = await search('glucophage');
    const res = await get(`/v1/drugs/${hit!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      country: 'PT', atc_code: 'A10BA02', holder: 'Merck, S.A.', authorised_on: '1990-03-15', marketing_status: 'active',
      dose_form: 'Comprimido revestido por película', reimbursement_rate_percent: 90,
    });
    expect(body.ingredients).toEqual([expect.objectContaining({ strength_value: 500, strength_unit: 'mg' })]);
    const packs = body.packs as Array<{ description: string; units: number; prices: Array<{ kind: string; amount: number }>; identifiers: Array<{ system: string; code: string }> }>;
    expect(packs.map((p) => p.units).sort((a, b) => a - b)).toEqual([60, 120]);
    const sixty = packs.find((p) => p.units === 60)!;
    expect(sixty.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'public', amount: 2.98 }), expect.objectContaining({ kind: 'reimbursed', amount: 2.4 }),
    ]));
    expect(sixty.identifiers).toEqual(expect.arrayContaining([
      expect.objectContaining({ system: 'pt_registo', code: '2556683' }), expect.objectContaining({ system: 'pt_cnpem', code: '50012345' }),
    ]));
    expect(body._meta.sources[0].id).toBe('pt-infomed');
  });

  it('keeps the pen pack volume and the withdrawn products of the export', async () => {
    const [pen] = await search('abasaglar');
    const record = (await get(`/v1/drugs/${pen!.id}`)).json();
    expect(record.packs[0]).toMatchObject({ units: 5, unit: 'unidade(s)' });
    const [brufen] = await search('brufen');
    expect((await get(`/v1/drugs/${brufen!.id}`)).json()).toMatchObject({ marketing_status: 'withdrawn' });
  });
});
