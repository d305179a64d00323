/**
 * SQL round trips of the /fhir terminology operations (`db.roundTrips` around the second
 * of two identical requests, as test/facades/hot-path.test.ts measures /v1), and the
 * operations as MCP tools from the route table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CODES, IDS, seedCatalogue, seedManyIbuprofen } from '../catalogue/fixtures.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';

const PZN = 'http://fhir.de/CodeSystem/ifa/pzn';
const GTIN = 'https://www.gs1.org/gtin';

describe('FHIR terminology: round trips and MCP tools', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  async function trips(url: string): Promise<number> {
    expect((await get(url)).statusCode).toBe(200);
    const before = t.db.roundTrips;
    expect((await get(url)).statusCode).toBe(200);
    return t.db.roundTrips - before;
  }

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    await seedManyIbuprofen(t.db, 30);
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it('looks up a pack code in fewer round trips than the drug record it resolves to', async () => {
    const lookup = await trips(`/fhir/CodeSystem/$lookup?system=${encodeURIComponent(GTIN)}&code=${CODES.brufenGtin}`);
    const record = await trips(`/v1/drugs/${IDS.brufenCh}`);
    // Quota, then the identifier statement; the system version comes from the sources cache.
    expect(lookup).toBe(2);
    expect(lookup).toBeLessThanOrEqual(record);
    const version = (await get('/fhir/metadata?mode=terminology')).json().codeSystem.find((s: { uri: string }) => s.uri === GTIN).version[0].code;
    const pinned = await trips(`/fhir/CodeSystem/$lookup?system=${encodeURIComponent(GTIN)}&code=${CODES.brufenGtin}&version=${encodeURIComponent(version)}`);
    expect(pinned).toBeLessThanOrEqual(record);
  });

  it('expands a filter in exactly the typeahead\'s round trips: the search statement returns the page\'s codes', async () => {
    const url = encodeURIComponent('urn:drugref:valueset:marketed:CH:GTIN');
    // A page the names starting with the filter fill (one search statement) ...
    const typeahead = await trips('/v1/drugs?q=ibuprofen&country=CH&limit=5');
    const expand = await trips(`/fhir/ValueSet/$expand?url=${url}&filter=ibuprofen&count=5`);
    expect(typeahead).toBe(2);
    expect(expand).toBe(typeahead);
    // ... and one they do not (the starts-only statement, then the full one).
    const longTypeahead = await trips('/v1/drugs?q=ibuprofen&country=CH&limit=100');
    const longExpand = await trips(`/fhir/ValueSet/$expand?url=${url}&filter=ibuprofen&count=100`);
    expect(longTypeahead).toBe(3);
    expect(longExpand).toBe(longTypeahead);
    const codes = (await get(`/fhir/ValueSet/$expand?url=${url}&filter=ibuprofen&count=100`)).json().expansion.contains.map((c: { code: string }) => c.code);
    expect(codes).toContain(CODES.brufenGtin);
  });

  it('expands ATC in one statement besides the quota, and reads metadata in none (keyless, no quota)', async () => {
    const atc = encodeURIComponent('http://www.whocc.no/atc?fhir_vs');
    expect(await trips(`/fhir/ValueSet/$expand?url=${atc}&filter=ibuprofen`)).toBe(2);
    expect(await trips('/fhir/metadata')).toBe(0);
    // The code systems' versions come from the per-process sources cache.
    expect(await trips('/fhir/metadata?mode=terminology')).toBe(0);
  });

  it('offers the operations as MCP tools that answer as the GET routes do', async () => {
    const list = (await mcpPost(t, key, rpc('tools/list'))).json().result.tools.map((tool: { name: string }) => tool.name);
    expect(list).toEqual(expect.arrayContaining(['fhir_lookup_code', 'fhir_validate_code', 'fhir_validate_value_set_code', 'fhir_translate_code', 'fhir_expand_value_set']));
    const out = toolText(await mcpPost(t, key, rpc('tools/call', { name: 'fhir_lookup_code', arguments: { system: PZN, code: CODES.ibuflamPzn } })));
    const rest = await get(`/fhir/CodeSystem/$lookup?system=${encodeURIComponent(PZN)}&code=${CODES.ibuflamPzn}`);
    expect(out.isError).toBe(false);
    expect(out.json).toEqual(rest.json());
  });
});
