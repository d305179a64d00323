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
    // Quota, then the identifier statement; the source version comes from the sources cache.
    expect(lookup).toBe(2);
    expect(lookup).toBeLessThanOrEqual(record);
  });

  it('expands a filter in the typeahead\'s round trips plus one batched read of the page\'s codes', async () => {
    const typeahead = await trips('/v1/drugs?q=ibuprofen&country=CH&limit=5');
    const expand = await trips(`/fhir/ValueSet/$expand?url=${encodeURIComponent('urn:drugref:valueset:marketed:CH:GTIN')}&filter=ibuprofen&count=5`);
    expect(expand).toBe(typeahead + 1);
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
