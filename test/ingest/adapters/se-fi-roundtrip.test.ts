/**
 * Round trip of the Swedish and Finnish fixtures: adapter → ingest engine (what `drugref ingest
 * se-tlv` and `drugref ingest fi-fimea` run) → the HTTP answers a pharmacist there would check:
 * a Varunummer or Vnr, an authorisation number, an NPL id, a name search and the drug record.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const fixture = (dir: string, name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/${dir}/${name}`, import.meta.url)) });

interface Result { id: string; product_name: string; country: string }

describe('SE and FI round trip: TLV list and Fimea register with Kela prices → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const lookup = async (system: string, code: string) => {
    const res = await get(`/v1/drugs/lookup?system=${system}&code=${encodeURIComponent(code)}`);
    expect(res.statusCode, `${system} ${code}: ${res.body}`).toBe(200);
    return res.json();
  };
  const search = async (q: string, country: string): Promise<Result[]> => {
    const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=${country}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const npl = readdirSync(new URL('../../fixtures/registers/se-tlv/npl/', import.meta.url)).map((n) => fixture('se-tlv/npl', n));
    const se = await findAdapter('se-tlv')!.parse([fixture('se-tlv', 'tlv_lakemedel.csv'), ...npl]);
    expect((await ingestSnapshot(t.db, se.snapshot)).tables).toMatchObject({ products: { insert: 8 }, packs: { insert: 10 } });
    const fi = await findAdapter('fi-fimea')!.parse(['PAKKAUS.txt', 'LAAKEAINE.txt', 'kela_hinnat.txt'].map((n) => fixture('fi-fimea', n)));
    expect((await ingestSnapshot(t.db, fi.snapshot)).tables).toMatchObject({ products: { insert: 5 }, packs: { insert: 6 } });
  }, 120_000);
  afterAll(() => t.close());

  it('answers a Varunummer with the TLV product, its pack and SEK prices, naming se-tlv as the source', async () => {
    const body = await lookup('se_varunummer', '405122');
    expect(body).toMatchObject({
      product_name: 'Eliquis 5 mg Filmdragerad tablett', country: 'SE', atc_code: 'B01AF02', holder: 'Bristol-Myers Squibb/Pfizer EEIG',
      matched_pack: { description: 'Blister, 60 tabletter', units: 60, unit: 'tabletter' },
      attributes: { formansstatus: 'Beviljad' },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'ex_factory', amount: 1029.66, currency: 'SEK' }), expect.objectContaining({ kind: 'public', amount: 1096.13, currency: 'SEK' }),
    ]));
    expect(body.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'se_npl_id', code: '20101207000017' })]));
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('se-tlv');
  });

  it('finds Swedish products by name and by NPL id typed into the search, NPL-only products included', async () => {
    expect((await search('metformin', 'SE')).map((r) => r.product_name)).toContain('Metformin Teva 500 mg Filmdragerad tablett');
    expect((await search('20050120000091', 'SE')).map((r) => r.product_name)).toEqual(['Metformin Teva 500 mg Filmdragerad tablett']);
    expect((await search('20130115100016', 'SE')).map((r) => r.product_name)).toEqual(['Alvedon 500 mg']);
  });

  it('answers a Varunummer with the prescription status NPL gives its pack', async () => {
    const body = await lookup('se_varunummer', '112467');
    expect(body).toMatchObject({ product_name: 'Ibuprofen Orifarm 400 mg Filmdragerad tablett', marketing_status: 'withdrawn', matched_pack: { dispensing_category: 'receptfri' } });
  });

  it('answers a Finnish authorisation number and a centrally authorised EU pack number as fi_myyntilupa', async () => {
    const metformin = await lookup('fi_myyntilupa', '13466');
    expect(metformin).toMatchObject({
      product_name: 'Metformin Orion 500 mg tabletti, kalvopäällysteinen', country: 'FI', atc_code: 'A10BA02', holder: 'Orion Oyj',
      authorised_on: '1997-11-20', dose_form: 'tabletti, kalvopäällysteinen',
    });
    expect(metformin._meta.sources.map((s: { id: string }) => s.id)).toContain('fi-fimea');
    const eliquis = await lookup('fi_myyntilupa', 'EU/1/11/691/006');
    expect(eliquis).toMatchObject({ product_name: 'Eliquis 5 mg tabletti, kalvopäällysteinen', matched_pack: { description: '60 fol', units: 60 } });
    expect(eliquis.matched_pack.prices).toEqual([expect.objectContaining({ kind: 'public', amount: 84.37, currency: 'EUR' })]);
  });

  it('finds Finnish products by name and returns the drug record with Kela prices and the Vnr', async () => {
    const found = await search('burana', 'FI');
    expect(found.map((r) => r.product_name)).toEqual(['Burana 400 mg tabletti, kalvopäällysteinen']);
    const record = await get(`/v1/drugs/${found[0]!.id}`);
    expect(record.statusCode, record.body).toBe(200);
    const body = record.json();
    expect(body).toMatchObject({ country: 'FI', atc_code: 'M01AE01', marketing_status: 'withdrawn' });
    expect(body.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'fi_myyntilupa', code: '17035' })]));
    expect(JSON.stringify(body.packs)).toContain('448597');
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('fi-fimea');
  });
});
