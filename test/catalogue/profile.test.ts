import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { IDS, seedCatalogue, seedInteractions } from './fixtures.ts';

describe('GET /v1/drugs/{id}/profile', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, k = key) => t.app.inject({ url, headers: bearer(k) });

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    await seedInteractions(t.db);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('combines record, information texts, own Swiss pricing, pack prices and availability', async () => {
    const res = await get(`/v1/drugs/${IDS.brufenCh}/profile`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.drug).toMatchObject({ id: IDS.brufenCh, product_name: 'Brufen 400 mg Filmtabletten', monograph_languages: ['de', 'fr', 'it'] });
    expect(body.information).toEqual({
      lang: 'de', title: 'Brufen® Filmtabletten', indications: 'Schmerzen und Fieber.', contraindications: 'Schwere Herzinsuffizienz.',
      warnings: 'Gastrointestinale Blutungen.', boxed_warning: null, adverse_reactions: 'Dyspepsie, Übelkeit.',
      drug_interactions: 'Antikoagulanzien verstärken das Blutungsrisiko.',
    });
    expect(body.swiss_pricing).toMatchObject({ country: 'CH', basis: 'own' });
    expect(body.swiss_pricing.packs.map((p: { description: string }) => p.description)).toEqual(['20 Filmtabletten', '100 Filmtabletten']);
    expect(body.swiss_pricing.packs[0]).toMatchObject({
      drug_id: IDS.brufenCh, units: 20, sl: { listed: true, public_price: 9.85 },
      prices: [{ kind: 'ex_factory', amount: 4.52, currency: 'CHF' }, { kind: 'public', amount: 9.85, currency: 'CHF' }],
    });
    expect(body.pack_prices).toHaveLength(2);
    expect(body.availability).toEqual([
      { country: 'CH', count: 2 }, { country: 'DE', count: 2 }, { country: 'FR', count: 1 }, { country: 'IT', count: 1 }, { country: 'US', count: 1 },
    ]);
    expect(body.us_pricing).toBeNull();
    expect(body.interactions).toEqual({
      atc_code: 'M01AE01', total: 2, withheld_licensed: 1,
      rules: [
        { partner_code: 'B01AA', partner_label: null, severity: 'major', evidence: 'established', description: 'NSAIDs raise the bleeding risk of vitamin K antagonists.',
          licence: 'cc-by-nc-4.0', attributions: ['drugref reviewed interaction table'] },
        { partner_code: 'C08CA', partner_label: 'Dihydropyridine derivatives', severity: 'moderate', evidence: 'probable',
          description: 'NSAIDs can blunt the antihypertensive effect of dihydropyridines.', licence: 'cc-by-nc-4.0', attributions: ['drugref reviewed interaction table'] },
      ],
    });
    expect(body.adverse_event_signal).toBeNull();
    expect(body.unavailable.map((u: { section: string }) => u.section)).toEqual(['us_pricing', 'adverse_event_signal']);
    expect(body.unavailable[0].reason).toContain('FDA NDC directory publishes no prices');
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'drugref-interactions']);
  });

  it('prices the same medicine in the other market when the product is not sold there', async () => {
    const body = (await get(`/v1/drugs/${IDS.dafalganCh}/profile`)).json();
    expect(body.swiss_pricing).toMatchObject({ basis: 'own', packs: [{ drug_id: IDS.dafalganCh }] });
    expect(body.us_pricing).toEqual({
      country: 'US', basis: 'same_medicine',
      packs: [{ drug_id: IDS.tylenolUs, product_name: 'Tylenol Extra Strength', pack_id: expect.any(String), description: '100 TABLET in 1 BOTTLE', units: 100,
        prices: [{ kind: 'list', amount: 12.99, currency: 'USD', valid_from: '2026-01-01' }], sl: null }],
    });
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['ch-sl', 'us-fda-ndc']);
  });

  it('keeps a 200 with null sections and their reasons when little is known', async () => {
    const res = await get(`/v1/drugs/${IDS.unclassifiedDe}/profile`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // Naproxen (M01AE02) falls under the M01A class rules: interactions are known even here.
    expect(body).toMatchObject({ information: null, swiss_pricing: null, us_pricing: null, pack_prices: [], adverse_event_signal: null });
    expect(body.interactions).toMatchObject({ atc_code: 'M01AE02', total: 2, withheld_licensed: 0 });
    expect(body.availability).toEqual([{ country: 'DE', count: 1 }, { country: 'FR', count: 1 }]);
    expect(body.unavailable.map((u: { section: string }) => u.section)).toEqual(['information', 'swiss_pricing', 'us_pricing', 'adverse_event_signal']);
    const norvasc = (await get(`/v1/drugs/${IDS.norvascCh}/profile`)).json();
    expect(norvasc.interactions).toMatchObject({ total: 1, rules: [{ partner_code: 'M01A', partner_label: 'ANTIINFLAMMATORY AND ANTIRHEUMATIC PRODUCTS, NON-STEROIDS' }] });
    // Paracetamol has only a licensed rule: nothing listed, the withheld one counted.
    const tylenol = (await get(`/v1/drugs/${IDS.tylenolUs}/profile`)).json();
    expect(tylenol.interactions).toEqual({ atc_code: 'N02BE01', total: 0, withheld_licensed: 1, rules: [] });
    // No rule of either kind covers omeprazole: the section is null and says why.
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO products (source, natural_key, country, product_name, atc_code, record, content_hash)
       VALUES ('de-ifa', 'omeprazol-20', 'DE', 'Omeprazol 20 mg', 'A02BC01', '{}', 'omeprazol-20') RETURNING id`,
    );
    const omeprazole = (await get(`/v1/drugs/${rows[0]!.id}/profile`)).json();
    expect(omeprazole.interactions).toBeNull();
    expect(omeprazole.unavailable.find((u: { section: string }) => u.section === 'interactions').reason).toContain('No open rule');
  });

  it('answers 404, 422, 401 and 403', async () => {
    const missing = await get('/v1/drugs/00000000-0000-4000-8000-0000000000ff/profile');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: 'Drug was not found.' });
    const bad = await get('/v1/drugs/123/profile');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0]).toMatchObject({ location: 'path', field: 'id' });
    expect((await get(`/v1/drugs/${IDS.brufenCh}/profile?lang=fr`)).statusCode).toBe(422);
    expect((await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}/profile` })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    expect((await get(`/v1/drugs/${IDS.brufenCh}/profile`, narrow)).json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
  });
});
