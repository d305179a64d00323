/**
 * Round trip of the BDPM fixtures: adapter → ingest engine (what `drugref ingest fr-bdpm`
 * runs) → the HTTP answers a pharmacist would check, asserted against the fixture rows.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const FILES = [
  'CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt', 'CIS_GENER_bdpm.txt', 'CIS_CPD_bdpm.txt', 'CIS_HAS_SMR_bdpm.txt',
  'CIS_HAS_ASMR_bdpm.txt', 'HAS_LiensPageCT_bdpm.txt', 'CIS_MITM.txt', 'CIS_InfoImportantes_20261120093012_bdpm.txt',
  'CIS_CIP_Dispo_Spec.txt',
];

interface Change { table_name: string; change_type: string; natural_key: Record<string, string>; drug_id: string }

describe('fr-bdpm round trip: fixture → ingest → /v1/drugs/lookup and /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const files = FILES.map((name) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/fr-bdpm/${name}`, import.meta.url)) }));
    const { snapshot } = await findAdapter('fr-bdpm')!.parse(files);
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 5 }, packs: { insert: 5 } });
  });
  afterAll(() => t.close());

  /** The drug record of a CIS, as `/v1/packs/cis/...` cannot be asked: found through its change record's drug id. */
  async function productImage(cis: string): Promise<Record<string, unknown>> {
    const res = await get('/v1/changes?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    const changes = (res.json() as { changes: Change[] }).changes;
    const insert = changes.find((c) => c.table_name === 'products' && c.natural_key.key === cis);
    expect(insert?.change_type).toBe('insert');
    const record = await get(`/v1/drugs/${insert!.drug_id}`);
    expect(record.statusCode, record.body).toBe(200);
    return record.json() as Record<string, unknown>;
  }

  it('answers a CIP13 with the product, its pack, price and reimbursement rate', async () => {
    const res = await get('/v1/drugs/lookup?system=cip13&code=3400949497300');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'VACCIN EXEMPLE, suspension injectable en seringue préremplie', country: 'FR', marketing_status: 'withdrawn',
      reimbursement_rate_percent: 65, holder: 'EXEMPLE BIOLOGICS', authorised_on: '2017-03-16',
      matched_pack: { description: '1 seringue(s) préremplie(s) en verre de 0,5 ml avec 1 aiguille', units: 1, unit: 'seringue(s)' },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'list', amount: 24.34, currency: 'EUR' }), expect.objectContaining({ kind: 'public', amount: 25.36, currency: 'EUR' }),
    ]));
    expect(body.identifiers).toEqual(expect.arrayContaining([
      expect.objectContaining({ system: 'cis', code: '68257528' }), expect.objectContaining({ system: 'eu_number', code: 'EU/1/17/1234/001' }),
      expect.objectContaining({ system: 'cip7', code: '4949730' }),
    ]));
    expect(body._meta.sources[0].id).toBe('fr-bdpm');
  });

  it('keeps the generic group and role, SMR, ASMR, monitoring and list of the product', async () => {
    const vaccine = await productImage('68257528');
    expect(vaccine).toMatchObject({ additional_monitoring: true, dispensing_category: 'Liste I', authorisation_status: 'Autorisation active' });
    expect(vaccine.assessments).toEqual([
      expect.objectContaining({ kind: 'asmr', value: 'IV', date: '2017-09-20', url: 'https://www.has-sante.fr/jcms/c_17000' }),
      expect.objectContaining({ kind: 'smr', value: 'Modéré', date: '2017-09-20', text: 'Le service médical rendu par VACCIN EXEMPLE est modéré chez les adultes à risque.' }),
    ]);
    const generic = await productImage('64793681');
    expect(generic).toMatchObject({ generic: true, additional_monitoring: false, atc_code: 'A10BA02' });
    expect(generic.generic_groups).toEqual([expect.objectContaining({ code: '1039', role: 'generic' })]);
    expect((await productImage('67535309')).generic_groups).toEqual([expect.objectContaining({ code: '1039', role: 'princeps' })]);
  });

  it('answers /v1/drugs/{id} with the salt strength and its moiety; the FT strength is kept beside it', async () => {
    const lookup = await get('/v1/drugs/lookup?system=cip13&code=3400936963504');
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json()).toMatchObject({ reimbursement_rate_percent: 65, generic: true, atc_code: 'A10BA02' });
    const res = await get(`/v1/drugs/${lookup.json().id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ingredients).toEqual([expect.objectContaining({
      unii: 'bdpm:24321', name: 'CHLORHYDRATE DE METFORMINE', moiety_unii: 'bdpm:04442', strength_value: 1000, strength_unit: 'mg',
    })]);
    expect(res.json().ingredients).toEqual([expect.objectContaining({
      strength_text: '1 000 mg pour un comprimé',
      moiety_strength: { unii: 'bdpm:04442', strength_value: 780, strength_unit: 'mg', strength_text: '780,00 mg pour un comprimé' },
    })]);
  });
});
