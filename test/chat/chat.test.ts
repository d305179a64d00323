import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { accountIdOf, startFake, textCompletion, toolCompletion } from './helpers.ts';
import { seedAtcBranch } from '../helpers/seed.ts';
import type { FakeServer, Recorded } from './helpers.ts';

const MODEL_KEY = 'sk-model-fakeKeyThatMustNotBeLogged';
const QUESTION = 'What is the ATC code N02BE01 and its defined daily dose?';

function post(t: TestApp, key: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: payload as Record<string, unknown> });
}

describe('POST /v1/chat with the built-in deterministic assistant (no model configured)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
    key = await t.key({ tier: 'growth' });
  });
  afterAll(() => t.close());

  it('answers a catalogue question from the ATC tool, cites the record and says it is not a language model', async () => {
    const res = await post(t, key, { message: QUESTION });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.answer).toContain('not a language model');
    expect(body.answer).toContain('paracetamol');
    expect(body.answer).toContain('3 g (O)');
    expect(body.citations).toEqual([{ tool: 'get_atc_class', path: '/v1/atc/N02BE01', records: [{ code: 'N02BE01', name: 'paracetamol' }] }]);
    expect(body.tool_calls).toEqual([{ name: 'get_atc_class', arguments: { code: 'N02BE01' }, ok: true }]);
    expect(body.model).toEqual({ provider: 'local', name: 'drugref-local-1' });
    expect(body.usage).toMatchObject({ answers_charged: 1, from_allowance: 1, from_packs: 0, allowance_left: 749, pack_credits_left: 0, resets: expect.any(String) });
    expect(res.headers['x-service-tier']).toBe('growth');
  });

  it('says honestly when it cannot match a question to a lookup', async () => {
    const res = await post(t, key, { message: 'Hello there, can you help me?' });
    expect(res.statusCode).toBe(200);
    expect(res.json().answer).toMatch(/not a language model.*could not match/s);
    expect(res.json().citations).toEqual([]);
  });

  it('sends a name question to the catalogue search across every country', async () => {
    const res = await post(t, key, { message: 'Tell me about ibuprofen' });
    expect(res.statusCode).toBe(200);
    expect(res.json().tool_calls).toEqual([{ name: 'search_drugs', arguments: { q: 'ibuprofen', country: 'ALL' }, ok: true }]);
    expect(res.json().answer).toContain('search_drugs');
  });

  it('only offers tools the key\'s scopes can run', async () => {
    const narrow = await t.key({ tier: 'growth', scopes: ['chat:write'] });
    const res = await post(t, narrow, { message: QUESTION });
    expect(res.statusCode).toBe(200);
    expect(res.json().tool_calls).toEqual([]);
    expect(res.json().answer).not.toContain('paracetamol');
  });

  it('answers 400 bad_request for a malformed turn: missing, empty, oversized, wrong types, unknown fields', async () => {
    const bad = [undefined, {}, { message: '' }, { message: '   ' }, { message: 42 }, { message: 'x'.repeat(8001) }, { message: 'hi', mood: 'curious' },
      { message: 'hi', history: [{ role: 'system', content: 'x' }] }, { message: 'hi', history: 'nope' },
      { message: 'hi', history: Array.from({ length: 21 }, () => ({ role: 'user', content: 'a' })) },
      { message: 'x'.repeat(8000), history: Array.from({ length: 4 }, () => ({ role: 'user', content: 'y'.repeat(7000) })) }];
    for (const payload of bad) {
      const res = payload === undefined ? await t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key) }) : await post(t, key, payload);
      expect(res.statusCode, JSON.stringify(payload)?.slice(0, 60)).toBe(400);
      expect(Object.keys(res.json())[0]).toBe('error');
      expect(res.json().error).toBe('bad_request');
    }
  });

  it('counts a very long turn as more than one answer (one per started 4,000 characters)', async () => {
    const before = await t.db.query<{ answers_used: number }>('SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1', [await accountIdOf(t, key)]);
    const res = await post(t, key, { message: `N02BE01 ${'please explain in detail '.repeat(300)}`.slice(0, 7_500), history: [{ role: 'user', content: 'z'.repeat(1_000) }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().usage.answers_charged).toBe(3);
    const after = await t.db.query<{ answers_used: number }>('SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1', [await accountIdOf(t, key)]);
    expect(after.rows[0]!.answers_used - before.rows[0]!.answers_used).toBe(3);
  });

  it('writes neither the question nor the answer into the logs', () => {
    const logs = t.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain('defined daily dose?');
    expect(logs).not.toContain('paracetamol');
  });
});

