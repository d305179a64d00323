/**
 * Round trip of the AIFA fixtures: adapter → ingest engine (what `drugref ingest it-aifa` runs)
 * → the HTTP answers an Italian pharmacist would check, asserted against the fixture rows.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const FILES = [
  'confezioni_fornitura.csv', 'PA_confezioni.csv', 'Classe_A_per_principio_attivo_28-02-2026.csv',
  'Classe_H_per_principio_attivo_28-02-2026.csv', 'Lista_farmaci_equivalenti.csv',
];

describe('it-aifa round trip: fixture → ingest → /v1/drugs/lookup, /v1/drugs?q= and /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const files = FILES.map((name) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/it-aifa/${name}`, import.meta.url)) }));
    const { snapshot } = await findAdapter('it-aifa')!.parse(files);
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 10 }, packs: { insert: 12 } });
  }, 120_000);
  afterAll(() => t.close());

  it('answers an AIC (with or without its printed A prefix) with the product, pack, prices and SSN rate', async () => {
    const res = await get('/v1/drugs/lookup?system=aic&code=A026846016');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'GLUCOPHAGE 500 MG COMPRESSE RIVESTITE CON FILM', country: 'IT', atc_code: 'A10BA02', holder: 'MERCK SERONO S.P.A.',
      dose_form: 'Compressa rivestita con film', marketing_status: 'active', reimbursement_rate_percent: 100,
      matched_pack: { description: '500 MG COMPRESSE RIVESTITE CON FILM- 30 COMPRESSE', units: 30, unit: 'COMPRESSE' },
    });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'public', amount: 2.21, currency: 'EUR' }), expect.objectContaining({ kind: 'reimbursed', amount: 1.98, currency: 'EUR' }),
    ]));
    expect(body.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'it_aic6', code: '026846' })]));
    expect(body.ingredients).toEqual([expect.objectContaining({ strength_value: 500, strength_unit: 'mg' })]);
    expect(body._meta.sources[0].id).toBe('it-aifa');
    const plain = await get('/v1/drugs/lookup?system=aic&code=026846016');
    expect(plain.json().id).toBe(body.id);
  });

  it('refuses an AIC with a wrong check digit as unprocessable (422), and answers 404 for an unknown valid one', async () => {
    expect((await get('/v1/drugs/lookup?system=aic&code=026846019')).statusCode).toBe(422);
    expect((await get('/v1/drugs/lookup?system=aic&code=034208025')).statusCode).toBe(404);
  });

  it('finds products by name and by AIC in the typeahead', async () => {
    const byName = await get('/v1/drugs?q=eliquis&country=IT');
    expect(byName.statusCode, byName.body).toBe(200);
    expect(byName.json().results.map((r: { product_name: string }) => r.product_name)).toEqual([
      'ELIQUIS 2,5 MG - COMPRESSA RIVESTITA CON FILM - USO ORALE - BLISTER (ALU/PVC/PVDC)',
    ]);
    const byCode = await get('/v1/drugs?q=043701010');
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json().results.map((r: { product_name: string }) => r.product_name)).toContain(
      "ABASAGLAR 100 UNITA'/ML SOLUZIONE INIETTABILE IN PENNA PRERIEMPITA",
    );
  });

  it('shows the whole record: both packs, the hospital-only pack, the combination ingredients and the attributes', async () => {
    const eliquis = (await get('/v1/drugs/lookup?system=aic&code=040931014')).json();
    const record = await get(`/v1/drugs/${eliquis.id}`);
    expect(record.statusCode, record.body).toBe(200);
    expect(record.json().packs.map((p: { description: string }) => p.description)).toEqual(expect.arrayContaining([
      '2,5 MG - COMPRESSA RIVESTITA CON FILM - USO ORALE - BLISTER (ALU/PVC/PVDC) - 20 COMPRESSE',
      '2,5 MG - COMPRESSA RIVESTITA CON FILM - USO ORALE - BLISTER (ALU/PVC/PVDC) - 60 COMPRESSE',
    ]));
    const vancomycin = (await get('/v1/drugs/lookup?system=aic&code=041705017')).json();
    expect(vancomycin).toMatchObject({ dispensing_category: 'OSP', attributes: { classe_rimborsabilita: 'H', gruppo_equivalenza: 'J9K' } });
    expect(vancomycin.matched_pack.prices).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'ex_factory', amount: 8.8 })]));
    const augmentin = (await get('/v1/drugs/lookup?system=aic&code=038045011')).json();
    expect(augmentin.ingredients.map((i: { strength_value: number }) => i.strength_value)).toEqual(expect.arrayContaining([875, 125]));
  });
});
