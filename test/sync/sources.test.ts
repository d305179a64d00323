import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { pino } from 'pino';
import { catalogueDigest } from '../ingest/snapshots.ts';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { WORKERS } from '../../workers/index.ts';
import { SYNC_SOURCES } from '../../platform/sync-sources.ts';
import { inactiveReason, registerSyncWorker, startSyncWorker } from '../../workers/sync/worker.ts';
import { statusLines } from '../../cli/commands/sync-status.ts';
import { buildPackungen } from '../fixtures/registers/ch-swissmedic/packungen.ts';
import type { SyncResult } from '../../workers/sync/run.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';

const BDPM = '/bdpm/telechargement.php?fichier=';
const NDC_PATH = '/fda/ndctext.zip';

describe('register sync sources', () => {
  const ctx = useSyncPublisher();

  it('fetches every BDPM file through the {file} URL, skips missing optional ones, and refetches all when one changed', async () => {
    for (const f of ['CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt']) ctx.publisher.publish(`${BDPM}${f}`, fixture(`fr-bdpm/${f}`));
    const config = syncConfig(ctx.publisher, { 'fr-bdpm': `${BDPM}{file}` });
    const r = runner(ctx.db, config);
    const [first] = await r.runNow(['fr-bdpm']);
    expect(first, JSON.stringify(first)).toMatchObject({ outcome: 'ok', httpStatus: expect.any(Number) });
    expect(ctx.publisher.hitsOf(`${BDPM}CIS_GENER_bdpm.txt`).map((h) => h.answered)).toEqual([404]);
    expect((await r.runNow(['fr-bdpm']))[0]).toMatchObject({ outcome: 'not_modified' });
    expect(ctx.publisher.hitsOf(`${BDPM}CIS_bdpm.txt`).map((h) => h.answered)).toEqual([200, 304]);

    // A new CIP file: CIS_bdpm.txt answers 304 first, then is fetched in full because the adapter needs both.
    // (A trailing blank line: new bytes and ETag, same records, so the ingest records no change.)
    ctx.publisher.publish(`${BDPM}CIS_CIP_bdpm.txt`, Buffer.concat([fixture('fr-bdpm/CIS_CIP_bdpm.txt'), Buffer.from('\n')]));
    const [third] = await r.runNow(['fr-bdpm']);
    await r.close();
    expect(third).toMatchObject({ outcome: 'ok', changes: 0 });
    const cis = ctx.publisher.hitsOf(`${BDPM}CIS_bdpm.txt`);
    expect(cis.map((h) => h.answered)).toEqual([200, 304, 304, 200]);
    expect(cis.at(-1)!.headers['if-none-match']).toBeUndefined();
  });

  it('unpacks the FDA NDC zip into product.txt and package.txt', async () => {
    ctx.publisher.publish(NDC_PATH, buildZip([
      { name: 'product.txt', content: fixture('fda-ndc/product.txt') },
      { name: 'package.txt', content: fixture('fda-ndc/package.txt') },
    ]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'fda-ndc': NDC_PATH }));
    const [result] = await r.runNow(['fda-ndc']);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { kept: expect.any(Number) } });
    expect((await state(ctx.db, 'fda-ndc')).rows_kept).toBeGreaterThan(0);
    expect((await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState])).toContainEqual(['fda-ndc', 'ok']);
  });

  it('downloads a plain xlsx workbook (Swissmedic packages) and hands it to the adapter as Packungen.xlsx', async () => {
    const path = '/swissmedic/zugelassene_packungen_ham.xlsx';
    ctx.publisher.publish(path, await buildPackungen());
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'ch-swissmedic': path }));
    const [result] = await r.runNow(['ch-swissmedic']);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { kept: expect.any(Number) } });
    expect((result as SyncResult).changes).toBeGreaterThan(0);
  });

  it('refuses an archive that inflates past the unpacked limit (a zip bomb), writing nothing', async () => {
    ctx.publisher.publish(NDC_PATH, buildZip([
      { name: 'product.txt', content: Buffer.alloc(2_000_000, 0x20) },
      { name: 'package.txt', content: fixture('fda-ndc/package.txt') },
    ]));
    const digest = await catalogueDigest(ctx.db);
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'fda-ndc': NDC_PATH }));
    const [result] = await r.runNow(['fda-ndc']);
    await r.close();
    expect(result).toMatchObject({ outcome: 'too_large' });
    expect(await catalogueDigest(ctx.db)).toBe(digest);
  });

  it('reads sources from one config: publishers\' URLs by default, SYNC_* overrides, off unless SYNC_ENABLED', () => {
    const defaults = loadConfig({});
    expect(defaults.sync.enabled).toBe(false);
    expect(defaults.sync.sources['ch-sl']!.url).toBe('https://www.spezialitaetenliste.ch/File.axd?file=XMLPublications.zip');
    expect(defaults.sync.sources['fr-bdpm']!.url).toContain('{file}');
    expect(inactiveReason(defaults.sync, SYNC_SOURCES.find((s) => s.id === 'gb-dmd')!)).toMatch(/TRUD/);
    const custom = loadConfig({ SYNC_ENABLED: 'true', SYNC_CH_SL_URL: 'https://mirror.example/sl.zip', SYNC_FDA_NDC_ENABLED: 'false', SYNC_CH_SL_INTERVAL_HOURS: '3',
      SYNC_CH_SL_MAX_SHRINK_PERCENT: '50', INGEST_MAX_SKIPPED_PERCENT: '5' });
    expect(custom.sync.enabled).toBe(true);
    expect(custom.sync.sources['ch-sl']).toEqual({ url: 'https://mirror.example/sl.zip', enabled: true, intervalHours: 3, maxDeletePercent: 50 });
    expect(custom.sync.sources['fr-bdpm']!.maxDeletePercent).toBe(20);
    expect(custom.sync.shrink).toEqual({ maxDeletePercent: 20, maxSkippedPercent: 5 });
    expect(() => loadConfig({ INGEST_MAX_SHRINK_PERCENT: '120' })).toThrow(/INGEST_MAX_SHRINK_PERCENT must be a percentage from 0 to 100/);
    expect(loadConfig({}).sync.heapGrowthPercent).toBe(50);
    expect(loadConfig({ INGEST_HEAP_GROWTH_PERCENT: '0' }).sync.heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ INGEST_HEAP_GROWTH_PERCENT: 'half' })).toThrow(/INGEST_HEAP_GROWTH_PERCENT must be an integer/);
    expect(inactiveReason(custom.sync, SYNC_SOURCES.find((s) => s.id === 'fda-ndc')!)).toMatch(/switched off/);
    expect(() => loadConfig({ SYNC_FR_BDPM_URL: 'https://mirror.example/bdpm.txt' })).toThrow(ConfigError);
    expect(() => loadConfig({ SYNC_CH_SL_URL: 'not a url' })).toThrow(/SYNC_CH_SL_URL/);
  });

  it('is one of the service workers; idle unless enabled, a tick on start when enabled', async () => {
    expect(WORKERS).toContain(registerSyncWorker);
    const log = pino({ level: 'silent' });
    const path = '/tick/Preparations.zip';
    ctx.publisher.publish(path, buildZip([{ name: 'Preparations.xml', content: fixture('ch-sl/Preparations.xml') }]));
    const enabled = syncConfig(ctx.publisher, { 'ch-sl': path });
    const idle = startSyncWorker({ config: { ...enabled, sync: { ...enabled.sync, enabled: false } }, db: ctx.db, now: () => new Date(), log });
    await idle.close();
    expect(ctx.publisher.hitsOf(path)).toHaveLength(0);
    const worker = startSyncWorker({ config: enabled, db: ctx.db, now: () => new Date(), log });
    for (let i = 0; i < 100 && (await state(ctx.db, 'ch-sl'))?.last_outcome !== 'ok'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await worker.close();
    expect(ctx.publisher.hitsOf(path)).toHaveLength(1);
  });

  it('prints each source\'s schedule, last attempt and freshness for `drugref sync status`', async () => {
    const config = syncConfig(ctx.publisher, { 'fda-ndc': NDC_PATH, 'fr-bdpm': `${BDPM}{file}` });
    const lines = (await statusLines(ctx.db, config.sync, new Date())).join('\n');
    expect(lines).toMatch(/^Scheduled sync: on/);
    expect(lines).toContain('fda-ndc (fda-ndc): ok');
    expect(lines).toMatch(/fda-ndc[\s\S]*last attempt {2}\S+ too_large, HTTP 200/);
    expect(lines).toMatch(/gb-dmd \(gb-dmd\): never_run\n {2}schedule {6}not scheduled: switched off/);
  });
});
