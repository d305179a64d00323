import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

describe('the four neutral enrichment paths', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp();
    t.fake.on(
      { path: '/chembl/molecule/CHEMBL1487.json', fixture: 'chembl/molecule-CHEMBL1487.json' },
      { path: '/chembl/molecule.json', query: { pref_name__iexact: 'atorvastatin' }, fixture: 'chembl/molecule-search-atorvastatin.json' },
      { path: '/chembl/molecule.json', query: { pref_name__iexact: 'lipitor' }, fixture: 'chembl/molecule-search-empty.json' },
      { path: '/chembl/molecule.json', query: { molecule_synonyms__molecule_synonym__iexact: 'lipitor' }, fixture: 'chembl/molecule-search-atorvastatin.json' },
      { path: '/chembl/molecule.json', query: { pref_name__iexact: 'nosuchdrug' }, fixture: 'chembl/molecule-search-empty.json' },
      { path: '/chembl/molecule.json', query: { molecule_synonyms__molecule_synonym__iexact: 'nosuchdrug' }, fixture: 'chembl/molecule-search-empty.json' },
      { path: '/openfda/drug/drugsfda.json', query: { search: 'openfda.brand_name:"atorvastatin" openfda.generic_name:"atorvastatin" products.brand_name:"atorvastatin"' }, fixture: 'openfda/drugsfda-atorvastatin.json' },
      { path: '/openfda/drug/ndc.json', query: { search: 'brand_name:"atorvastatin" generic_name:"atorvastatin"' }, fixture: 'openfda/ndc-atorvastatin.json' },
      { path: '/gtopdb/ligands', query: { name: 'atorvastatin' }, fixture: 'gtopdb/ligands-atorvastatin.json' },
      { path: '/gtopdb/ligands/2949/interactions', fixture: 'gtopdb/interactions-2949.json' },
      { path: '/gtopdb/targets/639', fixture: 'gtopdb/target-639.json' },
      { path: '/gtopdb/targets/1227', fixture: 'gtopdb/target-1227.json' },
      { path: '/gtopdb/ligands', query: { name: 'nosuchdrug' }, body: [] },
    );
    key = await t.key();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  it('molecule-enrichment maps a ChEMBL molecule by id', async () => {
    const res = await get('/v1/molecule-enrichment?chembl_id=chembl1487');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    expect(res.json()).toEqual({
      chembl_id: 'CHEMBL1487', pref_name: 'ATORVASTATIN', molecule_type: 'Small molecule', max_phase: 4, first_approval: 1996,
      oral: true, black_box_warning: false, withdrawn: false, indication_class: 'Antihyperlipidemic', atc_codes: ['C10AA05'],
      synonyms: ['Atorvastatin', 'CI-981', 'Lipitor'], trade_names: ['Lipitor'],
      structure: { smiles: expect.stringContaining('C(=O)O'), inchi_key: 'XUKUURHRXDUEBC-KAYWLYCHSA-N' },
      properties: { molecular_formula: 'C33H35FN2O5', molecular_weight: 558.65, alogp: 6.31, hba: 5, hbd: 4, psa: 111.79, rotatable_bonds: 12, ro5_violations: 2, qed: 0.2 },
      source: 'chembl',
    });
    const again = await get('/v1/molecule-enrichment?chembl_id=CHEMBL1487');
    expect(again.headers['x-service-cache']).toBe('db');
  });

  it('molecule-enrichment finds a molecule by synonym when no preferred name matches', async () => {
    const res = await get('/v1/molecule-enrichment?name=Lipitor');
    expect(res.statusCode).toBe(200);
    expect(res.json().chembl_id).toBe('CHEMBL1487');
  });

  it('molecule-enrichment answers 404 for an unknown name or id, and 422 for both or neither parameter', async () => {
    expect((await get('/v1/molecule-enrichment?name=nosuchdrug')).json()).toEqual({ error: 'not_found', message: 'Molecule was not found.' });
    expect((await get('/v1/molecule-enrichment?chembl_id=CHEMBL999999')).statusCode).toBe(404);
    const both = await get('/v1/molecule-enrichment?chembl_id=CHEMBL1487&name=atorvastatin');
    expect(both.statusCode).toBe(422);
    expect(both.json()).toMatchObject({ error: 'validation', message: 'Give exactly one of chembl_id or name.' });
    expect((await get('/v1/molecule-enrichment')).statusCode).toBe(422);
    expect((await get('/v1/molecule-enrichment?chembl_id=1487')).statusCode).toBe(422);
  });

  it('us-approvals maps Drugs@FDA applications, oldest approval first', async () => {
    const res = await get('/v1/us-approvals?name=atorvastatin');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ query: 'atorvastatin', total: 2, source: 'openfda' });
    expect(body.applications[0]).toEqual({
      application_number: 'NDA020702', application_type: 'NDA', sponsor_name: 'VIATRIS SPECIALTY', brand_names: ['LIPITOR'], generic_names: ['ATORVASTATIN CALCIUM'],
      original_approval_date: '1996-12-17', review_priority: 'STANDARD',
      latest_submission: { type: 'SUPPL', number: '75', status: 'AP', date: '2024-02-01', class: 'Labeling' },
      products: [
        { product_number: '001', brand_name: 'LIPITOR', dosage_form: 'TABLET', route: 'ORAL', marketing_status: 'Prescription', reference_drug: true, te_code: 'AB', active_ingredients: [{ name: 'ATORVASTATIN CALCIUM', strength: 'EQ 10MG BASE' }] },
        { product_number: '002', brand_name: 'LIPITOR', dosage_form: 'TABLET', route: 'ORAL', marketing_status: 'Prescription', reference_drug: true, te_code: 'AB', active_ingredients: [{ name: 'ATORVASTATIN CALCIUM', strength: 'EQ 20MG BASE' }] },
      ],
    });
    expect(body.applications[1]).toMatchObject({ application_number: 'ANDA078773', application_type: 'ANDA', original_approval_date: '2012-05-30' });
  });

  it('us-approvals answers 404 when openFDA finds nothing (its own 404)', async () => {
    const res = await get('/v1/us-approvals?name=nosuchdrug');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('us-ndc-class groups FDA pharmacologic classes by axis', async () => {
    const res = await get('/v1/us-ndc-class?name=atorvastatin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      query: 'atorvastatin',
      classes: { epc: ['HMG-CoA Reductase Inhibitor'], moa: ['Hydroxymethylglutaryl-CoA Reductase Inhibitors'], pe: [], cs: [] },
      products: [{ product_ndc: '58151-155', brand_name: 'Lipitor', labeler_name: 'Viatris Specialty LLC', marketing_category: 'NDA' }, { product_ndc: '0378-3950', marketing_category: 'ANDA' }],
      total: 2,
    });
  });

  it('pharmacology-targets names each target and puts the primary human target first', async () => {
    const res = await get('/v1/pharmacology-targets?name=Atorvastatin');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ligand).toEqual({ id: 2949, name: 'atorvastatin', inn: 'atorvastatin', type: 'Synthetic organic', approved: true, withdrawn: false, who_essential: true, approval_source: 'FDA (1996)' });
    expect(body.interactions).toHaveLength(3);
    expect(body.interactions[0]).toEqual({
      target_id: 639, target_name: 'hydroxymethylglutaryl-CoA reductase', target_symbol: 'HMGCR', target_type: 'Enzyme', species: 'Human',
      primary_target: true, type: 'Inhibitor', action: 'Inhibition', affinity: '8.9', affinity_type: 'pIC50', pmids: [11349148],
    });
    expect(body.interactions[1]).toMatchObject({ target_symbol: 'OATP1B1', species: 'Human', affinity: '5.2 – 5.9' });
    expect(body.interactions[2]).toMatchObject({ target_id: 639, species: 'Rat' });
    // Two distinct targets → two name lookups, not one per interaction.
    expect(t.fake.hitsOf('/gtopdb/targets/')).toHaveLength(2);
  });

  it('pharmacology-targets answers 404 for an unknown ligand', async () => {
    expect((await get('/v1/pharmacology-targets?name=nosuchdrug')).statusCode).toBe(404);
  });

  it('answers 502 with a generic message when openFDA fails and nothing is cached', async () => {
    t.fake.failing.add('/openfda');
    try {
      const res = await get('/v1/us-ndc-class?name=simvastatin');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
      expect(res.body).not.toContain(FakeUpstream.SECRET);
    } finally {
      t.fake.failing.clear();
    }
  });
});
