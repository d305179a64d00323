/**
 * The Dutch, Belgian and Irish registers kept current by the sync worker: each is fetched from
 * the local fake publisher as its publisher serves it (the CBG CSV and both HPRA lists as plain files,
 * the SAM export as a zip whose AMP file is unpacked) and ingested under its own source.
 */
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';

describe('NL, BE and IE sync sources', () => {
  const ctx = useSyncPublisher();

  async function sync(source: string, path: string): Promise<void> {
    const r = runner(ctx.db, syncConfig(ctx.publisher, { [source]: path }));
    const [result] = await r.runNow([source]);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200 });
    const row = await state(ctx.db, source);
    expect(row.rows_kept).toBeGreaterThan(0);
    expect(row.rows_read).toBe((row.rows_kept ?? 0) + (row.rows_malformed ?? 0) + (row.rows_excluded ?? 0));
  }

  it('declares the publishers\' locations, or says how to set one', () => {
    expect(findSyncSource('nl-cbg')).toMatchObject({ adapter: 'nl-cbg', country: 'NL', url: 'https://www.geneesmiddeleninformatiebank.nl/metadata.csv' });
    expect(findSyncSource('be-sam')).toMatchObject({ adapter: 'be-sam', country: 'BE', url: null, note: expect.stringContaining('SYNC_BE_SAM_URL') });
    expect(findSyncSource('ie-hpra')).toMatchObject({
      adapter: 'ie-hpra', country: 'IE', url: 'https://assets.hpra.ie/products/xml/{file}',
      downloads: [{ file: 'latestHumanlist.xml' }, { file: 'withdrawnHumanlist.xml' }],
    });
  });

  it('downloads the CBG metadata.csv and ingests it', async () => {
    ctx.publisher.publish('/cbg/metadata.csv', fixture('nl-cbg/metadata.csv'));
    await sync('nl-cbg', '/cbg/metadata.csv');
    // Every line below the header has one outcome: the three the file gets wrong are malformed, none excluded.
    expect(await state(ctx.db, 'nl-cbg')).toMatchObject({ rows_read: 11, rows_kept: 8, rows_malformed: 3, rows_excluded: 0 });
  });

  it('downloads the SAM zip, unpacks its AMP and RMB files (not the others) and ingests them', async () => {
    ctx.publisher.publish('/sam/samv2-full.zip', buildZip([
      { name: 'AMP-1764000000000.xml', content: fixture('be-sam/AMP.xml') },
      { name: 'RMB-1764000000000.xml', content: fixture('be-sam/RMB.xml') },
      { name: 'CPN-1764000000000.xml', content: fixture('be-sam/broken.xml') },
    ]));
    await sync('be-sam', '/sam/samv2-full.zip');
    // AMP: 6 records, 4 kept, 1 malformed (a code that is no SAM code), 1 duplicate; RMB: 5 contexts,
    // 3 kept, 1 malformed (no category), 1 hospital context out of scope.
    expect(await state(ctx.db, 'be-sam')).toMatchObject({ rows_read: 11, rows_kept: 7, rows_malformed: 2, rows_excluded: 2 });
  });

  it('downloads both HPRA lists as one release: a licence leaving the authorised list is marked withdrawn or deleted', async () => {
    const latest = fixture('ie-hpra/real/latestHumanlist.xml').toString('utf8');
    const withdrawn = fixture('ie-hpra/real/withdrawnHumanlist.xml').toString('utf8');
    ctx.publisher.publish('/hpra/latestHumanlist.xml', Buffer.from(latest));
    ctx.publisher.publish('/hpra/withdrawnHumanlist.xml', Buffer.from(withdrawn));
    await sync('ie-hpra', '/hpra/{file}');
    expect(ctx.publisher.hitsOf('/hpra/withdrawnHumanlist.xml').map((h) => h.answered)).toEqual([200]);
    // The real lists: 12 authorised and 8 withdrawn records, all kept.
    expect(await state(ctx.db, 'ie-hpra')).toMatchObject({ rows_read: 20, rows_kept: 20, rows_malformed: 0, rows_excluded: 0 });
    expect(await hpraLicence('PA0736/044/001')).toEqual({ marketing_status: 'active', withdrawn_on: null });

    // The next release: PA0736/044/001 moved to the withdrawn list, PA0179/002/013 in neither list.
    const moved = recordOf(latest, 'PA0736/044/001')
      .replace('<RegistrationStatus>AU</RegistrationStatus>', '<RegistrationStatus>WI</RegistrationStatus>')
      .replace('</Product>', '  <WithdrawalDate>01/07/2026</WithdrawalDate>\n  </Product>');
    ctx.publisher.publish('/hpra/latestHumanlist.xml', Buffer.from(
      latest.replace(recordOf(latest, 'PA0736/044/001'), '').replace(recordOf(latest, 'PA0179/002/013'), '')));
    ctx.publisher.publish('/hpra/withdrawnHumanlist.xml', Buffer.from(withdrawn.replace('</Products>', `${moved}</Products>`)));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'ie-hpra': '/hpra/{file}' }));
    const [next] = await r.runNow(['ie-hpra']);
    await r.close();
    expect(next, JSON.stringify(next)).toMatchObject({ outcome: 'ok', rows: { read: 19, kept: 19, malformed: 0, excluded: 0 } });
    expect(await hpraLicence('PA0736/044/001')).toEqual({ marketing_status: 'withdrawn', withdrawn_on: '2026-07-01' });
    expect(await hpraLicence('PA0179/002/013')).toBeNull();
    const sources = (await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState]);
    expect(sources).toEqual(expect.arrayContaining([['nl-cbg', 'ok'], ['be-sam', 'ok'], ['ie-hpra', 'ok']]));
  });

  /** One `<Product>` record of a list, with its indentation and line end, found by licence number. */
  function recordOf(list: string, licence: string): string {
    const at = list.indexOf(`<LicenceNumber>${licence}</LicenceNumber>`);
    const start = list.lastIndexOf('  <Product>', at);
    const end = list.indexOf('</Product>', at) + '</Product>\n'.length;
    return list.slice(start, end);
  }

  async function hpraLicence(licence: string): Promise<{ marketing_status: string; withdrawn_on: string | null } | null> {
    const { rows } = await ctx.db.query<{ marketing_status: string; withdrawn_on: string | null }>(
      `SELECT marketing_status, record->'attributes'->>'withdrawn_on' AS withdrawn_on
         FROM products WHERE source = 'ie-hpra' AND natural_key = $1`, [licence]);
    return rows[0] ?? null;
  }
});
