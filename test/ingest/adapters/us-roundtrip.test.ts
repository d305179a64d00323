/**
 * Round trip of the US fixtures: each adapter → ingest engine (what `drugref ingest <adapter>`
 * runs, one ingest per source, the merge step linking packs by ndc11) → the HTTP answers a
 * pharmacist would check: an NDC in any printed layout, a name search, the unfinished records
 * kept out of search, the substance view with the UNII list's names.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const fixture = (dir: string, name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/${dir}/${name}`, import.meta.url)) });

/** Ingest order: the UNII list first, so it holds the substances the product registers name. */
const INGESTS: Array<[string, string, string[]]> = [
  ['us-unii', 'us-unii', ['UNII_Records_20Nov2026.txt', 'UNII_Names_20Nov2026.txt', 'UNII_Records_legacy.txt']],
  ['fda-ndc', 'fda-ndc', ['product.txt', 'package.txt']],
  ['fda-ndc', 'fda-ndc', ['unfinished_product.txt', 'unfinished_package.txt']],
  ['us-openfda-ndc', 'us-openfda-ndc', ['drug-ndc-0001-of-0001.json']],
  ['us-rxnorm', 'us-rxnorm', ['RXNCONSO.RRF', 'RXNSAT.RRF']],
  ['us-spl', 'us-spl', ['metformin-spl.xml', 'older-spl.xml']],
];

interface Result { id: string; product_name: string; country: string }

describe('US round trip: NDC directory, openFDA, UNII, RxNorm, SPL → ingest → /v1/drugs', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const lookup = async (code: string) => {
    const res = await get(`/v1/drugs/lookup?system=ndc11&code=${encodeURIComponent(code)}`);
    expect(res.statusCode, `${code}: ${res.body}`).toBe(200);
    return res.json();
  };
  const search = async (q: string): Promise<Result[]> => {
    const res = await get(`/v1/drugs?q=${encodeURIComponent(q)}&country=US`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results;
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    for (const [adapter, dir, names] of INGESTS) {
      const { snapshot } = await findAdapter(adapter)!.parse(names.map((n) => fixture(dir, n)));
      await ingestSnapshot(t.db, snapshot);
    }
  }, 120_000);
  afterAll(() => t.close());

  it('answers an NDC in 4-4-2 and plain 11 digits with one product that all US sources describing the pack share', async () => {
    const dashed = await lookup('0904-5853-61');
    const plain = await lookup('00904585361');
    expect(plain.id).toBe(dashed.id);
    expect(dashed).toMatchObject({
      product_name: 'Ibuprofen', country: 'US', generic: true, dose_form: 'TABLET, FILM COATED', route: 'ORAL', holder: 'Major Pharmaceuticals',
      authorised_on: '2010-01-15', marketing_status: 'active',
      matched_pack: { description: '100 TABLET, FILM COATED in 1 BOTTLE (0904-5853-61)', units: 100, unit: 'TABLET, FILM COATED' },
    });
    expect(dashed.matched_pack.sources).toEqual(['fda-ndc', 'us-openfda-ndc', 'us-rxnorm']);
    expect(dashed.identifiers).toEqual(expect.arrayContaining([
      expect.objectContaining({ system: 'national', code: 'ANDA075682' }), expect.objectContaining({ system: 'rxcui', code: '310965' }),
    ]));
    expect(dashed.classes).toContainEqual({ system: 'epc', code: 'name:NONSTEROIDAL ANTI-INFLAMMATORY DRUG', label: 'Nonsteroidal Anti-inflammatory Drug' });
  });

  it('answers 5-3-2 and HIPAA 5-4-2 printed NDCs', async () => {
    expect(await lookup('11673-010-24')).toMatchObject({ product_name: 'Migraine Relief Extra Strength', holder: 'Target Corporation' });
    const spl = await lookup('65162-0175-10');
    expect(spl).toMatchObject({
      product_name: 'Metformin Hydrochloride', holder: 'Amneal Pharmaceuticals LLC', dose_form: 'TABLET', generic: true,
      matched_pack: { description: '100 TABLET in 1 BOTTLE', units: 100, sources: ['us-spl'] },
    });
    expect(spl.ingredients).toEqual([expect.objectContaining({ unii: '786Z46389E', name: 'METFORMIN HYDROCHLORIDE', moiety_unii: '9100L32L2N', strength_value: 500, strength_unit: 'mg/1' })]);
  });

  it('answers an NDC only RxNorm lists with its clinical drug name, brand and RxCUI', async () => {
    const advil = await lookup('00573015020');
    expect(advil).toMatchObject({ product_name: 'ibuprofen 200 MG Oral Tablet [Advil]', brand: 'Advil', country: 'US', matched_pack: { sources: ['us-rxnorm'] } });
    expect(advil.identifiers).toContainEqual(expect.objectContaining({ system: 'rxcui', code: '153010' }));
  });

  it('resolves unfinished (bulk) NDCs in 5-4-1 and undashed form, but keeps them out of the US search', async () => {
    const bulk = await lookup('51927-1004-1');
    expect(bulk).toMatchObject({ product_name: 'Ibuprofen', holder: 'Société Chimique Exemple', attributes: { unfinished: true, marketing_category: 'BULK INGREDIENT' } });
    expect((await lookup('51927100402')).id).toBe(bulk.id);
    const testosterone = await lookup('11014-0385-1');
    expect(testosterone.attributes).toMatchObject({ unfinished: true, dea_schedule: 'CIII' });
    const found = await search('ibuprofen');
    expect(found.map((r) => r.product_name)).toEqual(expect.arrayContaining(['Ibuprofen', 'ibuprofen 200 MG Oral Tablet [Advil]', 'Ibuprofen IB']));
    expect(found.map((r) => r.id)).not.toContain(bulk.id);
    expect(await search('testosterone')).toEqual([]);
    expect(await search('ketoprofen')).toEqual([]);
  });

  it('finds finished products by name, withdrawn ones included', async () => {
    expect((await search('riomet')).map((r) => r.product_name)).toEqual(['Riomet®']);
    expect((await lookup('50580-496-10')).marketing_status).toBe('withdrawn');
  });

  it('answers the substance view from the UNII list: display name, register names, RxCUI, salt and moiety', async () => {
    const ibuprofen = await get('/v1/substances/WK2XYI10QM');
    expect(ibuprofen.statusCode, ibuprofen.body).toBe(200);
    expect(ibuprofen.json()).toMatchObject({
      unii: 'WK2XYI10QM', name: 'IBUPROFEN', rxcui: '5640', formula: 'C13H18O2', provisional: false,
      names: { inn: 'IBUPROFEN', usan: 'IBUPROFEN', la: 'IBUPROFENUM', fr: 'IBUPROFÈNE', es: 'IBUPROFENO' },
    });
    const salt = (await get('/v1/substances/786Z46389E')).json();
    expect(salt).toMatchObject({ name: 'METFORMIN HYDROCHLORIDE', moiety: { unii: '9100L32L2N', name: 'METFORMIN' }, markets: ['US'] });
  });
});
