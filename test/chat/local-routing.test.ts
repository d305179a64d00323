/**
 * The built-in assistant (no model configured) on the questions its users ask: each row is a
 * real question and the lookups it must run, checked through POST /v1/chat on the demo
 * catalogue, plus the planner alone for the tool each question starts with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { planCalls } from '../../resolvers/chat/local-plan.ts';
import type { ToolSpec } from '../../resolvers/chat/model.ts';
import { fakeUpstreamConfig } from '../enrichment/helpers.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { UpstreamClient } from '../../platform/upstream/client.ts';
import { testConfig } from '../../platform/config.ts';
import type { Database } from '../../platform/db.ts';
import { createChatServices } from '../../resolvers/chat/services.ts';
import { accountIdOf } from './helpers.ts';

const GTIN = '7680654321015';
const SILENT = { fatal: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, trace: () => undefined };

/** Question → the first round of tool calls, name and arguments. */
const TABLE: Array<[string, Array<{ name: string; arguments: Record<string, unknown> }>]> = [
  ['does warfarin interact with ibuprofen?', [{ name: 'check_interactions', arguments: { drugs: ['warfarin', 'ibuprofen'] } }]],
  ['Is there an interaction between aspirin and clopidogrel?', [{ name: 'check_interactions', arguments: { drugs: ['aspirin', 'clopidogrel'] } }]],
  ['Can I take Dafalgan 1000 together with Marcoumar?', [{ name: 'check_interactions', arguments: { drugs: ['Dafalgan', 'Marcoumar'] } }]],
  ['Interactions: simvastatin, clarithromycin + amlodipine', [{ name: 'check_interactions', arguments: { drugs: ['simvastatin', 'clarithromycin', 'amlodipine'] } }]],
  ['How much does Dafalgan 1000 cost?', [
    { name: 'search_drugs', arguments: { q: 'dafalgan', country: 'ALL' } },
    { name: 'market_prices', arguments: { q: 'dafalgan' } },
  ]],
  ['What is the price of ibuprofen 400 mg in Switzerland?', [
    { name: 'search_drugs', arguments: { q: 'ibuprofen', country: 'ALL' } },
    { name: 'market_prices', arguments: { q: 'ibuprofen' } },
  ]],
  [`What is pack ${GTIN}?`, [{ name: 'lookup_pack', arguments: { system: 'gtin', code: GTIN } }]],
  ['Look up pharmacode 1234567', [{ name: 'lookup_pack', arguments: { system: 'pharmacode', code: '1234567' } }]],
  ['Tell me about Dafalgan 1000', [{ name: 'search_drugs', arguments: { q: 'dafalgan', country: 'ALL' } }]],
  ['Dafalgan 500mg tablets', [{ name: 'search_drugs', arguments: { q: 'dafalgan', country: 'ALL' } }]],
  ['What is the ATC code N02BE01?', [{ name: 'get_atc_class', arguments: { code: 'N02BE01' } }]],
];

function post(t: TestApp, key: string, message: string) {
  return t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: { message } });
}

describe('the built-in assistant routes real questions to the right lookup', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ db: await openTestDatabase({ demo: true }) });
    key = await t.key({ tier: 'enterprise' });
  });
  afterAll(() => t.close());

  it.each(TABLE)('%s', async (question, expected) => {
    const res = await post(t, key, question);
    expect(res.statusCode).toBe(200);
    const calls = (res.json().tool_calls as Array<{ name: string; arguments: unknown }>).map(({ name, arguments: args }) => ({ name, arguments: args }));
    expect(calls.slice(0, expected.length)).toEqual(expected);
  });

  it('never reads a strength as an RxCUI', async () => {
    for (const question of ['Dafalgan 1000', 'Is Dafalgan 1000 the same as Panadol 500?', 'paracetamol 1000 mg']) {
      const res = await post(t, key, question);
      expect(res.json().tool_calls.map((c: { name: string }) => c.name)).not.toContain('get_rxnorm_concept');
    }
  });

  it('answers an interaction question from the interaction check', async () => {
    const res = await post(t, key, 'does warfarin interact with ibuprofen?');
    expect(res.json().tool_calls).toEqual([{ name: 'check_interactions', arguments: { drugs: ['warfarin', 'ibuprofen'] }, ok: true }]);
    expect(res.json().answer).toContain('check_interactions checked 1 pair(s) of warfarin, ibuprofen');
  });

  it('follows a price question from the search to the top hit\'s packs and prices', async () => {
    const res = await post(t, key, 'How much does Dafalgan cost?');
    const names = res.json().tool_calls.map((c: { name: string }) => c.name);
    expect(names).toEqual(['search_drugs', 'market_prices', 'get_drug_profile']);
    expect(res.json().answer).toMatch(/get_drug_profile: Dafalgan .* packs and prices: .*\d+\.\d{2} CHF/);
  });
});

describe('planCalls', () => {
  it('asks for nothing when a question has no subject', () => {
    const tools: ToolSpec[] = [{ name: 'search_drugs', description: '', parameters: { properties: { q: { type: 'string' } }, required: ['q'] } }];
    expect(planCalls('Hello, can you help me?', tools)).toEqual([]);
    expect(planCalls('1000', tools)).toEqual([]);
  });

  it('reads a number as an RxCUI only when the question says so', () => {
    const tools: ToolSpec[] = [
      { name: 'get_rxnorm_concept', description: '', parameters: { properties: { rxcui: { type: 'string', pattern: '^[0-9]{1,10}$' } }, required: ['rxcui'] } },
      { name: 'search_drugs', description: '', parameters: { properties: { q: { type: 'string' } }, required: ['q'] } },
    ];
    expect(planCalls('What is RxCUI 617312?', tools)).toEqual([{ name: 'get_rxnorm_concept', args: { rxcui: '617312' } }]);
    expect(planCalls('Dafalgan 1000', tools)).toEqual([{ name: 'search_drugs', args: { q: 'dafalgan' } }]);
  });
});

describe('a turn that ends in an upstream failure', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  let upstream: UpstreamClient;
  let db: Database;

  beforeAll(async () => {
    fake = await new FakeUpstream().start();
    db = await openTestDatabase();
    const config = fakeUpstreamConfig(fake);
    upstream = new UpstreamClient({ config, db, log: SILENT as never });
    t = await startTestApp({ db, config: { upstream: config }, services: { upstream, chat: createChatServices(testConfig()) } });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
    await fake.close();
    await db.close();
  });

  it('answers 502 and is not charged', async () => {
    const key = await t.key({ tier: 'growth' });
    fake.failing.add('/rxnav/');
    const res = await post(t, key, 'What is RxCUI 617312?');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'upstream_error', message: expect.stringContaining('not charged') });
    const used = await t.db.query<{ answers_used: number }>('SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1', [await accountIdOf(t, key)]);
    expect(used.rows[0]?.answers_used ?? 0).toBe(0);
  });
});
