/**
 * The record path's statements are planned once per connection, not per request: run as
 * named prepared statements, PostgreSQL switches to a generic plan after five executions
 * only when that plan costs no more than a custom one. Planning the record statement costs
 * more than running it (2-11 ms against about 1 ms on a million products), so each of these
 * must settle on its generic plan; an EXPLAIN of the sixth execution shows `$1` where a
 * generic plan keeps the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CODES, IDS, seedCatalogue } from './fixtures.ts';
import { RECORD_STATEMENTS } from '../../resolvers/catalogue/record-rows.ts';
import { FACT_KEYS } from '../../resolvers/catalogue/facts.ts';
import { HISTORY_SQL } from '../../resolvers/catalogue/change-history.ts';
import { DATED_IMAGE_SQL } from '../../resolvers/catalogue/dated-record.ts';
import { ingestHistory } from './as-of-fixtures.ts';

describe('the record path keeps one plan per statement', () => {
  let t: TestApp;
  let changeId: string;

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    await ingestHistory(t.db);
    await t.db.query('ANALYZE');
    changeId = (await t.db.query<{ id: string }>("SELECT id FROM changes WHERE table_name = 'products' LIMIT 1")).rows[0]!.id;
  });
  afterAll(() => t.close());

  /** The plan of the sixth execution of `sql` prepared with `types`, on one connection. */
  async function sixthPlan(sql: string, types: string[], args: string[]): Promise<string> {
    return t.db.transaction(async (tx) => {
      await tx.query(`PREPARE probe (${types.join(', ')}) AS ${sql}`);
      for (let i = 0; i < 5; i += 1) await tx.query(`EXECUTE probe (${args.join(', ')})`);
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE probe (${args.join(', ')})`);
      await tx.query('DEALLOCATE probe');
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  const keys = `ARRAY[${FACT_KEYS.map((k) => `'${k}'`).join(', ')}]::text[]`;

  it('the drug record by one id and by a pack code', async () => {
    expect(await sixthPlan(RECORD_STATEMENTS.byOneId, ['uuid', 'text[]'], [`'${IDS.brufenCh}'`, keys])).toMatch(/\$1/);
    expect(await sixthPlan(RECORD_STATEMENTS.byCode, ['text[]', 'text[]', 'text'], ["ARRAY['gtin', 'ean']", keys, `'${CODES.brufenGtin}'`])).toMatch(/\$3/);
  });

  it('a dated record: the history statement by id and by code, and the image shown', async () => {
    const probe = (code: string) => `'${JSON.stringify([{ system: 'gtin', code }])}'`;
    expect(await sixthPlan(HISTORY_SQL.history, ['uuid', 'jsonb', 'jsonb'], [`'${IDS.brufenCh}'`, 'NULL', 'NULL'])).toMatch(/\$1/);
    expect(await sixthPlan(HISTORY_SQL.history, ['uuid', 'jsonb', 'jsonb'], ['NULL', probe(CODES.brufenGtin), probe(CODES.brufenGtin)])).toMatch(/\$2/);
    expect(await sixthPlan(DATED_IMAGE_SQL, ['uuid'], [`'${changeId}'`])).toMatch(/\$1/);
  });
});
