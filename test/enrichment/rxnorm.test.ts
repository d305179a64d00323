import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helpers/app.ts';
import type { FakeUpstream } from '../fakes/upstream-server.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const RX = '/rxnav/REST/rxcui/617312';

function rxnavRoutes(fake: FakeUpstream): void {
  fake.on(
    { path: `${RX}/properties.json`, fixture: 'rxnav/properties-617312.json' },
    { path: `${RX}/related.json`, query: { tty: 'IN BN SCD SBD' }, fixture: 'rxnav/related-617312.json' },
    { path: '/rxnav/REST/rxclass/class/byRxcui.json', query: { rxcui: '617312', relaSource: 'ATC' }, fixture: 'rxnav/rxclass-atc-617312.json' },
    { path: `${RX}/ndcs.json`, fixture: 'rxnav/ndcs-617312.json' },
    { path: '/rxnav/REST/rxcui/999999/properties.json', fixture: 'rxnav/properties-unknown.json' },
    { path: '/rxnav/REST/rxcui.json', query: { name: 'lipitor', search: '2' }, fixture: 'rxnav/rxcui-exact-lipitor.json' },
    { path: '/rxnav/REST/rxcui/153165/properties.json', fixture: 'rxnav/properties-153165.json' },
    { path: '/rxnav/REST/rxcui.json', query: { name: 'atorvastatn', search: '2' }, fixture: 'rxnav/rxcui-exact-none.json' },
    { path: '/rxnav/REST/approximateTerm.json', query: { term: 'atorvastatn' }, fixture: 'rxnav/approximate-atorvastatn.json' },
    { path: '/rxnav/REST/rxcui.json', query: { name: 'qqxzv', search: '2' }, body: { idGroup: {} } },
    { path: '/rxnav/REST/approximateTerm.json', query: { term: 'qqxzv' }, fixture: 'rxnav/approximate-none.json' },
  );
}

