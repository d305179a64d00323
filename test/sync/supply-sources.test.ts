/**
 * The shortage publications synced from a fake publisher on loopback like any register: the
 * BASG register and the CIMA answer as published (real excerpts), the openFDA bulk zip
 * unpacked; each becomes supply rows, and an unchanged publication is not read again.
 */
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';
import type { SyncResult } from '../../workers/sync/run.ts';

describe('supply sync sources', () => {
  const ctx = useSyncPublisher();

  it('names each publisher\'s location', () => {
    expect(findSyncSource('at-basg-supply')).toMatchObject({ adapter: 'at-basg-supply', country: 'AT', url: 'https://www.basg.gv.at/fileadmin/uploadVERE/VertriebseinschraenkungenASP.xml' });
    expect(findSyncSource('es-cima-supply')).toMatchObject({ country: 'ES', url: expect.stringMatching(/^https:\/\/cima\.aemps\.es\/cima\/rest\/psuministro/) });
    expect(findSyncSource('fr-ansm-supply')).toMatchObject({ adapter: 'fr-ansm-supply', country: 'FR', url: expect.stringMatching(/fichier=CIS_CIP_Dispo_Spec\.txt$/) });
    expect(findSyncSource('us-fda-shortages')?.downloads[0]?.unzip).toBeDefined();
  });

  it('downloads the four publications, writes their supply rows and skips an unchanged one', async () => {
    ctx.publisher.publish('/basg/VertriebseinschraenkungenASP.xml', fixture('at-basg-supply/real/VertriebseinschraenkungenASP_20230923_excerpt.xml'));
    ctx.publisher.publish('/cima/psuministro', fixture('es-cima-supply/real/psuministro_page1.json'));
    ctx.publisher.publish('/bdpm/CIS_CIP_Dispo_Spec.txt', fixture('fr-ansm-supply/real/CIS_CIP_Dispo_Spec_20260126_excerpt.txt'));
    ctx.publisher.publish('/fda/shortages.zip', buildZip([{ name: 'drug-shortages-0001-of-0001.json', content: fixture('us-fda-shortages/drug-shortages.json') }]));
    const config = syncConfig(ctx.publisher, { 'at-basg-supply': '/basg/VertriebseinschraenkungenASP.xml', 'es-cima-supply': '/cima/psuministro', 'fr-ansm-supply': '/bdpm/CIS_CIP_Dispo_Spec.txt', 'us-fda-shortages': '/fda/shortages.zip' });
    const r = runner(ctx.db, config);
    const results = (await r.runNow(['at-basg-supply', 'es-cima-supply', 'fr-ansm-supply', 'us-fda-shortages'])) as SyncResult[];
    expect(results.map((x) => [x.source, x.outcome, x.rows])).toEqual([
      ['at-basg-supply', 'ok', { read: 6, kept: 6, malformed: 0, excluded: 0 }],
      ['es-cima-supply', 'ok', { read: 25, kept: 25, malformed: 0, excluded: 0 }],
      ['fr-ansm-supply', 'ok', { read: 32, kept: 28, malformed: 0, excluded: 4 }],
      ['us-fda-shortages', 'ok', { read: 6, kept: 5, malformed: 1, excluded: 0 }],
    ]);
    expect(results.map((x) => x.changes)).toEqual([6, 25, 28, 6]);
    const { rows } = await ctx.db.query<{ source: string; n: number; short: number }>(
      `SELECT source, count(*)::int AS n, count(*) FILTER (WHERE status <> 'available')::int AS short FROM pack_supply GROUP BY source ORDER BY source`);
    expect(rows).toEqual([
      { source: 'at-basg-supply', n: 6, short: 4 }, { source: 'es-cima-supply', n: 25, short: 25 },
      { source: 'fr-ansm-supply', n: 28, short: 22 }, { source: 'us-fda-shortages', n: 6, short: 5 },
    ]);
    const [again] = await r.runNow(['at-basg-supply']);
    await r.close();
    expect(again).toMatchObject({ outcome: 'not_modified' });
    expect(await state(ctx.db, 'us-fda-shortages')).toMatchObject({ last_outcome: 'ok', rows_malformed: 1, last_changes: 6 });
  });
});
