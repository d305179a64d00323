/**
 * The DailyMed SPL release synced from the local fake publisher as DailyMed ships it: numbered
 * zip parts, each a zip of one zip per SPL (its XML and pictures). Every published part is
 * taken (parts past the last answer 404 and are skipped) and only the SPL documents unpacked.
 */
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';

const DAILYMED = '/public-release-files/';
const part = (n: number): string => `${DAILYMED}dm_spl_release_human_rx_part${n}.zip`;
/** One SPL as DailyMed packs it: a zip named by date and set id holding the XML and its pictures. */
const splZip = (name: string, xml: Buffer): { name: string; content: Buffer } => ({
  name: `prescription/20110426_${name}.zip`,
  content: buildZip([{ name: `${name}.xml`, content: xml }, { name: `${name}-01.jpg`, content: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) }]),
});

describe('us-spl sync source', () => {
  const ctx = useSyncPublisher();

  it('names the parts of the full human prescription release, the first required', () => {
    const { downloads, url, note } = findSyncSource('us-spl')!;
    expect(url).toBeNull();
    expect(note).toContain('{file}');
    expect(downloads[0]).toMatchObject({ file: 'dm_spl_release_human_rx_part1.zip', unzip: { nested: true } });
    expect(downloads[0]!.optional).toBeUndefined();
    expect(downloads.slice(1).every((d) => d.optional === true && /^dm_spl_release_human_rx_part\d+\.zip$/.test(d.file))).toBe(true);
  });

  it('downloads every published part, unpacks the SPL documents of its inner zips and ingests them as one release', async () => {
    ctx.publisher.publish(part(1), buildZip([splZip('00f66f25-3469-4c16-9baf-fba21e9628bd', fixture('us-spl/real/cough.xml'))]));
    ctx.publisher.publish(part(2), buildZip([splZip('metformin', fixture('us-spl/metformin-spl.xml'))]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'us-spl': `${DAILYMED}{file}` }));
    const [result] = await r.runNow(['us-spl']);
    // cough.xml 1 read, 1 kept; metformin-spl.xml 3 read, 2 kept, 1 malformed (an NDC that is not one); the pictures are not unpacked.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 4, kept: 3, malformed: 1, excluded: 0 } });
    expect(ctx.publisher.hitsOf(part(3)).map((h) => h.answered)).toEqual([404]);
    expect((await state(ctx.db, 'us-spl')).rows_kept).toBe(3);
    expect((await r.runNow(['us-spl']))[0]).toMatchObject({ outcome: 'not_modified' });
    await r.close();
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM products WHERE source = 'us-spl'");
    expect(rows[0]!.n).toBe(3);
  });

  it('refuses a release whose first part is missing, writing nothing', async () => {
    const before = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM changes WHERE source = 'us-spl'");
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'us-spl': '/elsewhere/{file}' }));
    const [result] = await r.runNow(['us-spl']);
    await r.close();
    expect(result).toMatchObject({ outcome: 'http_error', httpStatus: 404 });
    const after = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM changes WHERE source = 'us-spl'");
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});
