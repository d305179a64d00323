import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bearer } from '../helpers/app.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/curated/', import.meta.url));
const UP = ['IL6', 'TNF', 'CXCL8'];
const DOWN = ['AQP8', 'CA1', 'PCK1'];

describe('/v1/signatures', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp((c) => { c.sources.signatures.baseUrl = pathToFileURL(FIXTURES).href; });
    key = await t.key();
  });
  afterAll(() => t.close());

  const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/signatures', headers: bearer(key), payload: payload as Record<string, unknown> });

  it('POST scores a signature: its mirror reverses it perfectly (−1), its copy mimics it (+1)', async () => {
    const res = await post({ up: UP, down: DOWN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('live');
    const body = res.json();
    expect(body.reversers[0]).toEqual({ perturbation_id: 'T-MIRROR', compound: 'mirror-like', chembl_id: 'CHEMBL221959', cell_line: 'HT29', dose: '10 uM', time: '24 h', score: -1, es_up: -1, es_down: 1 });
    expect(body.mimickers[0]).toMatchObject({ perturbation_id: 'T-SELF', score: 1, es_up: 1, es_down: -1 });
    expect(body.signature).toEqual({ provenance: { source: 'caller' }, up_count: 3, down_count: 3 });
    expect(body.matched).toEqual({ up: ['CXCL8', 'IL6', 'TNF'], down: ['AQP8', 'CA1', 'PCK1'], unmatched: [] });
    expect(body.dataset).toMatchObject({ name: 'test perturbations', perturbations: 3, genes: 10, demo: true });
    for (const r of [...body.reversers, ...body.mimickers]) expect(Math.abs(r.score)).toBeLessThanOrEqual(1);
  });

  it('caches by the order-independent gene set', async () => {
    const res = await post({ up: ['cxcl8', 'TNF', 'IL6'], down: ['PCK1', 'AQP8', 'CA1'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-cache']).toBe('db');
    expect(res.json().reversers[0].score).toBe(-1);
  });

  it('POST answers 404 when no gene is in the data set, and 422 for empty, overlapping or malformed sets', async () => {
    const none = await post({ up: ['NOPE1'], down: ['NOPE2'] });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: 'not_found', message: 'None of the genes is in the perturbation data set.', unmatched: ['NOPE1', 'NOPE2'] });
    expect((await post({ up: [], down: [] })).statusCode).toBe(422);
    const overlap = await post({ up: ['IL6'], down: ['il6'] });
    expect(overlap.statusCode).toBe(422);
    expect(overlap.json().message).toBe('A gene cannot be both up- and down-regulated.');
    expect((await post({ up: ['IL 6'] })).statusCode).toBe(422);
    expect((await post({ genes: ['IL6'] })).statusCode).toBe(422);
  });

  it('GET resolves a curated signature by label or EFO id with provenance, reversers and mimickers', async () => {
    const res = await t.app.inject({ url: '/v1/signatures?indication=bowel', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.signature).toMatchObject({ id: 'ibd-test', indication: 'inflammatory bowel disease', efo: 'EFO_0003767', provenance: { source: 'test' }, up_count: 3, down_count: 3 });
    expect(body.reversers[0]).toMatchObject({ perturbation_id: 'T-MIRROR', score: -1 });
    expect(body.mimickers[0]).toMatchObject({ perturbation_id: 'T-SELF', score: 1 });
    const byId = await t.app.inject({ url: '/v1/signatures?efo=EFO:0003767', headers: bearer(key) });
    expect(byId.json().signature.id).toBe('ibd-test');
  });

  it('GET answers 404 listing the curated indications, and 422 without a parameter', async () => {
    const res = await t.app.inject({ url: '/v1/signatures?indication=psoriasis', headers: bearer(key) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'No curated signature matches; see `indications` for those available.', indications: [{ indication: 'inflammatory bowel disease', efo: 'EFO_0003767' }] });
    expect((await t.app.inject({ url: '/v1/signatures', headers: bearer(key) })).statusCode).toBe(422);
  });
});

describe('/v1/signatures on the bundled demonstration data', () => {
  let t: EnrichmentTestApp;

  beforeAll(async () => {
    t = await startEnrichmentApp();
  });
  afterAll(() => t.close());

  it('finds osimertinib among the reversers of the NSCLC demonstration signature', async () => {
    const res = await t.app.inject({ url: '/v1/signatures?efo=EFO_0003060', headers: bearer(await t.key()) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.signature.id).toBe('nsclc-proliferation');
    expect(body.reversers[0].compound).toBe('osimertinib');
    expect(body.reversers[0].score).toBeLessThan(-0.5);
    expect(body.dataset.demo).toBe(true);
  });
});
