/**
 * The Dutch, Belgian and Irish registers kept current by the sync worker: each is fetched from
 * the local fake publisher as its publisher serves it (the CBG CSV and HPRA XML as plain files,
 * the SAM export as a zip whose AMP file is unpacked) and ingested under its own source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/db.ts';
import type { Database } from '../../platform/db.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { FakePublisher, buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig } from './helpers.ts';

describe('NL, BE and IE sync sources', () => {
  let db: Database;
  let publisher: FakePublisher;

  beforeAll(async () => {
    db = await openTestDatabase();
    publisher = await new FakePublisher().start();
  });
  afterAll(async () => {
    await publisher.close();
    await db.close();
  });

  async function sync(source: string, path: string): Promise<void> {
    const r = runner(db, syncConfig(publisher, { [source]: path }));
    const [result] = await r.runNow([source]);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200 });
    const row = await state(db, source);
    expect(row.rows_kept).toBeGreaterThan(0);
    // Each fixture holds rows the register could not use: stored as malformed or excluded, never lost.
    expect((row.rows_malformed ?? 0) + (row.rows_excluded ?? 0)).toBeGreaterThan(0);
    expect(row.rows_read).toBe((row.rows_kept ?? 0) + (row.rows_malformed ?? 0) + (row.rows_excluded ?? 0));
  }

  it('declares the publishers\' locations, or says how to set one', () => {
    expect(findSyncSource('nl-cbg')).toMatchObject({ adapter: 'nl-cbg', country: 'NL', url: 'https://www.geneesmiddeleninformatiebank.nl/metadata.csv' });
    expect(findSyncSource('be-sam')).toMatchObject({ adapter: 'be-sam', country: 'BE', url: null, note: expect.stringContaining('SYNC_BE_SAM_URL') });
    expect(findSyncSource('ie-hpra')).toMatchObject({ adapter: 'ie-hpra', country: 'IE', url: expect.stringMatching(/^https:\/\/www\.hpra\.ie\//) });
  });

  it('downloads the CBG metadata.csv and ingests it', async () => {
    publisher.publish('/cbg/metadata.csv', fixture('nl-cbg/metadata.csv'));
    await sync('nl-cbg', '/cbg/metadata.csv');
    // Every line below the header has one outcome: the three the file gets wrong are malformed, none excluded.
    expect(await state(db, 'nl-cbg')).toMatchObject({ rows_read: 11, rows_kept: 8, rows_malformed: 3, rows_excluded: 0 });
  });

  it('downloads the SAM zip, unpacks its AMP and RMB files (not the others) and ingests them', async () => {
    publisher.publish('/sam/samv2-full.zip', buildZip([
      { name: 'AMP-1764000000000.xml', content: fixture('be-sam/AMP.xml') },
      { name: 'RMB-1764000000000.xml', content: fixture('be-sam/RMB.xml') },
      { name: 'CPN-1764000000000.xml', content: fixture('be-sam/broken.xml') },
    ]));
    await sync('be-sam', '/sam/samv2-full.zip');
    // Four AMPs and three reimbursement contexts.
    expect((await state(db, 'be-sam')).rows_kept).toBe(7);
  });

  it('downloads the HPRA list and ingests it', async () => {
    publisher.publish('/hpra/latestHMlist.xml', fixture('ie-hpra/latestHMlist.xml'));
    await sync('ie-hpra', '/hpra/latestHMlist.xml');
    const sources = (await listSources(db, new Date())).map((s) => [s.id, s.schemaState]);
    expect(sources).toEqual(expect.arrayContaining([['nl-cbg', 'ok'], ['be-sam', 'ok'], ['ie-hpra', 'ok']]));
  });
});