describe('POST /v1/chat through an OpenAI-compatible model', () => {
  let t: TestApp;
  let model: FakeServer;
  let mode: 'tools' | 'fail' = 'tools';

  beforeAll(async () => {
    model = await startFake((req: Recorded) => {
      if (mode === 'fail') return { status: 500, body: { error: { message: 'overloaded shard 12' } } };
      const body = JSON.parse(req.body) as { messages: Array<{ role: string }> };
      const last = body.messages.at(-1)!;
      return last.role === 'tool'
        ? { status: 200, body: textCompletion('N02BE01 is paracetamol (anilides); WHO DDD 3 g oral. Source: /v1/atc/N02BE01.') }
        : { status: 200, body: toolCompletion('get_atc_class', { code: 'N02BE01' }) };
    });
    t = await startTestApp({ config: { modelBaseUrl: `${model.url}/v1`, modelName: 'fake-model', modelApiKey: MODEL_KEY } });
    await seedAtcBranch(t.db);
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('speaks chat-completions with tools, runs the tool under the caller and returns the model\'s answer with citations', async () => {
    const key = await t.key({ tier: 'pro' });
    const res = await post(t, key, { message: 'What is N02BE01?', history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      answer: expect.stringContaining('paracetamol'),
      citations: [{ tool: 'get_atc_class', path: '/v1/atc/N02BE01', records: [{ code: 'N02BE01', name: 'paracetamol' }] }],
      model: { provider: 'openai-compatible', name: 'fake-model' },
      usage: { answers_charged: 1, from_allowance: 1, allowance_left: 49 },
    });
    const [first, second] = model.seen.slice(-2).map((r) => ({ ...r, json: JSON.parse(r.body) }));
    expect(first!.url).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
    expect(first!.json).toMatchObject({ model: 'fake-model', tool_choice: 'auto', messages: [{ role: 'system' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'What is N02BE01?' }] });
    expect(first!.json.tools).toContainEqual({ type: 'function', function: expect.objectContaining({ name: 'get_atc_class', parameters: expect.objectContaining({ required: ['code'] }) }) });
    expect(first!.json.tools.map((x: { function: { name: string } }) => x.function.name)).not.toContain('chat');
    const toolMessage = second!.json.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(JSON.parse(toolMessage.content)).toMatchObject({ code: 'N02BE01', name: 'paracetamol' });
    expect(second!.json.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_atc_class' } }] });
  });

  it('spends the monthly allowance, then pack credits, then refuses with 402 before the model runs', async () => {
    const key = await t.key({ tier: 'developer' });
    const account = await accountIdOf(t, key);
    for (let i = 0; i < 3; i++) {
      const res = await post(t, key, { message: 'What is N02BE01?' });
      expect(res.statusCode).toBe(200);
      expect(res.json().usage).toMatchObject({ from_allowance: 1, from_packs: 0, allowance_left: 2 - i });
    }
    await t.db.query('INSERT INTO chat_pack_balance (account_id, credits) VALUES ($1, 2)', [account]);
    for (let i = 0; i < 2; i++) {
      const res = await post(t, key, { message: 'What is N02BE01?' });
      expect(res.statusCode).toBe(200);
      expect(res.json().usage).toMatchObject({ from_allowance: 0, from_packs: 1, allowance_left: 0, pack_credits_left: 1 - i });
    }
    const calls = model.seen.length;
    const refused = await post(t, key, { message: 'What is N02BE01?' });
    expect(refused.statusCode).toBe(402);
    expect(Object.keys(refused.json())[0]).toBe('error');
    const now = new Date();
    expect(refused.json()).toMatchObject({
      error: 'ai_allowance_exhausted', answers_included: 3, upgrade_url: t.config.upgradeUrl,
      resets: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
    expect(model.seen.length).toBe(calls);
  });

  it('refuses with 402 a turn that costs more than what is left, and leaves the balance untouched', async () => {
    const key = await t.key({ tier: 'developer' });
    await t.db.query(`INSERT INTO chat_allowance_usage (account_id, month_start, answers_used) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 2)`, [await accountIdOf(t, key)]);
    const calls = model.seen.length;
    const res = await post(t, key, { message: `N02BE01 ${'x'.repeat(5_000)}` });
    expect(res.statusCode).toBe(402);
    expect(model.seen.length).toBe(calls);
    const ok = await post(t, key, { message: 'What is N02BE01?' });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 502 when the model fails and does not charge the turn', async () => {
    const key = await t.key({ tier: 'starter' });
    mode = 'fail';
    try {
      const res = await post(t, key, { message: 'What is N02BE01?' });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ error: 'bad_gateway' });
      expect(res.body).not.toContain('shard 12');
      const used = await t.db.query<{ answers_used: number }>('SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1', [await accountIdOf(t, key)]);
      expect(used.rows[0]!.answers_used).toBe(0);
    } finally {
      mode = 'tools';
    }
    const after = await post(t, key, { message: 'What is N02BE01?' });
    expect(after.json().usage).toMatchObject({ from_allowance: 1, allowance_left: 149 });
  });

  it('keeps the model key out of the logs', () => {
    expect(t.logs.join('\n')).not.toContain(MODEL_KEY);
  });
});
