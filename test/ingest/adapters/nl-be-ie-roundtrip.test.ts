/**
 * Round trip of the Dutch, Belgian and Irish fixtures: each adapter → ingest engine → the HTTP
 * answers a pharmacist in those countries checks: a lookup by the national code (RVG number,
 * CNK, PA number), a name search in the country, the record by id, and `_meta.sources` naming
 * the real register rather than the demo catalogue.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { parseBeSam } from '../../../workers/ingest/adapters/be-sam.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const fixture = (dir: string, name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/${dir}/${name}`, import.meta.url)) });

describe('NL, BE and IE round trip: CBG, SAM and HPRA → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const lookup = async (system: string, code: string) => {
    const res = await get(`/v1/drugs/lookup?system=${system}&code=${encodeURIComponent(code)}`);
    expect(res.statusCode, `${system} ${code}: ${res.body}`).toBe(200);
    return res.json();
  };
  const search = async (q: string, country: string) => {
    const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=${country}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as Array<{ id: string; product_name: string; country: string }>;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    await ingestSnapshot(t.db, (await findAdapter('nl-cbg')!.parse([fixture('nl-cbg', 'metadata.csv')])).snapshot);
    await ingestSnapshot(t.db, (await parseBeSam([fixture('be-sam', 'AMP.xml'), fixture('be-sam', 'RMB.xml')], { asOf: new Date('2026-11-20T00:00:00Z') })).snapshot);
    await ingestSnapshot(t.db, (await findAdapter('ie-hpra')!.parse([fixture('ie-hpra', 'latestHMlist.xml')])).snapshot);
  }, 120_000);
  afterAll(() => t.close());

  it('answers an RVG number, printed with or without its prefix, with the CBG registration', async () => {
    const body = await lookup('cbg_meb_id', 'RVG 26627');
    expect(body).toMatchObject({
      product_name: 'Metformine HCl Sandoz 500 mg, filmomhulde tabletten', country: 'NL', atc_code: 'A10BA02',
      holder: 'Sandoz B.V.', dose_form: 'Filmomhulde tablet', authorised_on: '2001-09-12', dispensing_category: 'UR',
    });
    expect(body.ingredients).toEqual([expect.objectContaining({ strength_value: 500, strength_unit: 'mg' })]);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('nl-cbg');
    expect((await lookup('cbg_meb_id', '26627')).id).toBe(body.id);
  });

  it('answers a CNK with the SAM pack, its prices in EUR and the AMP it belongs to', async () => {
    const body = await lookup('be_apb', '2345678');
    expect(body).toMatchObject({
      product_name: 'Metformine Sandoz 500 mg filmomhulde tabletten', country: 'BE', holder: 'Sandoz NV', atc_code: 'A10BA02',
      matched_pack: { description: '30 tabletten', units: 30 },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'ex_factory', amount: 2.36, currency: 'EUR' }),
      expect.objectContaining({ kind: 'public', amount: 4.25, currency: 'EUR' }),
      expect.objectContaining({ kind: 'reimbursed', amount: 4.25, currency: 'EUR' }),
    ]));
    expect(body.reimbursement_rate_percent).toBe(75);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('be-sam');
    // The hospital CNK of the same pack, typed without its leading zero.
    expect((await lookup('be_apb', '781234')).id).toBe(body.id);
  });

  it('answers an Irish PA number and finds products by name within the country', async () => {
    const body = await lookup('ie_pa_number', 'PA0749/064/001');
    expect(body).toMatchObject({ product_name: 'Metformin Teva 500 mg Film-coated Tablets', country: 'IE', holder: 'Teva Pharma B.V.' });
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('ie-hpra');
    expect((await search('Augmentin', 'IE')).map((r) => r.product_name)).toContain('Augmentin 500 mg/125 mg film-coated tablets');
    expect((await search('Eliquis', 'BE')).map((r) => r.country)).toContain('BE');
    expect((await search('Glucophage', 'NL')).map((r) => r.product_name)).toContain('Glucophage 850 mg, filmomhulde tabletten');
  });

  it('finds a SAM product by its AMP code typed into search, and shows the record by id', async () => {
    const hits = await search('SAM054321-01', 'BE');
    expect(hits.map((h) => h.product_name)).toEqual(['Eliquis 5 mg']);
    const record = await get(`/v1/drugs/${hits[0]!.id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json()).toMatchObject({ product_name: 'Eliquis 5 mg', country: 'BE', additional_monitoring: true, atc_code: 'B01AF02' });
    expect(record.json().identifiers).toEqual(expect.arrayContaining([
      expect.objectContaining({ system: 'be_amp_code', code: 'SAM054321-01' }), expect.objectContaining({ system: 'eu_number', code: 'EU/1/11/691' }),
    ]));
  });
});