describe('GET /v1/rxnorm/{rxcui}', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp();
    rxnavRoutes(t.fake);
    key = await t.key();
  });
  afterAll(() => t.close());

  it('assembles name, ingredients, brands, dose-form drugs, ATC classes and NDCs from RxNav, fetched live', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    expect(res.json()).toEqual({
      rxcui: '617312',
      name: 'atorvastatin 10 MG Oral Tablet',
      tty: 'SCD',
      synonym: 'atorvastatin (as atorvastatin calcium trihydrate) 10 MG Oral Tablet',
      ingredients: [{ rxcui: '83367', name: 'atorvastatin', tty: 'IN' }],
      brands: [{ rxcui: '153165', name: 'Lipitor', tty: 'BN' }],
      dose_form_drugs: [{ rxcui: '617318', name: 'atorvastatin 10 MG Oral Tablet [Lipitor]', tty: 'SBD' }],
      atc_classes: [{ code: 'C10AA', name: 'HMG CoA reductase inhibitors', ingredient_rxcui: '83367', ingredient_name: 'atorvastatin' }],
      ndcs: ['00378395077', '00378395105', '00093505698', '60505257809', '68180021109'],
      crosswalk: null,
      missing: [],
    });
  });

  it('serves the second call from the database cache without asking RxNav', async () => {
    const before = t.fake.hits.length;
    const res = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('db');
    expect(t.fake.hits.length).toBe(before);
  });

  it('degrades to partial data when one part fails, naming the missing part', async () => {
    t.advance(8 * 86_400_000); // past RxNav's 7-day TTL, so every part is asked again
    t.fake.failing.add(`${RX}/ndcs.json`);
    try {
      const res = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      // The NDC part had an older copy: served stale rather than dropped.
      expect(res.headers['x-service-cache']).toBe('stale');
      expect(res.json().ndcs).toHaveLength(5);
      expect(res.json().missing).toEqual([]);

      await t.db.query(`DELETE FROM upstream_cache WHERE cache_key LIKE '%ndcs.json%'`);
      t.advance(8 * 86_400_000);
      const partial = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(key) });
      expect(partial.statusCode).toBe(200);
      expect(partial.headers['x-service-cache']).toBe('live');
      expect(partial.json()).toMatchObject({ name: 'atorvastatin 10 MG Oral Tablet', ndcs: [], missing: ['ndcs'], brands: [{ name: 'Lipitor' }] });
      expect(partial.body).not.toContain('UPSTREAM-INTERNAL');
    } finally {
      t.fake.failing.clear();
    }
  });

  it('answers 404 not_found for an rxcui RxNorm does not know', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/999999', headers: bearer(key) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'RxNorm concept was not found.' });
    expect(res.headers['x-service-cache']).toMatch(/^(live|db)$/);
  });

  it('answers 422 for an rxcui that is not digits', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/abc', headers: bearer(key) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ location: 'path', field: 'rxcui' }] });
  });

  it('answers 401 without a key and 403 without drugs:read', async () => {
    expect((await t.app.inject({ url: '/v1/rxnorm/617312' })).statusCode).toBe(401);
    const narrow = await t.key({ scopes: ['atc:read'] });
    const res = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(narrow) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', missing_scope: 'drugs:read' });
  });

  it('answers 502 upstream_error with a generic message when the concept cannot be fetched and nothing is cached', async () => {
    t.fake.failing.add('/rxnav/REST/rxcui/617999');
    const res = await t.app.inject({ url: '/v1/rxnorm/617999', headers: bearer(key) });
    t.fake.failing.clear();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
    // Asked now, nothing cached to stand in: the failed answer is a live one.
    expect(res.headers['x-service-cache']).toBe('live');
    expect(res.body).not.toContain('UPSTREAM-INTERNAL');
    expect(res.body).not.toContain('500');
    // One attempt plus one bounded retry reached the fake.
    expect(t.fake.hitsOf('/rxnav/REST/rxcui/617999')).toHaveLength(2);
  });
});

describe('GET /v1/rxnorm/resolve', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp();
    rxnavRoutes(t.fake);
    key = await t.key();
  });
  afterAll(() => t.close());

  it('finds an exact normalised match first', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/resolve?name=%20%20LIPITOR%20', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    expect(res.json()).toEqual({ query: '  LIPITOR ', normalized_name: 'lipitor', rxcui: '153165', name: 'Lipitor', match_type: 'exact', score: null, candidates: [] });
    expect(t.fake.hitsOf('/rxnav/REST/approximateTerm.json')).toHaveLength(0);
  });

  it('falls back to approximate matching, keeping RxNorm candidates once each, best first', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/resolve?name=Atorvastatn', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rxcui: '83367', name: 'atorvastatin', match_type: 'approximate', score: 8.943521499633789,
      candidates: [{ rxcui: '83367', name: 'atorvastatin', rank: 1 }, { rxcui: '153165', name: 'Lipitor', rank: 2 }],
    });
  });

  it('answers 404 when neither search finds a concept, and 422 without a name', async () => {
    const res = await t.app.inject({ url: '/v1/rxnorm/resolve?name=qqxzv', headers: bearer(key) });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    const bad = await t.app.inject({ url: '/v1/rxnorm/resolve', headers: bearer(key) });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation' });
  });

  it('answers 503 unavailable with retry-after when RxNav is switched off', async () => {
    const off = await startEnrichmentApp((c) => { c.sources.rxnav.enabled = false; c.retryAfterSeconds = 120; });
    try {
      const k = await off.key();
      const res = await off.app.inject({ url: '/v1/rxnorm/resolve?name=lipitor', headers: bearer(k) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('120');
      expect(res.json()).toEqual({ error: 'unavailable', message: 'This data source is switched off on this server.' });
      expect(off.fake.hits).toHaveLength(0);
    } finally {
      await off.close();
    }
  });
});
