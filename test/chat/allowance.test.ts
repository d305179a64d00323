import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { refundAnswers, reserveAnswers } from '../../resolvers/chat/allowance.ts';
import { accountIdOf} from './helpers.ts';
import { seedAtcBranch } from '../helpers/seed.ts';

describe('AI answer allowance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await seedAtcBranch(t.db);
  });
  afterAll(() => t.close());

  it('never overspends under concurrent turns: the Free plan\'s 3 answers give exactly three 200s', async () => {
    const key = await t.key({ tier: 'developer' });
    const answers = await Promise.all(Array.from({ length: 6 }, () =>
      t.app.inject({ method: 'POST', url: '/v1/chat', headers: bearer(key), payload: { message: 'What is N02BE01?' } })));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 402, 402, 402]);
    const used = await t.db.query<{ answers_used: number }>('SELECT answers_used FROM chat_allowance_usage WHERE account_id = $1', [await accountIdOf(t, key)]);
    expect(used.rows[0]!.answers_used).toBe(3);
  });

  it('starts a fresh allowance each UTC month while pack credits carry over', async () => {
    const key = await t.key({ tier: 'pro' });
    const account = await accountIdOf(t, key);
    await t.db.query('INSERT INTO chat_pack_balance (account_id, credits) VALUES ($1, 1)', [account]);
    const november = new Date('2026-11-30T23:59:00Z');
    for (let i = 0; i < 50; i++) expect((await reserveAnswers(t.db, account, 'pro', 1, november)).granted).toBe(true);
    const fromPack = await reserveAnswers(t.db, account, 'pro', 1, november);
    expect(fromPack).toMatchObject({ granted: true, reservation: { fromAllowance: 0, fromPacks: 1, packCreditsLeft: 0 } });
    expect(await reserveAnswers(t.db, account, 'pro', 1, november)).toMatchObject({ granted: false, included: 50, resets: new Date('2026-12-01T00:00:00Z') });
    if (fromPack.granted) await refundAnswers(t.db, fromPack.reservation);
    const december = await reserveAnswers(t.db, account, 'pro', 2, new Date('2026-12-01T00:00:01Z'));
    expect(december).toMatchObject({ granted: true, reservation: { fromAllowance: 2, fromPacks: 0, allowanceLeft: 48, packCreditsLeft: 1 } });
  });
});
