import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CODES, IDS, seedCatalogue } from './fixtures.ts';

describe('GET /v1/drugs/{id}', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...bearer(key), ...headers } });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('answers the full record: ingredients, identifiers, packs with prices, ATC chain, monograph languages, _meta', async () => {
    const res = await get(`/v1/drugs/${IDS.brufenCh}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(res.headers['x-service-tier']).toBe('enterprise');
    const body = res.json();
    expect(body).toMatchObject({
      id: IDS.brufenCh, product_name: 'Brufen 400 mg Filmtabletten', substance_name: 'ibuprofen', brand: 'Brufen', generic: false,
      country: 'CH', atc_code: 'M01AE01', dose_form: 'film-coated tablet', route: 'oral', holder: 'Viatris Pharma GmbH',
      marketing_status: 'active', authorised_on: null, reimbursement_rate_percent: null,
      ingredients: [{ unii: 'WK2XYI10QM', name: 'ibuprofen', moiety_unii: 'WK2XYI10QM', strength_value: 400, strength_unit: 'mg' }],
      monograph_languages: ['de', 'fr', 'it'],
      classes: [],
    });
    expect(body.atc_chain.map((n: { code: string }) => n.code)).toEqual(['M', 'M01', 'M01A', 'M01AE', 'M01AE01']);
    expect(body.identifiers[0]).toEqual({ system: 'swissmedic_no', code: '52814', pack_id: null });
    expect(body.identifiers).toContainEqual({ system: 'gtin', code: CODES.brufenGtin, pack_id: expect.any(String) });
    expect(body.packs).toHaveLength(2);
    const [small] = body.packs;
    expect(small).toMatchObject({
      description: '20 Filmtabletten', units: 20, unit: 'tablet', marketing_status: 'active',
      prices: [{ kind: 'ex_factory', amount: 4.52, currency: 'CHF', valid_from: '2026-01-01' }, { kind: 'public', amount: 9.85, currency: 'CHF', valid_from: '2026-01-01' }],
      sl: { listed: true, public_price: 9.85, coinsurance_percent: 10, flag: 'O' },
    });
    const undated = { valid_from: null, valid_to: null, previous: false };
    expect(small.identifiers).toEqual(expect.arrayContaining([
      { system: 'gtin', code: CODES.brufenGtin, ...undated }, { system: 'pharmacode', code: CODES.brufenPharmacode, ...undated },
    ]));
    expect(small).toMatchObject({ dispensing_category: null, narcotic_list: null, availability: null, sources: ['ch-sl'] });
    expect(body._meta.sources).toEqual([expect.objectContaining({ id: 'ch-sl', schema_state: 'ok', demo: false })]);
  });

  it('answers 304 on a matching if-none-match', async () => {
    const first = await get(`/v1/drugs/${IDS.advilUs}`);
    const again = await get(`/v1/drugs/${IDS.advilUs}`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a FHIR R4 Medication with format=fhir', async () => {
    const res = await get(`/v1/drugs/${IDS.advilUs}?format=fhir`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const med = res.json();
    expect(med).toEqual({
      resourceType: 'Medication',
      id: IDS.advilUs,
      identifier: expect.arrayContaining([
        { system: 'http://hl7.org/fhir/sid/ndc', value: CODES.advilNdc11 },
        { system: 'http://hl7.org/fhir/sid/ndc', value: '005730150' },
      ]),
      code: { coding: [{ system: 'http://www.whocc.no/atc', code: 'M01AE01', display: 'ibuprofen' }], text: 'Advil' },
      status: 'active',
      manufacturer: { display: 'Haleon US Holdings LLC' },
      form: { text: 'tablet, coated' },
      ingredient: [{
        itemCodeableConcept: { coding: [{ system: 'http://fdasis.nlm.nih.gov', code: 'WK2XYI10QM', display: 'ibuprofen' }], text: 'ibuprofen' },
        isActive: true,
        strength: {
          numerator: { value: 200, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' },
          denominator: { value: 1, unit: '1', system: 'http://unitsofmeasure.org', code: '1' },
        },
      }],
    });
    expect(med.identifier).toHaveLength(3);
  });

  it('marks withdrawn products inactive in FHIR', async () => {
    const res = await get(`/v1/drugs/${IDS.oldIbuprofenCh}?format=fhir`);
    expect(res.json()).toMatchObject({ resourceType: 'Medication', status: 'inactive', identifier: [{ system: 'urn:drugref:identifier:swissmedic_no', value: '55001' }] });
  });

  it('answers 404 for an unknown id and 422 for a malformed one or an unknown format', async () => {
    const missing = await get('/v1/drugs/00000000-0000-4000-8000-0000000000ff');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'Drug was not found.' });
    const bad = await get('/v1/drugs/not-a-uuid');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'id' }] });
    const format = await get(`/v1/drugs/${IDS.brufenCh}?format=xml`);
    expect(format.statusCode).toBe(422);
    expect(format.json().details[0]).toMatchObject({ location: 'query', field: 'format' });
    expect(format.json().message).toContain('json, fhir');
  });

  it('costs the same round trips for a product with two packs, one with one pack and one with none: quota, then one record statement', async () => {
    const roundTrips = async (id: string) => {
      await get(`/v1/drugs/${id}`); // warm the key cache
      const before = t.db.roundTrips;
      expect((await get(`/v1/drugs/${id}`)).statusCode).toBe(200);
      return t.db.roundTrips - before;
    };
    const brufen = await roundTrips(IDS.brufenCh);
    expect(await roundTrips(IDS.advilFr)).toBe(brufen);
    // The record statement carries packs, their identifiers and prices whatever their number, none included.
    expect(await roundTrips(IDS.oldIbuprofenCh)).toBe(brufen);
    expect(brufen).toBe(2);
  });

  it('answers 401 without a key and 403 without drugs:read', async () => {
    expect((await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}` })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    const res = await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}`, headers: bearer(narrow) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
  });
});

describe('GET /v1/drugs/{id}/monograph', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('answers German by default and other languages on request', async () => {
    const de = await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/monograph`, headers: bearer(key) });
    expect(de.statusCode).toBe(200);
    expect(de.json()).toMatchObject({ lang: 'de', title: 'Brufen® Filmtabletten', available_languages: ['de', 'fr', 'it'] });
    expect(de.json().sections.indications).toBe('Schmerzen und Fieber.');
    expect(de.json()._meta.sources[0].id).toBe('ch-sl');
    const it_ = await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/monograph?lang=it`, headers: bearer(key) });
    expect(it_.json()).toMatchObject({ lang: 'it', title: 'Brufen® compresse rivestite', sections: { indications: 'Dolori e febbre.' } });
  });

  it('answers 404 naming the available languages, or the missing drug', async () => {
    const fr = await t.app.inject({ url: `/v1/drugs/${IDS.dafalganCh}/monograph?lang=fr`, headers: bearer(key) });
    expect(fr.statusCode).toBe(404);
    expect(fr.json()).toEqual({ error: 'not_found', message: 'This drug has no monograph in "fr" (available: de).' });
    const none = await t.app.inject({ url: `/v1/drugs/${IDS.advilUs}/monograph`, headers: bearer(key) });
    expect(none.json().message).toBe('This drug has no monograph in "de" (it has no monograph).');
    const unknown = await t.app.inject({ url: '/v1/drugs/00000000-0000-4000-8000-0000000000ff/monograph', headers: bearer(key) });
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Drug was not found.' });
  });

  it('answers 422 for an unsupported language, 401 without key, 403 without scope', async () => {
    const res = await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/monograph?lang=en`, headers: bearer(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ field: 'lang' }] });
    expect((await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/monograph` })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    expect((await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/monograph`, headers: bearer(narrow) })).statusCode).toBe(403);
  });
});
