/** Sync of the Nordic registers against the fake publisher: download, unzip, ingest the fixtures. */
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig, rowsNotKept } from './helpers.ts';

const TAKST = ['lms01.txt', 'lms02.txt', 'lms03.txt', 'lms09.txt', 'lms30.txt'];

describe('Nordic register sync sources', () => {
  const ctx = useSyncPublisher();

  it('unpacks a takst zip (folder and upper-case names as vendors ship them) and ingests the Danish files', async () => {
    expect(findSyncSource('dk-lms')).toMatchObject({ adapter: 'dk-lms', country: 'DK', url: null, note: expect.stringContaining('SYNC_DK_LMS_URL') });
    const path = '/dkma/takst.zip';
    ctx.publisher.publish(path, buildZip([
      ...TAKST.map((name) => ({ name: `takst/${name.toUpperCase()}`, content: fixture(`dk-lms/${name}`) })),
      { name: 'takst/lms05.txt', content: Buffer.from('not read\r\n') },
    ]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'dk-lms': path }));
    const [result] = await r.runNow(['dk-lms']);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: 44, kept: 40, malformed: 4, excluded: 0 } });
    // Rows the file holds but the catalogue does not: malformed or excluded by reason, none lost.
    expect(rowsNotKept(result)).toBe(4);
    expect(await state(ctx.db, 'dk-lms')).toMatchObject({ last_outcome: 'ok', rows_kept: 40 });
    expect((await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState])).toContainEqual(['dk-lms', 'ok']);
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'dk-lms'");
    expect(rows[0]!.n).toBe(10);
  });

  it('ingests a real takst release zip whole: dated names, lms12 and system.txt read, every row kept', async () => {
    const path = '/dkma/takst_2011-03-09.zip';
    const real = ['lms01.txt', 'lms02.txt', 'lms03.txt', 'lms09.txt', 'lms12.txt', 'system.txt'];
    ctx.publisher.publish(path, buildZip(real.map((name) => ({ name: `takst/${name.replace('.txt', '_2011-03-09.txt')}`, content: fixture(`dk-lms/real/${name}`) }))));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'dk-lms': path }));
    const [result] = await r.runNow(['dk-lms']);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 467, kept: 467, malformed: 0, excluded: 0 } });
    expect(rowsNotKept(result)).toBe(0);
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'dk-lms'");
    expect(rows[0]!.n).toBe(137);
  });

  it('downloads FEST from DMP\'s documented zip, unpacks fest251.xml and ingests it', async () => {
    const fest = findSyncSource('no-fest')!;
    expect(fest).toMatchObject({ adapter: 'no-fest', country: 'NO', url: expect.stringMatching(/^https:\/\/www\.dmp\.no\/.*\/fest251\.zip$/) });
    const path = '/dmp/festfiler/fest251.zip';
    ctx.publisher.publish(path, buildZip([{ name: 'fest251.xml', content: fixture('no-fest/fest251.xml') }]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'no-fest': path }));
    const [result] = await r.runNow(['no-fest']);
    // Every entry of the catalogues read has one outcome: the three the file gets wrong are malformed, none excluded.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: 27, kept: 24, malformed: 3, excluded: 0 } });
    expect(rowsNotKept(result)).toBe(3);
    expect((await r.runNow(['no-fest']))[0]).toMatchObject({ outcome: 'not_modified' });
    await r.close();
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM products WHERE source = 'no-fest'");
    expect(rows[0]!.n).toBe(6);
  });
});
