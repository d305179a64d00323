import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const OT = '/opentargets/graphql';

describe('GET /v1/assessment', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp();
    t.fake.on(
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"atorvastatin"', '"entity":"drug"'], fixture: 'opentargets/search-drug-atorvastatin.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"nosuchdrug"'], body: { data: { search: { total: 0, hits: [] } } } },
      { method: 'POST', path: OT, bodyIncludes: ['query Drug', '"id":"CHEMBL1487"'], fixture: 'opentargets/drug-CHEMBL1487.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"coronary artery disease"', '"entity":"disease"'], fixture: 'opentargets/search-disease-cad.json' },
      { method: 'POST', path: OT, bodyIncludes: ['query Genetics', '"target":"ENSG00000113161"', '"disease":"EFO_0001645"'], fixture: 'opentargets/evidence-hmgcr-cad.json' },
      { path: '/chembl/molecule/CHEMBL1487.json', fixture: 'chembl/molecule-CHEMBL1487.json' },
      { path: '/cpic/drug', query: { name: 'eq.atorvastatin' }, fixture: 'cpic/drug-atorvastatin.json' },
      { path: '/cpic/pair_view', query: { drugid: 'eq.RxNorm:83367', removed: 'eq.false' }, fixture: 'cpic/pairs-atorvastatin.json' },
    );
    key = await t.key();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  it('composes targets, concordant genetics, de-risking, guidelines, HTA coverage and a summary', async () => {
    const res = await get('/v1/assessment?drug=atorvastatin&indication=coronary%20artery%20disease');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    const body = res.json();
    expect(body.drug).toEqual({ chembl_id: 'CHEMBL1487', name: 'ATORVASTATIN', type: 'Small molecule' });
    expect(body.indication).toEqual({ query: 'coronary artery disease', id: 'EFO_0001645' });
    expect(body.targets).toMatchObject([{ symbol: 'HMGCR', action_type: 'INHIBITOR' }]);
    expect(body.genetics).toMatchObject([{ target: { symbol: 'HMGCR' }, genetic_direction: 'inhibit', evidence_count: 4, concordance: { verdict: 'concordant' } }]);
    expect(body.de_risking).toEqual({
      approved: true, max_phase: 4, max_phase_for_indication: 4, black_box_warning: false, withdrawn: false,
      pgx_actionable_genes: ['SLCO1B1'], flags: ['pgx_actionable:SLCO1B1'],
    });
    expect(body.reversal).toBeNull();
    expect(body.guidelines.results.map((r: { id: string }) => r.id)).toEqual(['esmo-cad-statins']);
    expect(body.hta).toMatchObject({ count: 0, results: [] });
    expect(body.hta.coverage).toMatch(/^No curated HTA matches/);
    expect(body.summary).toEqual({
      genetic_concordance: 'concordant', clinical_stage: 4, risk_flags: ['pgx_actionable:SLCO1B1'], reversal: 'no_signature',
      guideline_recommendations: 1, guidelines_naming_drug: 1, hta_decisions: 0,
    });
    expect(body.missing).toEqual([]);
    expect((await get('/v1/assessment?drug=atorvastatin&indication=coronary%20artery%20disease')).headers['x-service-cache']).toBe('db');
  });

  it('keeps a 200 with the failed section null and named in missing', async () => {
    await t.db.query(`DELETE FROM upstream_cache WHERE source = 'cpic'`);
    t.fake.failing.add('/cpic');
    try {
      const res = await get('/v1/assessment?drug=atorvastatin&indication=EFO_0001645');
      expect(res.statusCode).toBe(200);
      expect(res.json().missing).toEqual(['de_risking.pgx']);
      expect(res.json().de_risking).toMatchObject({ pgx_actionable_genes: null, black_box_warning: false });
      expect(res.body).not.toContain(FakeUpstream.SECRET);
    } finally {
      t.fake.failing.clear();
    }
  });

  it('answers 404 for a drug Open Targets does not know and 422 without an indication', async () => {
    const res = await get('/v1/assessment?drug=nosuchdrug&indication=EFO_0001645');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Drug or indication was not found.' });
    expect((await get('/v1/assessment?drug=atorvastatin')).statusCode).toBe(422);
  });

  it('answers 502 when the core source fails with nothing cached', async () => {
    t.fake.failing.add('/opentargets');
    try {
      const res = await get('/v1/assessment?drug=simvastatin&indication=EFO_0001645');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
    } finally {
      t.fake.failing.clear();
    }
  });
});
