import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const OT = '/opentargets/graphql';
const UNIPROT_Q = '(gene_exact:HMGCR) AND (organism_id:9606) AND (reviewed:true)';

describe('pgx, targets, genetics and structure', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp();
    t.fake.on(
      { path: '/cpic/drug', query: { name: 'eq.warfarin' }, fixture: 'cpic/drug-warfarin.json' },
      { path: '/cpic/pair_view', query: { drugid: 'eq.RxNorm:11289', removed: 'eq.false' }, fixture: 'cpic/pairs-warfarin.json' },
      { path: '/cpic/drug', query: { name: 'eq.nosuchdrug' }, body: [] },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"atorvastatin"', '"entity":"drug"'], fixture: 'opentargets/search-drug-atorvastatin.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"nosuchdrug"'], body: { data: { search: { total: 0, hits: [] } } } },
      { method: 'POST', path: OT, bodyIncludes: ['query Drug', '"id":"CHEMBL1487"'], fixture: 'opentargets/drug-CHEMBL1487.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"hmgcr"', '"entity":"target"'], fixture: 'opentargets/search-target-hmgcr.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"coronary artery disease"', '"entity":"disease"'], fixture: 'opentargets/search-disease-cad.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Genetics', '"target":"ENSG00000113161"', '"disease":"EFO_0001645"'], fixture: 'opentargets/evidence-hmgcr-cad.json' },
      { path: '/uniprot/uniprotkb/search', query: { query: UNIPROT_Q }, fixture: 'uniprot/search-hmgcr.json' },
      { path: '/uniprot/uniprotkb/search', query: { query: '(gene_exact:NOSUCHGENE) AND (organism_id:9606) AND (reviewed:true)' }, body: { results: [] } },
      { path: '/alphafold/api/prediction/P04035', fixture: 'alphafold/prediction-P04035.json' },
    );
    key = await t.key();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  it('pgx lists CPIC gene–drug pairs, strongest level first', async () => {
    const res = await get('/v1/pgx?name=Warfarin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    const body = res.json();
    expect(body.drug).toEqual({ name: 'warfarin', cpic_drug_id: 'RxNorm:11289', pharmgkb_id: 'PA451906', rxcui: '11289', drugbank_id: 'DB00682', atc_codes: ['B01AA03'] });
    expect(body.pairs.map((p: { gene: string; cpic_level: string }) => `${p.gene}:${p.cpic_level}`)).toEqual(['CYP2C9:A', 'CYP4F2:A', 'VKORC1:A', 'CYP2C19:C']);
    expect(body.pairs[0]).toEqual({
      gene: 'CYP2C9', cpic_level: 'A', cpic_level_status: 'Final', pharmgkb_level: '1A', pgx_testing: 'Actionable PGx', used_for_recommendation: true,
      guideline: { name: 'CPIC Guideline for Pharmacogenetics-Guided Warfarin Dosing', url: 'https://cpicpgx.org/guidelines/guideline-for-warfarin-and-cyp2c9-and-vkorc1/' }, pmids: ['28198005', '21900891'],
    });
    expect(body.pairs[3].guideline).toBeNull();
    expect((await get('/v1/pgx?name=warfarin')).headers['x-service-cache']).toBe('db');
  });

  it('pgx answers 404 for a drug CPIC does not list, and 422 without a name', async () => {
    expect((await get('/v1/pgx?name=nosuchdrug')).json()).toEqual({ error: 'not_found', message: 'Drug in CPIC was not found.' });
    expect((await get('/v1/pgx')).statusCode).toBe(422);
  });

  it('targets gives Open Targets mechanisms and indications, highest phase first', async () => {
    const res = await get('/v1/targets?name=atorvastatin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      drug: { chembl_id: 'CHEMBL1487', name: 'ATORVASTATIN', type: 'Small molecule', max_phase: 4, approved: true },
      targets: [{ ensembl_id: 'ENSG00000113161', symbol: 'HMGCR', name: '3-hydroxy-3-methylglutaryl-CoA reductase', mechanism: 'HMG-CoA reductase inhibitor', action_type: 'INHIBITOR' }],
      indications: [
        { disease_id: 'EFO_0001645', disease_name: 'coronary artery disease', max_phase: 4 },
        { disease_id: 'EFO_0003124', disease_name: 'hypercholesterolemia', max_phase: 4 },
        { disease_id: 'EFO_0000275', disease_name: 'atrial fibrillation', max_phase: 2 },
      ],
      source: 'opentargets',
    });
    expect((await get('/v1/targets?name=nosuchdrug')).statusCode).toBe(404);
  });

  it('treats an Open Targets answer with only GraphQL errors as a failure that is never cached', async () => {
    const errors = { data: null, errors: [{ message: 'Cannot query field "maximumClinicalTrialPhase" internal detail' }] };
    t.fake.on({ method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"rosuvastatin"'], body: errors });
    const count = async () => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM upstream_cache WHERE source = 'opentargets'`)).rows[0]?.n;
    const before = await count();
    const res = await get('/v1/targets?name=rosuvastatin');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
    expect(res.body).not.toContain('internal detail');
    expect(await count()).toBe(before);
    // Retried? No: a rejected answer is not a transient failure.
    expect(t.fake.hits.filter((h) => h.body.includes('"q":"rosuvastatin"'))).toHaveLength(1);
  });

  it('genetics resolves symbol and disease label, infers the protective direction and judges a drug concordant', async () => {
    const res = await get('/v1/targets/genetics?gene=HMGCR&disease=coronary%20artery%20disease&drug=atorvastatin');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      target: { ensembl_id: 'ENSG00000113161', symbol: 'HMGCR' },
      disease: { id: 'EFO_0001645', name: 'coronary artery disease' },
      evidence_count: 4,
      genetic_direction: 'inhibit',
      direction_votes: { inhibit: 3, activate: 0 },
      concordance: { verdict: 'concordant', drug_chembl_id: 'CHEMBL1487', drug_action: 'INHIBITOR', drug_direction: 'inhibit', genetic_direction: 'inhibit' },
    });
    expect(body.evidence[0]).toEqual({ source: 'gwas_credible_sets', score: 0.86, variant_effect: 'LoF', direction_on_trait: 'protect', supports: 'inhibit', variant_rsid: 'rs12916', study_id: 'GCST90132314', beta: -0.041, odds_ratio: null });
    expect(body.evidence[3].supports).toBeNull();
  });

  it('genetics accepts Ensembl and ontology ids as given and omits concordance without a drug', async () => {
    const res = await get('/v1/targets/genetics?gene=ENSG00000113161&disease=EFO:0001645');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ genetic_direction: 'inhibit', concordance: null });
  });

  it('genetics answers 404 when the gene cannot be resolved and 422 without a disease', async () => {
    t.fake.on({ method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"nosuchgene"'], body: { data: { search: { total: 0, hits: [] } } } });
    expect((await get('/v1/targets/genetics?gene=NOSUCHGENE&disease=EFO_0001645')).statusCode).toBe(404);
    expect((await get('/v1/targets/genetics?gene=HMGCR')).statusCode).toBe(422);
  });

  it('structure gives the UniProt entry, PDB entries by resolution and the AlphaFold model (organism_id defaults to 9606)', async () => {
    const res = await get('/v1/targets/structure?symbol=hmgcr');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      symbol: 'HMGCR',
      organism_id: 9606,
      uniprot: { accession: 'P04035', entry_name: 'HMDH_HUMAN', protein_name: '3-hydroxy-3-methylglutaryl-coenzyme A reductase', gene_names: ['HMGCR'], organism: 'Homo sapiens', length: 888, url: 'https://www.uniprot.org/uniprotkb/P04035/entry' },
      alphafold: {
        entry_id: 'AF-P04035-F1', version: 4, created: '2022-06-01', mean_plddt: 82.19, residues: [1, 888],
        cif_url: 'https://alphafold.ebi.ac.uk/files/AF-P04035-F1-model_v4.cif', pdb_url: 'https://alphafold.ebi.ac.uk/files/AF-P04035-F1-model_v4.pdb',
        pae_image_url: 'https://alphafold.ebi.ac.uk/files/AF-P04035-F1-predicted_aligned_error_v4.png',
      },
      pdb: [
        { id: '2Q1L', method: 'X-ray', resolution_angstrom: 2.05, chains: 'A/B/C/D=426-888' },
        { id: '1DQ8', method: 'X-ray', resolution_angstrom: 2.1, chains: 'A/B/C/D=426-888' },
        { id: '1HWK', method: 'X-ray', resolution_angstrom: 2.22, chains: 'A/B/C/D=426-888' },
        { id: '1HW9', method: 'X-ray', resolution_angstrom: 2.33, chains: 'A/B/C/D=426-888' },
      ],
      missing: [],
      source: 'uniprot',
    });
  });

  it('structure keeps the UniProt part when AlphaFold fails, naming it missing', async () => {
    await t.db.query(`DELETE FROM upstream_cache WHERE source = 'alphafold'`);
    t.fake.failing.add('/alphafold');
    try {
      const res = await get('/v1/targets/structure?symbol=HMGCR&organism_id=9606');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ uniprot: { accession: 'P04035' }, alphafold: null, missing: ['alphafold'] });
      expect(res.body).not.toContain(FakeUpstream.SECRET);
    } finally {
      t.fake.failing.clear();
    }
  });

  it('structure answers 404 for an unknown gene and 422 for a bad organism_id', async () => {
    expect((await get('/v1/targets/structure?symbol=NOSUCHGENE')).statusCode).toBe(404);
    const bad = await get('/v1/targets/structure?symbol=HMGCR&organism_id=human');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation', details: [{ location: 'query', field: 'organism_id' }] });
  });
});
