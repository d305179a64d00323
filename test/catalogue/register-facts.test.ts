import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonSnapshot } from '../../workers/ingest/adapters/json-snapshot.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

/** A register's facts without columns of their own, as a JSON snapshot would carry them. */
const SNAPSHOT = {
  format: SNAPSHOT_FORMAT,
  source: { id: 'test-fr', name: 'Test FR', country: 'FR', refresh_interval_hours: 24 },
  substances: [
    { unii: 'bdpm:04442', name: 'CHLORHYDRATE DE METFORMINE', provisional: true, moiety_unii: 'bdpm:52395' },
    { unii: 'bdpm:52395', name: 'METFORMINE', provisional: true },
  ],
  products: [{
    key: '60002283', country: 'FR', product_name: 'GLUCOPHAGE 1000 mg, comprimé pelliculé sécable',
    identifiers: [{ system: 'cis', code: '60002283' }],
    ingredients: [{
      unii: 'bdpm:04442', strength_value: 1000, strength_unit: 'mg', strength_text: '1000 mg',
      moiety: { unii: 'bdpm:52395', strength_value: 780, strength_unit: 'mg', strength_text: '780 mg' },
    }],
    generic_groups: [{ code: '1232', label: 'METFORMINE (CHLORHYDRATE DE) 1000 mg - GLUCOPHAGE 1000 mg', role: 'princeps' }],
    additional_monitoring: false,
    assessments: [{ kind: 'smr', value: 'Important', date: '2018-05-16' }],
    previous_names: [{ name: 'GLUCOPHAGE 1000 mg, comprimé pelliculé', until: '2012-03-01' }],
    attributes: { procedure: 'Procédure nationale' },
    packs: [{
      key: '3400935955838', description: 'plaquette(s) PVC-Aluminium de 30 comprimé(s)',
      identifiers: [
        { system: 'cip13', code: '3400935955838', valid_from: '2005-01-10' },
        { system: 'cip7', code: '3595583', previous: true },
      ],
      prices: [{ amount: 3.88, currency: 'EUR', kind: 'public' }],
      reimbursement_rate_percent: 65,
      dispensing_category: 'Liste I',
    }],
  }],
};

describe('register facts on the drug record', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const { snapshot, problems } = parseJsonSnapshot('facts.json', Buffer.from(JSON.stringify(SNAPSHOT)));
    expect(problems).toEqual([]);
    await ingestSnapshot(t.db, snapshot);
  });
  afterAll(() => t.close());

  it('answers generic groups, assessments, previous names, moiety strengths and dated codes as the register gave them', async () => {
    const res = await t.app.inject({ url: '/v1/drugs/lookup?system=cip13&code=3400935955838', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      generic_groups: [{ code: '1232', label: SNAPSHOT.products[0]!.generic_groups[0]!.label, role: 'princeps' }],
      assessments: [{ kind: 'smr', value: 'Important', date: '2018-05-16', text: null }],
      previous_names: [{ name: 'GLUCOPHAGE 1000 mg, comprimé pelliculé', until: '2012-03-01' }],
      additional_monitoring: false, veterinary: false, attributes: { procedure: 'Procédure nationale' },
      ingredients: [{
        unii: 'bdpm:04442', moiety_unii: 'bdpm:52395', strength_value: 1000, strength_unit: 'mg', strength_text: '1000 mg',
        moiety_strength: { unii: 'bdpm:52395', strength_value: 780, strength_unit: 'mg', strength_text: '780 mg' },
      }],
      matched_pack: { dispensing_category: 'Liste I', sources: ['test-fr'] },
    });
    expect(body.matched_pack.identifiers).toEqual([
      { system: 'cip13', code: '3400935955838', valid_from: '2005-01-10', valid_to: null, previous: false },
      { system: 'cip7', code: '3595583', valid_from: null, valid_to: null, previous: true },
    ]);
  });

  it('reads the register facts for an ingredient only when a query selects its strength text or moiety strength', async () => {
    const query = (fields: string) => `{ drugs(q: "GLUCOPHAGE", country: "FR", limit: 5) { results { ingredients { ${fields} } } } }`;
    const post = async (fields: string) => {
      await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: query(fields) } });
      const before = t.db.roundTrips;
      const res = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: query(fields) } });
      expect(res.statusCode).toBe(200);
      return { trips: t.db.roundTrips - before, ingredients: res.json().data.drugs.results[0].ingredients };
    };
    const plain = await post('unii strengthValue');
    expect(plain.ingredients).toEqual([{ unii: 'bdpm:04442', strengthValue: 1000 }]);
    const written = await post('unii strengthValue strengthText moietyStrength { unii strengthText }');
    expect(written.ingredients).toEqual([{ unii: 'bdpm:04442', strengthValue: 1000, strengthText: '1000 mg', moietyStrength: { unii: 'bdpm:52395', strengthText: '780 mg' } }]);
    // One facts query more, whatever the number of fields and ingredients that read it.
    expect(written.trips).toBe(plain.trips + 1);
  });

  it('refuses a fact of the wrong shape with its JSON path, skipping the entry', () => {
    const bad = structuredClone(SNAPSHOT);
    (bad.products[0]!.generic_groups[0] as { role: string }).role = 'leader';
    const { snapshot, problems } = parseJsonSnapshot('bad.json', Buffer.from(JSON.stringify(bad)));
    expect(problems).toEqual([{ file: 'bad.json', line: 0, message: expect.stringContaining('$.products[0].generic_groups[0].role: must be one of') }]);
    expect(snapshot.products).toEqual([]);
  });
});
