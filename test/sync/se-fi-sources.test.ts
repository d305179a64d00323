/**
 * Sync of the Swedish and Finnish sources against the local fake publisher: Fimea's register as
 * a zip of text files (the pack, substance and Kela price files are handed on); TLV's release as
 * the list with Läkemedelsverket's NPL export beside it, or the list alone when no NPL export is kept.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import type { SyncResult } from '../../workers/sync/run.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig, rowsNotKept } from './helpers.ts';

const FIMEA_PATH = '/fimea/documents/perusrekisteri.zip';
const TLV_PATH = '/tlv/export/{file}';
const NPL_NAMES = readdirSync(new URL('../fixtures/registers/se-tlv/npl/', import.meta.url)).sort();

describe('SE and FI sync sources', () => {
  const ctx = useSyncPublisher();

  it('needs a URL setting for both, since neither publisher keeps a stable file address', () => {
    expect(findSyncSource('fi-fimea')).toMatchObject({ adapter: 'fi-fimea', country: 'FI', url: null, note: expect.stringContaining('SYNC_FI_FIMEA_URL') });
    expect(findSyncSource('se-tlv')).toMatchObject({ adapter: 'se-tlv', country: 'SE', url: null, note: expect.stringContaining('SYNC_SE_TLV_URL') });
  });

  it('downloads the Fimea zip, unpacks the pack and substance files (as Fimea names them) and ingests them', async () => {
    ctx.publisher.publish(FIMEA_PATH, buildZip([
      { name: 'pakkaus1.txt', content: fixture('fi-fimea/PAKKAUS.txt') },
      { name: 'laakeaine1.txt', content: fixture('fi-fimea/LAAKEAINE.txt') },
      { name: 'kela_hinnat.txt', content: fixture('fi-fimea/kela_hinnat.txt') },
      { name: 'atc.txt', content: Buffer.from('ATCKOODI;SELITES\r\nA10BA02;metformiini\r\n') },
    ]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'fi-fimea': FIMEA_PATH }));
    const [result] = await r.runNow(['fi-fimea']);
    await r.close();
    // The fixture's rows as the adapter reports them: 8 + 7 + 6 read, 2 + 0 + 1 malformed, 0 + 1 + 1 excluded (not in the
    // register); the release's ATC table is handed on with them and gives its one row to the metformin product.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: 22, kept: 17, malformed: 3, excluded: 2 } });
    // Rows the file holds but the catalogue does not: malformed or excluded by reason, none lost.
    expect(rowsNotKept(result)).toBe(5);
    expect((result as SyncResult).changes).toBeGreaterThan(0);
    expect((await state(ctx.db, 'fi-fimea')).rows_kept).toBe(17);
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'fi-fimea' AND record -> 'prices' @> '[{\"currency\": \"EUR\"}]'");
    expect(rows[0]!.n).toBe(4);
    expect((await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState])).toContainEqual(['fi-fimea', 'ok']);
  });

  it('downloads the TLV list and ingests it; an unchanged file is not fetched again', async () => {
    ctx.publisher.publish('/tlv/export/tlv_lakemedel.xlsx', fixture('se-tlv/tlv_lakemedel.csv'));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'se-tlv': TLV_PATH }));
    const [first] = await r.runNow(['se-tlv']);
    // No npl.zip (404): the list alone. The three rows it gets wrong (a bad Varunummer, an unreadable AUP, a short row) are malformed.
    expect(first, JSON.stringify(first)).toMatchObject({ outcome: 'ok', rows: { read: 9, kept: 6, malformed: 3, excluded: 0 } });
    expect(rowsNotKept(first)).toBe(3);
    expect((await r.runNow(['se-tlv']))[0]).toMatchObject({ outcome: 'not_modified' });
    await r.close();
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'se-tlv'");
    expect(rows[0]!.n).toBe(6);
  });

  it('takes the release whole: the list and the NPL export zip, whose product files add what TLV does not list', async () => {
    expect(findSyncSource('se-tlv')!.downloads.map((d) => [d.file, d.optional ?? false])).toEqual([['tlv_lakemedel.xlsx', false], ['npl.zip', true]]);
    ctx.publisher.publish('/tlv/export/npl.zip', buildZip([
      ...NPL_NAMES.map((name) => ({ name: `Productdata/${name}`, content: fixture(`se-tlv/npl/${name}`) })),
      { name: 'readme.txt', content: Buffer.from('NPL export\r\n') },
    ]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'se-tlv': TLV_PATH }));
    const [result] = await r.runNow(['se-tlv']);
    await r.close();
    // The list as before (9 read, 6 kept, 3 malformed) and the six NPL files (5 kept, 1 with a broken id).
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 15, kept: 11, malformed: 4, excluded: 0 } });
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM products WHERE source = 'se-tlv' AND record -> 'identifiers' @> '[{\"system\": \"se_npl_id\", \"code\": \"20130101000028\"}]'");
    // The licence product only NPL lists arrived with the release.
    expect(rows[0]!.n).toBe(1);
  });
});
