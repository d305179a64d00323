/**
 * Round trip of the AEMPS nomenclátor fixture: adapter → ingest engine (what `drugref ingest
 * es-cima` runs) → the HTTP answers a Spanish pharmacist would check: a Código Nacional with or
 * without its control digit, a name search, the drug record with its substances.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const DIR = new URL('../../fixtures/registers/es-cima/', import.meta.url);

describe('es-cima round trip: nomenclátor → ingest → /v1/drugs/lookup, /v1/drugs?q=, /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const files = readdirSync(DIR, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).filter((n) => n !== 'wrong-root.xml' && n !== 'nomenclator_facturacion_2019.csv').map((name) => ({ name, content: readFileSync(new URL(name, DIR)) }));
    const { snapshot } = await findAdapter('es-cima')!.parse(files);
    const report = await ingestSnapshot(t.db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 6 }, packs: { insert: 7 } });
  }, 120_000);
  afterAll(() => t.close());

  it('answers a Código Nacional, also written with its control digit, with the medicine and its pack', async () => {
    const res = await get('/v1/drugs/lookup?system=cima_codigo&code=659123');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      product_name: 'METFORMINA CINFA 850 mg COMPRIMIDOS RECUBIERTOS CON PELÍCULA EFG', country: 'ES', atc_code: 'A10BA02',
      holder: 'Laboratorios Cinfa, S.A.', generic: true, authorised_on: '2003-06-18', marketing_status: 'active',
      matched_pack: { description: 'METFORMINA CINFA 850 mg COMPRIMIDOS RECUBIERTOS CON PELÍCULA EFG, 50 comprimidos', units: 50, unit: 'comprimidos' },
    });
    expect(body.identifiers).toContainEqual(expect.objectContaining({ system: 'es_nregistro', code: '65213' }));
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'public', amount: 1.96, currency: 'EUR' }), expect.objectContaining({ kind: 'reference', amount: 1.96, currency: 'EUR' }),
    ]));
    expect(body.generic_groups).toEqual([expect.objectContaining({ code: '1613', role: 'substitutable' })]);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toContain('es-cima');
    const withControlDigit = await get(`/v1/drugs/lookup?system=cima_codigo&code=${encodeURIComponent('CN 659123.4')}`);
    expect(withControlDigit.statusCode, withControlDigit.body).toBe(200);
    expect(withControlDigit.json().id).toBe(body.id);
  });

  it('finds the medicine by name and by its active substance in Spanish', async () => {
    const res = await get('/v1/drugs?q=eliquis&country=ES');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([expect.objectContaining({ product_name: 'ELIQUIS 5 mg COMPRIMIDOS RECUBIERTOS CON PELÍCULA', country: 'ES' })]);
    const bySubstance = await get('/v1/drugs?q=insulina%20glargina&country=ES');
    expect(bySubstance.statusCode, bySubstance.body).toBe(200);
    expect(bySubstance.json().results.map((r: { product_name: string }) => r.product_name)).toContain('LANTUS 100 UNIDADES/ml SOLUCIÓN INYECTABLE EN PLUMA PRECARGADA');
  });

  it('answers /v1/drugs/{id} with the substance strength per ml and the text as written', async () => {
    const lookup = await get('/v1/drugs/lookup?system=cima_codigo&code=712345');
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json()).toMatchObject({ marketing_status: 'withdrawn', authorisation_status: 'Suspendido' });
    const res = await get(`/v1/drugs/${lookup.json().id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ingredients).toEqual([expect.objectContaining({
      name: 'IBUPROFENO', strength_value: 20, strength_unit: 'mg/ml', strength_text: '100 mg / 5 ml',
    })]);
    expect(res.json()._meta.sources[0].id).toBe('es-cima');
  });
});
