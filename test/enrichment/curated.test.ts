import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bearer } from '../helpers/app.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const BUNDLED = new URL('../../data/curated/', import.meta.url);

describe('GET /v1/guidelines and /v1/hta (curated, through the upstream cache)', () => {
  let t: EnrichmentTestApp;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    // A copy of the bundled files, so one test can take the "source" away.
    dir = await mkdtemp(join(tmpdir(), 'drugref-curated-'));
    for (const f of ['guidelines.json', 'hta.json']) await copyFile(new URL(f, BUNDLED), join(dir, f));
    t = await startEnrichmentApp((c) => { c.sources.guidelines.baseUrl = pathToFileURL(dir).href; });
    key = await t.key();
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  it('filters guidelines by indication substring and publisher, newest first', async () => {
    const res = await get('/v1/guidelines?indication=lung%20cancer');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    const body = res.json();
    expect(body.results.map((r: { id: string }) => r.id)).toEqual(['nccn-nsclc-egfr-osimertinib', 'asco-nsclc-egfr', 'esmo-nsclc-egfr-osimertinib']);
    expect(body).toMatchObject({ count: 3, demo: true, source: 'curated' });
    expect(body.coverage).toContain('non-small cell lung cancer');
    expect(body.results[0]).toMatchObject({ source: 'nccn', drugs: ['osimertinib'], url: 'https://www.nccn.org/guidelines/category_1' });
    const only = await get('/v1/guidelines?indication=lung%20cancer&source=esmo');
    expect(only.json().results.map((r: { id: string }) => r.id)).toEqual(['esmo-nsclc-egfr-osimertinib']);
  });

  it('matches an ATC branch and an ontology id', async () => {
    expect((await get('/v1/guidelines?atc=C10')).json().results.map((r: { id: string }) => r.id)).toEqual(['nice-ng238-cvd-lipids', 'esmo-cad-statins']);
    expect((await get('/v1/guidelines?indication=MONDO:0005148')).json().results.map((r: { id: string }) => r.id)).toEqual(['nice-ng28-t2dm']);
  });

  it('answers 200 with a coverage note, not 404, when nothing matches', async () => {
    const res = await get('/v1/guidelines?indication=psoriasis');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ results: [], count: 0 });
    expect(res.json().coverage).toMatch(/^No curated guideline matches this query\. The curated guideline set covers: breast cancer; coronary artery disease;/);
  });

  it('answers 422 when no filter is given or the publisher is unknown', async () => {
    const none = await get('/v1/guidelines');
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ error: 'validation', message: 'Give at least one of indication, atc, source.' });
    expect((await get('/v1/guidelines?source=who')).statusCode).toBe(422);
  });

  it('serves a repeated query from the cache, and an older answer as stale when the file is gone', async () => {
    expect((await get('/v1/guidelines?indication=obesity')).headers['x-service-cache']).toBe('live');
    expect((await get('/v1/guidelines?indication=%20OBESITY')).headers['x-service-cache']).toBe('db');
    await rm(join(dir, 'guidelines.json'));
    t.advance(2 * 86_400_000);
    const stale = await get('/v1/guidelines?indication=obesity');
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-service-cache']).toBe('stale');
    expect(stale.json().results[0].id).toBe('nice-ta875-obesity');
    const failed = await get('/v1/guidelines?indication=diabetes');
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ error: 'upstream_error', message: 'An upstream data source failed; try again later.' });
    expect(failed.body).not.toContain('ENOENT');
  });

  it('filters HTA decisions by drug and country with economics and the value-based price range', async () => {
    const res = await get('/v1/hta?drug=semaglutide&country=us');
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([{
      id: 'icer-2022-obesity-semaglutide', source: 'icer', country: 'US', drug: 'semaglutide', indication: 'obesity', efo: 'EFO_0001073',
      decision: 'Health-benefit price benchmark below list price', decision_date: '2022-10-20', url: 'https://icer.org/assessment/obesity-2022/',
      economics: { icer_per_qaly: 134000, threshold_per_qaly: 100000, currency: 'USD', hbpb_low: 7500, hbpb_high: 9800, list_price: 16200, price_unit: 'per year of treatment' },
    }]);
    const osi = await get('/v1/hta?indication=lung&source=iqwig');
    expect(osi.json().results.map((r: { id: string }) => r.id)).toEqual(['iqwig-osimertinib-nsclc']);
  });

  it('answers HTA with a coverage note when nothing matches, and 422 without filters', async () => {
    const res = await get('/v1/hta?drug=aspirin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ results: [], count: 0 });
    expect(res.json().coverage).toContain('semaglutide (obesity)');
    expect((await get('/v1/hta')).statusCode).toBe(422);
    expect((await get('/v1/hta?country=GBR')).statusCode).toBe(422);
  });

  it('answers 503 with retry-after when a curated source is switched off', async () => {
    const off = await startEnrichmentApp((c) => { c.sources.hta.enabled = false; });
    try {
      const res = await off.app.inject({ url: '/v1/hta?drug=semaglutide', headers: bearer(await off.key()) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('300');
      expect(res.json().error).toBe('unavailable');
    } finally {
      await off.close();
    }
  });
});
