import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';
import { startEnrichmentApp } from './helpers.ts';
import type { EnrichmentTestApp } from './helpers.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/curated/', import.meta.url));
const TOOLS = [
  'assess_drug_for_indication', 'find_guidelines', 'find_hta_decisions', 'get_disease_signature', 'get_drug_targets', 'get_molecule_enrichment',
  'get_pgx', 'get_pharmacology_targets', 'get_rxnorm_concept', 'get_target_genetics', 'get_target_structure', 'get_us_approvals',
  'get_us_ndc_class', 'resolve_rxnorm', 'score_signature',
];

describe('enrichment tools over MCP', () => {
  let t: EnrichmentTestApp;
  let key: string;

  beforeAll(async () => {
    t = await startEnrichmentApp((c) => { c.sources.signatures.baseUrl = pathToFileURL(FIXTURES).href; });
    key = await t.key();
  });
  afterAll(() => t.close());

  const call = (name: string, args: Record<string, unknown>) => mcpPost(t, key, rpc('tools/call', { name, arguments: args }));

  it('lists every enrichment tool with a description for a language model', async () => {
    const tools = (await mcpPost(t, key, rpc('tools/list'))).json().result.tools as Array<{ name: string; description: string }>;
    const ours = tools.filter((tool) => TOOLS.includes(tool.name));
    expect(ours.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of ours) expect(tool.description.length).toBeGreaterThan(60);
  });

  it('scores a signature through tools/call with the same answer as REST', async () => {
    const out = toolText(await call('score_signature', { up: ['IL6', 'TNF', 'CXCL8'], down: ['AQP8', 'CA1', 'PCK1'] }));
    expect(out.isError).toBe(false);
    expect(out.json).toMatchObject({ reversers: [{ perturbation_id: 'T-MIRROR', score: -1 }], mimickers: [{ perturbation_id: 'T-SELF', score: 1 }] });
  });

  it('turns an upstream failure into an isError result with the generic 502 body', async () => {
    t.fake.failing.add('/rxnav');
    try {
      const res = await call('get_rxnorm_concept', { rxcui: '617312' });
      const out = toolText(res);
      expect(out).toMatchObject({ isError: true, json: { error: 'upstream_error', message: 'An upstream data source failed; try again later.' } });
      expect(res.body).not.toContain(FakeUpstream.SECRET);
    } finally {
      t.fake.failing.clear();
    }
  });
});
