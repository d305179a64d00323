/**
 * The shrink guard through the sync worker: a well-formed register cut to a tenth of its rows
 * at a line boundary, or a file with too many malformed rows, is refused with an outcome of
 * its own; the catalogue, the change feed and the freshness stay as they were, and sync
 * status and /metrics show the refusal. `--allow-shrink` (the runner option) accepts it once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusLines } from '../../cli/commands/sync-status.ts';
import type { Config } from '../../platform/config.ts';
import type { SyncResult } from '../../workers/sync/run.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { catalogueDigest } from '../ingest/snapshots.ts';
import { FakePublisher } from './publisher.ts';
import { runner, state, syncConfig } from './helpers.ts';

const PATH = '/de/avp.csv';

/** A valid PZN8 from a 7-digit serial: the check digit is the weighted sum (weights 1..7) mod 11. */
function pzn(serial: number): string {
  const digits = String(serial).padStart(7, '0');
  const check = [...digits].reduce((sum, d, i) => sum + Number(d) * (i + 1), 0) % 11;
  return check === 10 ? pzn(serial + 1) : digits + String(check);
}

/** A German AVP price list of `count` packs (one product each); `bad` rows get a broken PZN. */
function priceList(count: number, bad = 0): Buffer {
  const lines = ['PZN;Arzneimittelname;Preis'];
  const serials = Array.from({ length: count }, (_, i) => 1_000_000 + i * 17);
  for (const [i, serial] of serials.entries()) {
    const code = pzn(serial);
    const broken = i < bad ? code.slice(0, 7) + String((Number(code[7]) + 1) % 10) : code;
    lines.push(`${broken};Arzneimittel ${i} 10 mg Tabletten;${(5 + i / 10).toFixed(2).replace('.', ',')}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
}

describe('shrink guard of the sync worker', () => {
  let t: TestApp;
  let publisher: FakePublisher;
  let config: Config;
  const sync = async (options: { allowShrink?: boolean } = {}) => {
    const r = runner(t.db, config, options);
    try {
      return (await r.runNow(['de-pzn']))[0] as SyncResult;
    } finally {
      await r.close();
    }
  };
  const changeCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes')).rows[0]!.n;

  beforeAll(async () => {
    publisher = await new FakePublisher().start();
    t = await startTestApp();
    config = syncConfig(publisher, { 'de-pzn': PATH });
    publisher.publish(PATH, priceList(150));
    expect(await sync()).toMatchObject({ outcome: 'ok', rows: { read: 150, kept: 150, malformed: 0, excluded: 0 } });
  });
  afterAll(async () => {
    await t.close();
    await publisher.close();
  });

  it('refuses a file cut to a tenth of its rows: nothing deleted, no change record, freshness kept', async () => {
    const digest = await catalogueDigest(t.db);
    const changes = await changeCount();
    const successAt = async () => (await t.db.query<{ at: Date }>("SELECT last_success_at AS at FROM sync_state WHERE source = 'de-pzn'")).rows[0]!.at;
    const before = await successAt();
    const full = priceList(150).toString('latin1').split('\r\n');
    publisher.publish(PATH, Buffer.from(`${full.slice(0, 16).join('\r\n')}\r\n`, 'latin1'));
    const result = await sync();
    expect(result.outcome).toBe('shrink_refused');
    expect(result.error).toMatch(/would delete 135 of the 150 products of source de-pzn \(90 %\), more than the 20 % allowed/);
    expect(await catalogueDigest(t.db)).toBe(digest);
    expect(await changeCount()).toBe(changes);
    expect((await state(t.db, 'de-pzn')).last_outcome).toBe('shrink_refused');
    expect(await successAt()).toEqual(before);
    const status = (await statusLines(t.db, config.sync, new Date())).join('\n');
    expect(status).toMatch(/last attempt {2}\S+ shrink_refused, HTTP 200/);
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.body).toContain('drugref_sync_last_outcome{source="de-pzn",outcome="shrink_refused"} 1');
  });

  it('refuses a file whose malformed rows exceed the share allowed', async () => {
    const digest = await catalogueDigest(t.db);
    publisher.publish(PATH, priceList(150, 30));
    const result = await sync();
    expect(result).toMatchObject({ outcome: 'skipped_refused', rows: { read: 150, kept: 120, malformed: 30, excluded: 0 } });
    expect(result.error).toMatch(/30 of 150 rows \(20 %\) were skipped as malformed, more than the 10 % allowed/);
    expect(await catalogueDigest(t.db)).toBe(digest);
  });

  it('accepts the cut file once with allowShrink, and records its deletions', async () => {
    const changes = await changeCount();
    const full = priceList(150).toString('latin1').split('\r\n');
    publisher.publish(PATH, Buffer.from(`${full.slice(0, 16).join('\r\n')}\r\n`, 'latin1'));
    expect(await sync({ allowShrink: true })).toMatchObject({ outcome: 'ok', rows: { kept: 15 } });
    expect(await changeCount()).toBeGreaterThanOrEqual(changes + 135 * 2);
    const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM products WHERE source = 'de-pzn'");
    expect(rows[0]!.n).toBe(15);
  });
});
