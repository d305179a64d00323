import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { manualClock } from '../helpers/clock.ts';
import { completeGtin } from '../../vocabulary/check-digits.ts';
import { GTIN, NDC, T1, T2, ingestHistory } from './as-of-fixtures.ts';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BEFORE = '2031-01-01';
const BETWEEN = '2031-02-01';
const AFTER = '2031-04-01';

describe('identifier status as of a date (as_of on lookup, packs and drugs/{id})', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...bearer(key), ...headers } });
  const lookup = async (system: string, code: string, asOf?: string) => {
    const res = await get(`/v1/drugs/lookup?system=${system}&code=${code}${asOf ? `&as_of=${encodeURIComponent(asOf)}` : ''}`);
    return { status: res.statusCode, body: res.json() as Body };
  };

  beforeAll(async () => {
    t = await startTestApp({ now: manualClock('2031-06-01T12:00:00Z').now });
    key = await t.key();
    await ingestHistory(t.db);
  });
  afterAll(() => t.close());

  it('before the register\'s history starts: says unknown and when history starts, never "not yet listed"', async () => {
    const { status, body } = await lookup('gtin', GTIN.dolorex16, BEFORE);
    expect(status).toBe(200);
    expect(body.as_of).toMatchObject({ requested: BEFORE, at: '2031-01-01T23:59:59.999Z', status: 'unknown', status_reason: 'before_history', status_since: null });
    expect(body.as_of.status_until).toMatch(new RegExp(`^${T1}`));
    expect(body.matched_pack).toMatchObject({ status: 'unknown', status_since: null });
    // The record shown is the earliest drugref holds, and says when it was recorded.
    expect(body.product_name).toBe('Dolorex 500');
    expect(body.as_of.recorded_at).toMatch(new RegExp(`^${T1}`));
    expect(body._meta.as_of).toBe('2031-01-01T23:59:59.999Z');
    expect(body._meta.history_starts).toMatch(new RegExp(`^${T1}`));
    expect(body._meta.sources).toEqual([expect.objectContaining({ id: 'asof-ch', history_starts: body._meta.history_starts })]);
  });

  it('between the ingests: the record as it stood, both packs active, the later pack not yet listed', async () => {
    const { status, body } = await lookup('gtin', GTIN.dolorex16, BETWEEN);
    expect(status).toBe(200);
    expect(body.product_name).toBe('Dolorex 500');
    expect(body.as_of).toMatchObject({ status: 'active', status_reason: null });
    expect(body.as_of.status_since).toMatch(new RegExp(`^${T1}`));
    expect(body.as_of.status_until).toMatch(new RegExp(`^${T2}`));
    expect(body.matched_pack).toMatchObject({ description: '16 Stk', marketing_status: 'active', status: 'active' });
    expect(body.packs.map((p: Body) => [p.description, p.status])).toEqual([['16 Stk', 'active'], ['32 Stk', 'active']]);
    expect(body.identifiers.map((i: Body) => i.code).sort()).toEqual([GTIN.dolorex16, GTIN.dolorex32].sort());

    const later = await lookup('gtin', GTIN.dolorex64, BETWEEN);
    expect(later.status).toBe(200);
    expect(later.body.as_of).toMatchObject({ status: 'not_yet_listed', status_reason: 'not_listed' });
    expect(later.body.as_of.status_since).toMatch(new RegExp(`^${T1}`));
    expect(later.body.as_of.status_until).toMatch(new RegExp(`^${T2}`));
    expect(later.body.as_of.recorded_at).toMatch(new RegExp(`^${T2}`));
    expect(later.body.matched_pack).toMatchObject({ description: '64 Stk', status: 'not_yet_listed' });
  });

  it('after the second ingest: renamed, one pack withdrawn, one recalled, one new', async () => {
    const withdrawn = await lookup('gtin', GTIN.dolorex16, AFTER);
    expect(withdrawn.body.product_name).toBe('Dolorex forte 500');
    expect(withdrawn.body.matched_pack).toMatchObject({ status: 'withdrawn', status_reason: 'marketing_status', status_until: null });
    expect(withdrawn.body.matched_pack.status_since).toMatch(new RegExp(`^${T2}`));

    const recalled = await lookup('gtin', GTIN.dolorex32, AFTER);
    expect(recalled.body.as_of).toMatchObject({ status: 'recalled', status_reason: 'recall' });
    expect(recalled.body.matched_pack.recall).toEqual({ source: 'asof-ch', key: 'R-2031-7', published_on: '2031-03-09', reason: 'Contamination', level: 'B' });
    expect(recalled.body.packs.map((p: Body) => [p.description, p.status])).toEqual([['16 Stk', 'withdrawn'], ['32 Stk', 'recalled'], ['64 Stk', 'active']]);

    const added = await lookup('gtin', GTIN.dolorex64, AFTER);
    expect(added.body.as_of).toMatchObject({ status: 'active', status_until: null });
    expect(added.body.as_of.status_since).toMatch(new RegExp(`^${T2}`));
  });

  it('a code deleted from the register resolves with as_of (withdrawn, delisted) and stays 404 without it', async () => {
    expect((await lookup('gtin', GTIN.febrex)).status).toBe(404);
    const then = await lookup('gtin', GTIN.febrex, BETWEEN);
    expect(then.status).toBe(200);
    expect(then.body).toMatchObject({ product_name: 'Febrex', as_of: { status: 'active' }, matched_pack: { status: 'active' } });
    const gone = await lookup('gtin', GTIN.febrex, AFTER);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ product_name: 'Febrex', as_of: { status: 'withdrawn', status_reason: 'delisted', status_until: null } });
    expect(gone.body.as_of.status_since).toMatch(new RegExp(`^${T2}`));
    // The last listed version, recorded at the first ingest; the pack keeps a stable uuid-shaped id.
    expect(gone.body.as_of.recorded_at).toMatch(new RegExp(`^${T1}`));
    expect(gone.body.matched_pack.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await lookup('gtin', GTIN.febrex, AFTER)).body.matched_pack.id).toBe(gone.body.matched_pack.id);
    // A code no register ever listed is still 404.
    expect((await lookup('gtin', completeGtin('768099999999'), AFTER)).status).toBe(404);
  });

  it('answers for a second code system (NDC11): deleted and not-yet-listed codes', async () => {
    const old = await lookup('ndc11', NDC.old, BETWEEN);
    expect(old.body).toMatchObject({ product_name: 'Painaway', country: 'US', matched_pack: { status: 'active' } });
    const oldAfter = await lookup('ndc11', '12345-0678-01', AFTER);
    expect(oldAfter.body).toMatchObject({ product_name: 'Painaway', matched_pack: { status: 'withdrawn', status_reason: 'delisted' } });
    expect((await lookup('ndc11', NDC.old)).status).toBe(404);

    const added = await lookup('ndc11', NDC.added, BETWEEN);
    expect(added.body).toMatchObject({ product_name: 'Painaway Extra', as_of: { status: 'not_yet_listed' } });
    const addedAfter = await lookup('ndc11', NDC.added, AFTER);
    expect(addedAfter.body).toMatchObject({ product_name: 'Painaway Extra', as_of: { status: 'active' } });
    expect(addedAfter.body.packs.map((p: Body) => p.description)).toEqual(['60 Stk', '90 Stk']);
    expect(addedAfter.body._meta.sources).toEqual([expect.objectContaining({ id: 'asof-us' })]);
  });

  it('the alias path answers the same dated body', async () => {
    const viaLookup = await lookup('gtin', GTIN.dolorex32, BETWEEN);
    const res = await get(`/v1/packs/gtin/${GTIN.dolorex32}?as_of=${BETWEEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(viaLookup.body);
  });

  it('GET /v1/drugs/{id}?as_of: the product then, its packs\' statuses, and a deleted product still answers', async () => {
    const today = await lookup('gtin', GTIN.dolorex16);
    const id = today.body.id as string;
    const then = await get(`/v1/drugs/${id}?as_of=${BETWEEN}`);
    expect(then.statusCode).toBe(200);
    expect(then.json()).toMatchObject({ id, product_name: 'Dolorex 500', as_of: { status: 'active' } });
    expect(then.json().packs.map((p: Body) => p.status)).toEqual(['active', 'active']);
    const after = (await get(`/v1/drugs/${id}?as_of=${AFTER}T00:00:00Z`)).json();
    expect(after.product_name).toBe('Dolorex forte 500');
    expect(after.as_of).toMatchObject({ requested: `${AFTER}T00:00:00Z`, at: '2031-04-01T00:00:00.000Z', status: 'active' });
    expect(after.packs.map((p: Body) => p.status)).toEqual(['withdrawn', 'recalled', 'active']);

    const febrexId = (await lookup('gtin', GTIN.febrex, BETWEEN)).body.id as string;
    expect((await get(`/v1/drugs/${febrexId}`)).statusCode).toBe(404);
    const gone = await get(`/v1/drugs/${febrexId}?as_of=${AFTER}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toMatchObject({ id: febrexId, product_name: 'Febrex', as_of: { status: 'withdrawn', status_reason: 'delisted' } });
    expect((await get('/v1/drugs/00000000-0000-4000-8000-000000000000?as_of=2031-04-01')).statusCode).toBe(404);
  });

  it('answers a dated record with history in 3 round trips (quota, the history statement, the image shown), whatever its packs, by code, by id, through MCP', async () => {
    /** Round trips of the second of two identical requests (the first warms the key and sources caches). */
    const trips = async (send: () => Promise<{ statusCode: number }>) => {
      expect((await send()).statusCode).toBe(200);
      const before = t.db.roundTrips;
      expect((await send()).statusCode).toBe(200);
      return t.db.roundTrips - before;
    };
    const dolorex = (await lookup('gtin', GTIN.dolorex16)).body.id as string;
    const febrex = (await lookup('gtin', GTIN.febrex, BETWEEN)).body.id as string;
    // Three packs, a recall and a renamed product; one pack and a deleted product; a deleted NDC.
    expect(await trips(() => get(`/v1/drugs/lookup?system=gtin&code=${GTIN.dolorex32}&as_of=${AFTER}`))).toBe(3);
    expect(await trips(() => get(`/v1/drugs/lookup?system=gtin&code=${GTIN.febrex}&as_of=${AFTER}`))).toBe(3);
    expect(await trips(() => get(`/v1/packs/ndc11/${NDC.old}?as_of=${AFTER}`))).toBe(3);
    expect(await trips(() => get(`/v1/drugs/${dolorex}?as_of=${AFTER}`))).toBe(3);
    expect(await trips(() => get(`/v1/drugs/${febrex}?as_of=${BETWEEN}`))).toBe(3);
    const tool = (name: string, args: Body) => () => t.app.inject({
      method: 'POST', url: '/v1/mcp', headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(await trips(tool('get_drug', { id: dolorex, as_of: AFTER }))).toBe(3);
    expect(await trips(tool('lookup_pack', { system: 'gtin', code: GTIN.dolorex32, as_of: AFTER }))).toBe(3);
    const answer = (await tool('lookup_pack', { system: 'gtin', code: GTIN.dolorex32, as_of: AFTER })()).body;
    expect(answer).toContain('Dolorex forte 500');
    expect(answer).toContain('recalled');
    expect(answer).not.toContain('"isError":true');
  });

  it('ETag: a dated answer has its own, and answers 304 to it', async () => {
    const id = (await lookup('gtin', GTIN.dolorex16)).body.id as string;
    const [now, then, other] = await Promise.all([get(`/v1/drugs/${id}`), get(`/v1/drugs/${id}?as_of=${BETWEEN}`), get(`/v1/drugs/${id}?as_of=${AFTER}`)]);
    const tags = [now, then, other].map((r) => r.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await get(`/v1/drugs/${id}?as_of=${BETWEEN}`, { 'if-none-match': String(then.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('without as_of the answers are unchanged: today\'s record, no status fields', async () => {
    const { body } = await lookup('gtin', GTIN.dolorex16);
    expect(body.product_name).toBe('Dolorex forte 500');
    expect(body).not.toHaveProperty('as_of');
    expect(body.matched_pack).not.toHaveProperty('status');
    expect(body.matched_pack.marketing_status).toBe('withdrawn');
    expect(body.packs.every((p: Body) => !('status' in p))).toBe(true);
    expect(Object.keys(body._meta)).toEqual(['sources', 'notice']);
    expect(Object.keys(body._meta.sources[0])).not.toContain('history_starts');
  });

  it.each([
    ['yesterday', 'must be an ISO 8601 date'],
    ['2031-02-30', 'is not a calendar date'],
    ['2031-02-01T10:00', 'must be an ISO 8601 date'],
    ['2031-02-01T25:00:00Z', 'must be an ISO 8601 date'],
    ['2031-06-03', 'lies in the future'],
    ['2031-06-01T13:00:00Z', 'lies in the future'],
  ])('422 validation for as_of=%s', async (value, reason) => {
    const id = (await lookup('gtin', GTIN.dolorex16)).body.id as string;
    for (const url of [
      `/v1/drugs/lookup?system=gtin&code=${GTIN.dolorex16}&as_of=${encodeURIComponent(value)}`,
      `/v1/packs/gtin/${GTIN.dolorex16}?as_of=${encodeURIComponent(value)}`,
      `/v1/drugs/${id}?as_of=${encodeURIComponent(value)}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      const body = res.json();
      expect(body.error).toBe('validation');
      expect(JSON.stringify(body.details)).toContain('as_of');
      if (!/T10:00$|^yesterday$/.test(value)) expect(body.message).toContain(reason);
    }
  });

  it('accepts today in the earliest time zone and clamps it to now', async () => {
    const { status, body } = await lookup('gtin', GTIN.dolorex16, '2031-06-02');
    expect(status).toBe(200);
    expect(body.as_of.at).toBe('2031-06-01T12:00:00.000Z');
    // Years below 100 are real years, not 19xx.
    const ancient = await lookup('gtin', GTIN.dolorex16, '0050-01-01');
    expect(ancient.body.as_of).toMatchObject({ at: '0050-01-01T23:59:59.999Z', status: 'unknown' });
  });

  it('documents as_of on the three routes in OpenAPI and the MCP tools', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    for (const path of ['/v1/drugs/lookup', '/v1/packs/{system}/{code}', '/v1/drugs/{id}']) {
      const names = (doc.paths[path].get.parameters as Body[]).map((p) => p.name);
      expect(names, path).toContain('as_of');
    }
    const tools = await t.app.inject({
      method: 'POST', url: '/v1/mcp', headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const list = tools.json().result.tools as Body[];
    for (const name of ['lookup_pack', 'get_drug']) expect(Object.keys(list.find((x) => x.name === name)!.inputSchema.properties)).toContain('as_of');
  });

  it('public GraphQL: drugByCode(asOf:) answers the dated record and status', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/graphql', headers: bearer(key),
      payload: { query: `{ drugByCode(system: "gtin", code: "${GTIN.febrex}", asOf: "${AFTER}") { productName asOf { status statusReason } matchedPack { status } } }` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.drugByCode).toEqual({ productName: 'Febrex', asOf: { status: 'withdrawn', statusReason: 'delisted' }, matchedPack: { status: 'withdrawn' } });
  });
});
