/**
 * SL group prices for articles a list names by pharmacode only: the packs are keyed by
 * pharmacode and reach the catalogue through the Zur Rose and Refdata packs with that
 * pharmacode, which give them their GTIN (a catalogue with both sources loaded).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChSlGroups } from '../../../workers/ingest/adapters/ch-sl-groups.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshots } from '../../../workers/ingest/engine.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const input = (name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/ch-sl-groups/${name}`, import.meta.url)) });
const FILES = () => [input('bag_sl_group_prices.csv'), input('artikelliste_pharmacode.csv')];

describe('ch-sl-groups: an article list by pharmacode (no GTIN column)', () => {
  const { snapshot, problems, files } = parseChSlGroups(FILES());
  const pack = (key: string) => snapshot.products?.find((p) => p.key === key)?.packs[0];

  it('keys each grouped article by its pharmacode, zero padding dropped, with the group code and price', () => {
    expect(snapshot.products?.map((p) => p.key)).toEqual(['pharmacode:4228473', 'pharmacode:5043474', 'pharmacode:1019849', 'pharmacode:9876543']);
    expect(pack('pharmacode:4228473')).toEqual({
      key: 'pharmacode:4228473', description: 'Globuli velati 20 g', identifiers: [{ system: 'pharmacode', code: '4228473' }], marketing_status: 'active',
      prices: [{ amount: 18.35, currency: 'CHF', kind: 'group' }],
      sl: { listed: true, group_code: '2070358', group_price: 18.35, limitations: [{ code: 'L3', text: '', level: 'pack' }] },
      units: 20, unit: 'g',
    });
    expect(pack('pharmacode:1019849')?.identifiers).toEqual([{ system: 'pharmacode', code: '1019849' }]);
  });

  it('reports a row with no usable pharmacode as malformed and excludes the article outside any group', () => {
    expect(problems.filter((p) => p.file === 'artikelliste_pharmacode.csv')).toEqual([
      { file: 'artikelliste_pharmacode.csv', line: 6, message: 'pharmacode "0000000" is not a pharmacode' },
    ]);
    expect(files?.find((f) => f.file === 'artikelliste_pharmacode.csv')).toEqual({ file: 'artikelliste_pharmacode.csv', role: 'articles', read: 6, kept: 4, malformed: 1, excluded: { not_grouped: 1 } });
  });
});

describe('ch-sl-groups by pharmacode in a catalogue with Zur Rose and Refdata', () => {
  let t: TestApp;
  let key: string;
  const lookup = async (gtin: string) => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=gtin&code=${gtin}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const parse = async (adapter: string, files: InputFile[]) => (await findAdapter(adapter)!.parse(files)).snapshot;
    await ingestSnapshots(t.db, [
      await parse('ch-zurrose', [input('transfer.dat')]),
      await parse('ch-refdata', [input('Refdata.Articles.xml')]),
      await parse('ch-sl-groups', FILES()),
    ]);
  });
  afterAll(() => t.close());

  it('gives the Refdata and Zur Rose pack with the pharmacode the group price and code', async () => {
    const aconitum = await lookup('7640187361278');
    expect(aconitum.matched_pack.sl).toMatchObject({ group_code: '2070358', group_price: 18.35 });
    expect(aconitum.matched_pack.prices).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'group', amount: 18.35, currency: 'CHF' })]));
    expect(aconitum.matched_pack.sources.sort()).toEqual(['ch-refdata', 'ch-sl-groups', 'ch-zurrose']);
  });

  it('reaches a pack only Refdata gives a GTIN (Zur Rose has none for it), and one only Zur Rose lists', async () => {
    expect((await lookup('7611916152665')).matched_pack).toMatchObject({ sl: { group_code: '2070275', group_price: 28.45 } });
    const zurRoseOnly = await lookup('7611916162404');
    expect(zurRoseOnly.matched_pack).toMatchObject({ sl: { group_code: '2069591', group_price: 26.95 } });
    expect(zurRoseOnly.matched_pack.sources.sort()).toEqual(['ch-sl-groups', 'ch-zurrose']);
  });
});
