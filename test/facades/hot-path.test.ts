/**
 * The request hot path through real HTTP (docs/architecture.md "Hot path"): SQL round
 * trips per request, quota included (`db.roundTrips` around one inject, after a warm-up
 * request so the key and sources caches are filled), and the sources cache dropping its
 * rows when a write to `sources` commits.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { testBackend } from '../helpers/db.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import { CODES, IDS, seedCatalogue, seedManyIbuprofen, seedProductWithPacks } from '../catalogue/fixtures.ts';
import { mcpPost, rpc } from '../mcp/helpers.ts';
import { LISTEN_APPLICATION_NAME } from '../../platform/db.ts';

const NESTED = `query ($n: Int) { drugs(q: "ibuprofen", country: "CH", limit: $n) { count results { id productName substanceName
  ingredients { unii name strengthValue } atcChain { code name } packs { id description identifiers { system code } prices { kind amount currency } }
  meta { sources { id lastSyncedAt schemaState } } } meta { sources { id } } } }`;

const ONE_PACK = '00000000-0000-4000-a000-000000000001';
const TWENTY_PACKS = '00000000-0000-4000-a000-000000000020';

describe('hot path: round trips per request and the sources cache', () => {
  let t: TestApp;
  let key: string;
  let onePack: string[];
  let twentyPacks: string[];
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  /** Round trips of the second of two identical requests (the first warms the caches). */
  async function trips(send: () => Promise<{ statusCode: number }>): Promise<number> {
    expect((await send()).statusCode).toBe(200);
    const before = t.db.roundTrips;
    expect((await send()).statusCode).toBe(200);
    return t.db.roundTrips - before;
  }

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    await seedAtcBranch(t.db);
    await seedManyIbuprofen(t.db, 30);
    onePack = await seedProductWithPacks(t.db, ONE_PACK, '70001', 1);
    twentyPacks = await seedProductWithPacks(t.db, TWENTY_PACKS, '70002', 20);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('answers an ATC node with its parent chain in 2 round trips: quota, then node and ancestors in one query', async () => {
    expect(await trips(() => get('/v1/atc/N02BE01'))).toBe(2);
    expect(await trips(() => get('/v1/therapies/N02BE'))).toBe(2);
    const body = (await get('/v1/atc/N02BE01')).json();
    expect(body.ancestors.map((a: { code: string }) => a.code)).toEqual(['N', 'N02', 'N02B', 'N02BE']);
    expect(body._meta.sources.map((s: { id: string }) => s.id)).toEqual(['who-atc']);
  });

  it('answers the typeahead in 2 round trips by code or by names starting with q, 3 when the page needs the later name tiers or a code reading falls through to names', async () => {
    const byName = (limit: number) => () => get(`/v1/drugs?q=ibuprofen&country=CH&limit=${limit}`);
    // Over 30 names start with "ibuprofen": they fill a page of 5, so the full name statement never runs.
    expect(await trips(byName(5))).toBe(2);
    // Not a page of 100: the starts-only statement, then the full one (substring and substance tiers).
    expect(await trips(byName(100))).toBe(3);
    expect((await byName(100)()).json().count).toBeGreaterThan(30);
    expect(await trips(() => get('/v1/drugs?q=ib&country=CH&limit=50'))).toBe(3);
    expect(await trips(() => get(`/v1/drugs?q=${CODES.brufenGtin}`))).toBe(2);
    // "C99" reads as an ATC class that has no products: the code statement, then the name statement.
    expect(await trips(() => get('/v1/drugs?q=C99&country=ALL'))).toBe(3);
    // substance_name came from the search statement's own ingredients.
    const first = (await get(`/v1/drugs?q=${CODES.brufenGtin}`)).json().results[0];
    expect(first).toMatchObject({ id: IDS.brufenCh, substance_name: 'ibuprofen' });
  });

  it('answers a nested public GraphQL query in the same number of round trips for 2 and 25 drugs', async () => {
    const post = (n: number) => () => t.app.inject({ method: 'POST', url: '/v1/graphql', headers: bearer(key), payload: { query: NESTED, variables: { n } } });
    const two = await trips(post(2));
    const many = await trips(post(25));
    expect(many).toBe(two);
    // Quota, search (with the ingredients), then ATC nodes, packs and the EMA link together, then pack identifiers and prices.
    expect(two).toBe(7);
    const body = (await post(25)()).json();
    expect(body.errors).toBeUndefined();
    expect(body.data.drugs.count).toBe(25);
    const first = body.data.drugs.results[0];
    expect(first.atcChain.map((n: { code: string }) => n.code)).toEqual(['M', 'M01', 'M01A', 'M01AE', 'M01AE01']);
    expect(first.packs[0].prices[0]).toMatchObject({ kind: 'public', currency: 'CHF' });
  });

  it('answers the drug record in 2 round trips, quota then one record statement, for 1 pack as for 20, in JSON and in FHIR', async () => {
    for (const format of ['', '?format=fhir']) {
      const one = await trips(() => get(`/v1/drugs/${ONE_PACK}${format}`));
      expect(await trips(() => get(`/v1/drugs/${TWENTY_PACKS}${format}`))).toBe(one);
      expect(one).toBe(2);
    }
    expect(await trips(() => get(`/v1/drugs/${IDS.brufenCh}`))).toBe(2);
    // The profile embeds the record (one statement) beside its texts, pricing and markets.
    expect(await trips(() => get(`/v1/drugs/${IDS.brufenCh}/profile`))).toBe(6);
    const body = (await get(`/v1/drugs/${TWENTY_PACKS}`)).json();
    expect(body.packs).toHaveLength(20);
    expect(body.packs[19]).toMatchObject({ units: 29, prices: [{ kind: 'ex_factory', amount: 21 }, { kind: 'public', amount: 24 }] });
    expect(body.identifiers).toHaveLength(41);
    expect(body.atc_chain.map((n: { code: string }) => n.code)).toEqual(['M', 'M01', 'M01A', 'M01AE', 'M01AE01']);
    expect((await get(`/v1/drugs/${TWENTY_PACKS}?format=fhir`)).json().identifier).toHaveLength(41);
  });

  it('resolves a pack code in 2 round trips, quota then lookup and record in one statement, whatever the system and the number of packs', async () => {
    const lookup = (system: string, code: string) => () => get(`/v1/drugs/lookup?system=${system}&code=${code}`);
    expect(await trips(lookup('gtin', onePack[0]!))).toBe(2);
    expect(await trips(lookup('gtin', twentyPacks[7]!))).toBe(2);
    expect(await trips(() => get(`/v1/packs/gtin/${twentyPacks[7]!}`))).toBe(2);
    expect(await trips(lookup('pharmacode', '7002007'))).toBe(2);
    expect(await trips(lookup('pzn', CODES.ibuflamPzn))).toBe(2);
    expect(await trips(lookup('cip13', CODES.advilCip13))).toBe(2);
    expect(await trips(lookup('ndc11', CODES.advilNdcPrinted))).toBe(2);
    const body = (await lookup('gtin', twentyPacks[7]!)()).json();
    expect(body).toMatchObject({ id: TWENTY_PACKS, matched_pack: { units: 17, identifiers: [{ system: 'gtin', code: twentyPacks[7] }, { system: 'pharmacode', code: '7002007' }] } });
    expect(body.packs).toHaveLength(20);
  });

  it('answers as_of on a record without recorded history in 4 round trips: quota, record, its history (none), when the registers\' history starts', async () => {
    const dated = (url: string) => () => get(`${url}${url.includes('?') ? '&' : '?'}as_of=2026-01-15`);
    expect(await trips(dated(`/v1/drugs/${ONE_PACK}`))).toBe(4);
    expect(await trips(dated(`/v1/drugs/${TWENTY_PACKS}`))).toBe(4);
    expect(await trips(dated(`/v1/drugs/lookup?system=gtin&code=${onePack[0]!}`))).toBe(4);
    expect(await trips(dated(`/v1/drugs/lookup?system=gtin&code=${twentyPacks[3]!}`))).toBe(4);
    const body = (await dated(`/v1/drugs/lookup?system=gtin&code=${twentyPacks[3]!}`)()).json();
    expect(body.packs).toHaveLength(20);
    expect(body.matched_pack).toMatchObject({ units: 13, status: 'unknown', status_reason: 'no_history' });
  });

  it('answers the MCP get_drug and lookup_pack tools in 2 round trips, for 1 pack as for 20', async () => {
    const call = (name: string, args: Record<string, unknown>) => () => mcpPost(t, key, rpc('tools/call', { name, arguments: args }));
    expect(await trips(call('get_drug', { id: ONE_PACK }))).toBe(2);
    expect(await trips(call('get_drug', { id: TWENTY_PACKS }))).toBe(2);
    expect(await trips(call('lookup_pack', { system: 'gtin', code: onePack[0]! }))).toBe(2);
    expect(await trips(call('lookup_pack', { system: 'gtin', code: twentyPacks[19]! }))).toBe(2);
    const text = (await call('get_drug', { id: TWENTY_PACKS })()).json().result.content[0].text as string;
    expect(JSON.parse(text).packs).toHaveLength(20);
  });

  it('serves _meta.sources from the cache and drops it when a write to sources commits', async () => {
    const stamp = async () => (await get('/v1/atc/N02BE01')).json()._meta.sources[0].last_synced_at as string;
    const before = await stamp();
    const next = new Date(Date.parse(before) + 3_600_000).toISOString();
    // What an ingest does at its commit point (workers/ingest/engine.ts).
    await t.db.transaction((tx) => tx.query(`UPDATE sources SET last_synced_at = $1 WHERE id = 'who-atc'`, [next]));
    // PGlite delivers the NOTIFY before the COMMIT returns; PostgreSQL moments later, on the listening connection.
    await vi.waitFor(async () => expect(await stamp()).toBe(next), { timeout: 5_000, interval: 20 });
    // Outside a transaction too (one statement is its own transaction).
    await t.db.query(`UPDATE sources SET name = 'WHO ATC/DDD' WHERE id = 'who-atc'`);
    await vi.waitFor(async () => expect((await get('/v1/atc/N02BE01')).json()._meta.sources[0].name).toBe('WHO ATC/DDD'), { timeout: 5_000, interval: 20 });
  });

  it.skipIf(testBackend() !== 'postgres')('reads sources fresh while the listening connection is down, and caches again once it is back (PostgreSQL)', async () => {
    const listener = () => t.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [LISTEN_APPLICATION_NAME],
    );
    const [conn] = (await listener()).rows;
    expect(conn).toBeDefined();
    await t.db.query('SELECT pg_terminate_backend($1)', [conn!.pid]);
    // Down: no notification can arrive, yet every request sees a committed change.
    await vi.waitFor(async () => expect((await listener()).rows.map((r) => r.pid)).not.toContain(conn!.pid), { timeout: 5_000, interval: 20 });
    await t.db.query(`UPDATE sources SET name = 'WHO ATC index' WHERE id = 'who-atc'`);
    expect((await get('/v1/atc/N02BE01')).json()._meta.sources[0].name).toBe('WHO ATC index');
    // Back (the listener reconnects by itself): 2 round trips again, and changes still arrive.
    await vi.waitFor(async () => expect(await trips(() => get('/v1/atc/N02BE01'))).toBe(2), { timeout: 10_000, interval: 100 });
    await t.db.query(`UPDATE sources SET name = 'WHO ATC/DDD index' WHERE id = 'who-atc'`);
    await vi.waitFor(async () => expect((await get('/v1/atc/N02BE01')).json()._meta.sources[0].name).toBe('WHO ATC/DDD index'), { timeout: 5_000, interval: 20 });
  });
});
