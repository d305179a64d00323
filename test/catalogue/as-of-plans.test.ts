import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { CODES, IDS, seedCatalogue } from './fixtures.ts';
import { HISTORY_SQL } from '../../resolvers/catalogue/change-history.ts';
import { GTIN, ingestHistory } from './as-of-fixtures.ts';

describe('as_of reads one record\'s history through indexes, never a scan of the change log', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await ingestHistory(t.db);
    // A log large enough that a sequential scan would be the planner's choice if no index served.
    await t.db.query(`INSERT INTO sources (id, name, country, refresh_interval_hours) VALUES ('filler', 'Filler', 'CH', 24)`);
    await t.db.query(`INSERT INTO changes (source, table_name, natural_key, drug_id, change_type, after, occurred_at)
      SELECT 'filler', CASE WHEN n % 3 = 0 THEN 'products' ELSE 'packs' END, jsonb_build_object('source', 'filler', 'key', n::text),
             gen_random_uuid(), 'insert',
             jsonb_build_object('identifiers', jsonb_build_array(jsonb_build_object('system', 'gtin', 'code', lpad(n::text, 13, '0')))),
             timestamptz '2030-01-01' + n * interval '1 second'
        FROM generate_series(1, 20000) AS n`);
    await t.db.query('ANALYZE changes');
  });
  afterAll(() => t.close());

  const plan = async (sql: string, params: unknown[]) => {
    const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it('walks a code\'s records, their products, packs and recalls by index in one statement', async () => {
    const probe = (system: string) => JSON.stringify([{ system, code: GTIN.febrex }]);
    const text = await plan(HISTORY_SQL.history, [null, probe('gtin'), probe('ean')]);
    expect(text).toMatch(/Bitmap Index Scan on changes_identifiers/);
    expect(text).toMatch(/changes_record_history/);
    expect(text).toMatch(/changes_drug_history/);
    expect(text).toMatch(/changes_source_history/);
    expect(text).not.toMatch(/Seq Scan on changes/);
  });

  it('walks a product\'s history by index in one statement', async () => {
    const { rows } = await t.db.query<{ drug_id: string }>(`SELECT drug_id FROM changes WHERE table_name = 'products' AND source = 'asof-ch' LIMIT 1`);
    const text = await plan(HISTORY_SQL.history, [rows[0]!.drug_id, null, null]);
    expect(text).toMatch(/changes_drug_history/);
    expect(text).toMatch(/changes_record_history/);
    expect(text).not.toMatch(/Seq Scan on changes/);
    const starts = await plan(HISTORY_SQL.starts, [['asof-ch', 'filler']]);
    expect(starts).toMatch(/changes_source_history/);
    expect(starts).not.toMatch(/Seq Scan on changes/);
  });
});

describe('as_of on records written without a change history', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key();
    await seedCatalogue(t.db);
  });
  afterAll(() => t.close());

  it('answers today\'s record with status unknown (no_history) instead of pretending a past', async () => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=gtin&code=${CODES.brufenGtin}&as_of=2024-01-01`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.as_of).toMatchObject({ status: 'unknown', status_reason: 'no_history', recorded_at: null });
    expect(body.matched_pack).toMatchObject({ status: 'unknown', status_reason: 'no_history' });
    expect(body._meta).toMatchObject({ as_of: '2024-01-01T23:59:59.999Z', history_starts: null });
    const today = (await t.app.inject({ url: `/v1/drugs/lookup?system=gtin&code=${CODES.brufenGtin}`, headers: bearer(key) })).json();
    expect(body.product_name).toBe(today.product_name);
    expect(body.matched_pack.prices).toEqual(today.matched_pack.prices);

    const byId = await t.app.inject({ url: `/v1/drugs/${IDS.brufenCh}?as_of=2024-01-01`, headers: bearer(key) });
    expect(byId.statusCode).toBe(200);
    expect(byId.json().as_of).toMatchObject({ status: 'unknown', status_reason: 'no_history' });
  });
});
