import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { IDS, seedCatalogue } from './fixtures.ts';

describe('GET /v1/substances/{unii} and /v1/substances/xref', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, k = key) => t.app.inject({ url, headers: bearer(k) });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('answers the substance view: names, salts, chemistry, classes and the drugs of its moiety', async () => {
    const res = await get('/v1/substances/wk2xyi10qm');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      unii: 'WK2XYI10QM', name: 'ibuprofen', provisional: false, moiety_unii: 'WK2XYI10QM', moiety: null,
      names: { inn: 'ibuprofen', usan: 'ibuprofen', de: 'Ibuprofen', fr: 'ibuprofène' },
      salts: [{ unii: 'N01ORX9D6S', name: 'ibuprofen lysine' }],
      formula: 'C13H18O2', rxcui: '5640',
      atc_classes: [{ code: 'M01AE01', name: 'ibuprofen', level: 5 }],
      classes: [{ system: 'epc', code: 'N0000175722', label: 'Nonsteroidal Anti-inflammatory Drug [EPC]' }, { system: 'moa', code: 'N0000000160', label: 'Cyclooxygenase Inhibitors [MoA]' }],
      drug_count: 8,
      markets: ['CH', 'DE', 'FR', 'IT', 'US'],
    });
    expect(body.drugs.map((d: { id: string }) => d.id)).toContain(IDS.algiforCh);
    expect(body.drugs).toHaveLength(8);
    expect(body.drugs[0].country).toBe('CH');
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'de-ifa', 'fr-bdpm', 'it-aifa', 'us-fda-ndc']);
  });

  it('shows a salt with its moiety and the moiety-wide drugs', async () => {
    const body = (await get('/v1/substances/864V2Q084H')).json();
    expect(body).toMatchObject({ unii: '864V2Q084H', name: 'amlodipine besylate', moiety_unii: '1J444QC288', moiety: { unii: '1J444QC288', name: 'amlodipine' }, drug_count: 1 });
    expect(body.drugs[0].id).toBe(IDS.norvascCh);
  });

  it('answers 404 for an unknown UNII and 422 for a bad check character or shape', async () => {
    const missing = await get('/v1/substances/R16CO5Y76E');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'Substance was not found.' });
    const digit = await get('/v1/substances/WK2XYI10QN');
    expect(digit.statusCode).toBe(422);
    expect(digit.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'unii' }] });
    expect(digit.json().message).toContain('check character');
    expect((await get('/v1/substances/abc')).statusCode).toBe(422);
  });

  it('resolves a preferred name, a synonym in another vocabulary and a misspelling', async () => {
    const exact = await get('/v1/substances/xref?name=Paracetamol');
    expect(exact.statusCode).toBe(200);
    expect(exact.json()).toMatchObject({
      query: 'Paracetamol', matched_by: 'name', unii: '362O9ITL9D', name: 'paracetamol',
      codes: { unii: '362O9ITL9D', rxcui: '161', inchikey: null, atc: ['N02BE01'] },
      structure: { formula: 'C8H9NO2', smiles: null, inchikey: null },
    });
    expect(exact.json()._meta.sources[0].id).toBe('us-fda-ndc');
    expect((await get('/v1/substances/xref?name=acetaminophen')).json()).toMatchObject({ matched_by: 'synonym', unii: '362O9ITL9D' });
    expect((await get('/v1/substances/xref?name=amlodipine%20besilate')).json()).toMatchObject({ matched_by: 'synonym', unii: '864V2Q084H', moiety_unii: '1J444QC288' });
    expect((await get('/v1/substances/xref?name=ibuprofin')).json()).toMatchObject({ matched_by: 'similar', unii: 'WK2XYI10QM' });
  });

  it('answers 404 when nothing is close, 422 without a name, 401 and 403', async () => {
    const none = await get('/v1/substances/xref?name=zzzzqqq');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('not_found');
    const missing = await get('/v1/substances/xref');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details[0]).toMatchObject({ location: 'query', field: 'name' });
    expect((await get('/v1/substances/xref?name=%20')).statusCode).toBe(422);
    expect((await t.app.inject({ url: '/v1/substances/WK2XYI10QM' })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    expect((await get('/v1/substances/xref?name=ibuprofen', narrow)).json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
  });
});
