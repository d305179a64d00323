import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { UpstreamClient } from '../../platform/upstream/client.ts';
import { cacheKey } from '../../platform/upstream/cache.ts';
import { isApiError } from '../../platform/errors.ts';
import type { Database } from '../../platform/db.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { bearer } from '../helpers/app.ts';
import { fakeUpstreamConfig, startEnrichmentApp } from './helpers.ts';

const silent = { fatal: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, trace: () => undefined };

describe('upstream config', () => {
  it('defaults every HTTP source to its real public API and each curated source to the bundled files', () => {
    const c = loadConfig({}).upstream;
    expect(c.sources.rxnav).toEqual({ baseUrl: 'https://rxnav.nlm.nih.gov', ttlSeconds: 604_800, enabled: true });
    expect(c.sources.opentargets.baseUrl).toBe('https://api.platform.opentargets.org/api/v4');
    expect(c.sources.guidelines.baseUrl).toBeNull();
    expect(c).toMatchObject({ timeoutMs: 10_000, retries: 2, concurrency: 4, retryAfterSeconds: 300, crosswalkKey: null });
  });

  it('reads per-source switches and fails fast naming a malformed variable', () => {
    expect(loadConfig({ UPSTREAM_CHEMBL_ENABLED: 'false', UPSTREAM_CHEMBL_TTL_SECONDS: '60' }).upstream.sources.chembl).toMatchObject({ enabled: false, ttlSeconds: 60 });
    expect(() => loadConfig({ UPSTREAM_RXNAV_URL: 'not a url' })).toThrow(/UPSTREAM_RXNAV_URL must be a URL/);
    expect(() => loadConfig({ UPSTREAM_CONCURRENCY: '0' })).toThrow(/UPSTREAM_CONCURRENCY must be an integer >= 1/);
    expect(() => loadConfig({ RXNORM_CROSSWALK_KEY: 'k' })).toThrow(/RXNORM_CROSSWALK_KEY needs UPSTREAM_CROSSWALK_URL/);
  });
});

describe('cache key', () => {
  it('ignores parameter order and spacing but not values or bodies', () => {
    expect(cacheKey('GET', '/a', { b: ' x  y ', a: 1 })).toBe(cacheKey('get', '/a', { a: '1', b: 'x y' }));
    expect(cacheKey('GET', '/a', { a: 1 })).not.toBe(cacheKey('GET', '/a', { a: 2 }));
    expect(cacheKey('POST', '/g', {}, { q: 1 })).not.toBe(cacheKey('POST', '/g', {}, { q: 2 }));
  });
});

describe('UpstreamClient', () => {
  let fake: FakeUpstream;
  let db: Database;

  beforeAll(async () => {
    fake = await new FakeUpstream().start();
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await fake.close();
    await db.close();
  });

  it('caps requests in flight per upstream', async () => {
    for (let i = 0; i < 6; i++) fake.on({ path: `/chembl/slow/${i}`, body: { i }, delayMs: 80 });
    const client = new UpstreamClient({ config: fakeUpstreamConfig(fake, (c) => { c.concurrency = 2; }), db, log: silent });
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => client.fetch('chembl', { path: `/slow/${i}` })));
    expect(answers.map((a) => a.body)).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ i })));
    expect(fake.maxActive).toBe(2);
    await client.close();
  });

  it('retries 5xx a bounded number of times but never a 4xx, and maps both to a generic 502', async () => {
    fake.on({ path: '/openfda/bad-request', status: 400, body: { error: { code: 'BAD_REQUEST', message: 'secret detail' } } });
    fake.failing.add('/openfda/down');
    const client = new UpstreamClient({ config: fakeUpstreamConfig(fake, (c) => { c.retries = 2; }), db, log: silent });
    const down = await client.fetch('openfda', { path: '/down' }).catch((e: unknown) => e);
    expect(isApiError(down) && down.code).toBe('upstream_error');
    expect(fake.hitsOf('/openfda/down')).toHaveLength(3);
    const bad = await client.fetch('openfda', { path: '/bad-request' }).catch((e: unknown) => e);
    expect(isApiError(bad) && bad.toBody()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
    expect(fake.hitsOf('/openfda/bad-request')).toHaveLength(1);
    fake.failing.clear();
    await client.close();
  });

  it('moves live → db → stale as the copy ages and the upstream fails', async () => {
    fake.on({ path: '/uniprot/ages', body: { v: 1 } });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const client = new UpstreamClient({ config: fakeUpstreamConfig(fake, (c) => { c.sources.uniprot.ttlSeconds = 60; }), db, log: silent, now: () => new Date(now) });
    expect((await client.fetch('uniprot', { path: '/ages' })).cache).toBe('live');
    now += 59_000;
    expect((await client.fetch('uniprot', { path: '/ages' })).cache).toBe('db');
    now += 2_000;
    fake.failing.add('/uniprot/ages');
    const stale = await client.fetch('uniprot', { path: '/ages' });
    expect(stale).toMatchObject({ cache: 'stale', body: { v: 1 } });
    fake.failing.clear();
    expect((await client.fetch('uniprot', { path: '/ages' })).cache).toBe('live');
    await client.close();
  });
});

describe('licensed crosswalk and the public GraphQL rxnorm field', () => {
  it('adds the crosswalk only when a licence key is configured, sending it as a bearer token', async () => {
    const t = await startEnrichmentApp((c) => { c.crosswalkKey = 'lic-123'; });
    try {
      t.fake.on(
        { path: '/rxnav/REST/rxcui/617312/properties.json', fixture: 'rxnav/properties-617312.json' },
        { path: '/rxnav/REST/rxcui/617312/related.json', fixture: 'rxnav/related-617312.json' },
        { path: '/rxnav/REST/rxclass/class/byRxcui.json', fixture: 'rxnav/rxclass-atc-617312.json' },
        { path: '/rxnav/REST/rxcui/617312/ndcs.json', fixture: 'rxnav/ndcs-617312.json' },
        { path: '/crosswalk/rxcui/617312', body: { rxcui: '617312', mappings: [{ system: 'drugbank', code: 'DB01076', name: 'Atorvastatin' }, { system: 'gpi', code: '39400010100310' }] } },
      );
      const key = await t.key();
      const res = await t.app.inject({ url: '/v1/rxnorm/617312', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.json().crosswalk).toEqual([{ system: 'drugbank', code: 'DB01076', name: 'Atorvastatin' }, { system: 'gpi', code: '39400010100310', name: null }]);
      expect(t.fake.hitsOf('/crosswalk')[0]?.authorization).toBe('Bearer lic-123');

      const gql = await t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: '{ rxnorm(rxcui: "617312") { name brands { name } missing } }' } });
      expect(gql.statusCode).toBe(200);
      expect(gql.json()).toEqual({ data: { rxnorm: { name: 'atorvastatin 10 MG Oral Tablet', brands: [{ name: 'Lipitor' }], missing: [] } } });
      expect(gql.headers['x-service-cache']).toBe('db');
    } finally {
      await t.close();
    }
  });
});
