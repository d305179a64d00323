/**
 * SL group prices on the files as oddb2xml publishes them (test/fixtures/registers/ch-sl-groups/real,
 * SOURCE.md there): the BAG group price table, Weleda's and WALA's article lists. And the group
 * table given alone: it re-prices the packs the catalogue already holds (merged with the Zur
 * Rose and Refdata packs of the same pharmacode or GTIN) and deletes nothing.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { parseChSlGroups } from '../../../workers/ingest/adapters/ch-sl-groups.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { ingestSnapshots } from '../../../workers/ingest/engine.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const at = (dir: string) => (name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/ch-sl-groups/${dir}${name}`, import.meta.url)) });
const real = at('real/');
const hand = at('');
const REAL = () => [real('bag_sl_group_prices.csv'), real('weleda_arzneimittel.csv'), real('wala_arzneimittel.csv')];

describe('ch-sl-groups on the real group table and article lists', () => {
  const { snapshot, problems, files } = parseChSlGroups(REAL());
  const pack = (key: string) => snapshot.products?.find((p) => p.key === key)?.packs[0];

  it('counts every row of each file: kept, malformed with its line, or excluded as not grouped', () => {
    expect(files).toEqual([
      { file: 'bag_sl_group_prices.csv', role: 'group prices', read: 29, kept: 29, malformed: 0 },
      { file: 'weleda_arzneimittel.csv', role: 'articles', read: 41, kept: 36, malformed: 1, excluded: { not_grouped: 4 } },
      // 30 lines below the header, 23 records: seven names hold a quoted line break.
      { file: 'wala_arzneimittel.csv', role: 'articles', read: 23, kept: 22, malformed: 0, excluded: { not_grouped: 1 } },
    ]);
    expect(files?.every(balanced)).toBe(true);
    // Weleda's line 42 (id 785) gives a 14-digit GTIN.
    expect(problems).toEqual([{ file: 'weleda_arzneimittel.csv', line: 42, message: 'GTIN "76119161163777" has a wrong check digit or length' }]);
    expect(snapshot.products).toHaveLength(58);
  });

  it('prices as the files say: the group price, 8 units of group 2070631 at 2.50, WALA\'s stated pack price', () => {
    // weleda line 2: 7611916162404, pharmacode 1019849, csl 2069591; group 2069591 costs 26.95.
    expect(pack('7611916162404')).toMatchObject({
      identifiers: [{ system: 'gtin', code: '7611916162404' }, { system: 'pharmacode', code: '1019849' }],
      prices: [{ amount: 26.95, currency: 'CHF', kind: 'group' }], sl: { listed: true, group_code: '2069591', group_price: 26.95 },
    });
    // weleda line 6: Acidum Formicae D6, Injektionslösung 8 Amp., csl 8x2070631; 2070631 costs 2.50.
    expect(pack('7611916151071')).toMatchObject({ prices: [{ amount: 20, kind: 'group' }], sl: { group_code: '2070631', group_price: 2.5 } });
    // Its zulassungsnummer 404634 has six digits: a notification number, not a 5-digit Swissmedic number.
    expect(snapshot.products?.find((p) => p.key === '7611916151071')?.identifiers).toEqual([]);
    // wala line 3: 7640187361278;4228473;Aconitum comp.;Globuli velati 20 g;D;2070358;18.35
    expect(pack('7640187361278')).toMatchObject({ prices: [{ amount: 18.35, kind: 'group' }], sl: { group_code: '2070358', group_price: 18.35 } });
    // wala lines 9-10: a name with a quoted line break; group 2070306 at 16.55 as stated.
    expect(snapshot.products?.find((p) => p.key === '7640187361322')?.product_name).toBe('Adonis/Scilla comp. Globuli velati 20 g');
  });

  it('refuses an empty file, a truncated table and a file of another register, writing nothing', () => {
    expect(() => parseChSlGroups([{ name: 'bag_sl_group_prices.csv', content: Buffer.alloc(0) }])).toThrow(FileRejectedError);
    const cut = real('bag_sl_group_prices.csv').content.subarray(0, 40);
    expect(() => parseChSlGroups([{ name: 'bag_sl_group_prices.csv', content: cut }])).toThrow(FileRejectedError);
    expect(() => parseChSlGroups([hand('transfer.dat')])).toThrow(/no group price table/);
  });

  it('names a file of another kind given with the release as unused, not refused', () => {
    const { files: reports } = parseChSlGroups([...REAL(), { name: 'readme.csv', content: Buffer.from('a,b\n1,2\n') }]);
    expect(reports?.at(-1)).toMatchObject({ file: 'readme.csv', role: 'unused', read: 0 });
  });
});

describe('ch-sl-groups: the group table given alone, in a catalogue with Zur Rose and Refdata', () => {
  let db: Database;
  const packOf = async (source: string, key: string) => (await db.query<{ sl: Record<string, unknown>; amount: number | null }>(
    `SELECT k.sl, (SELECT amount::float8 FROM pack_prices WHERE pack_id = k.id AND kind = 'group') AS amount
       FROM packs k WHERE k.source = $1 AND k.natural_key = $2`, [source, key])).rows[0];
  const count = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs`)).rows[0]!.n;

  beforeAll(async () => {
    db = await openTestDatabase();
    const parse = async (adapter: string, files: InputFile[]) => (await findAdapter(adapter)!.parse(files)).snapshot;
    await ingestSnapshots(db, [
      await parse('ch-zurrose', [hand('transfer.dat')]),
      await parse('ch-refdata', [hand('Refdata.Articles.xml')]),
      await parse('ch-sl-groups', [hand('bag_sl_group_prices.csv'), hand('weleda_arzneimittel.csv'), hand('wala_arzneimittel.csv'), hand('artikelliste_pharmacode.csv')]),
    ]);
  });
  afterAll(() => db.close());

  it('is no longer refused: it re-prices the held packs and deletes nothing', async () => {
    const before = await count();
    expect(await packOf('ch-sl-groups', '7640187361278')).toMatchObject({ sl: { group_code: '2070358', group_price: 18.35, limitations: [{ code: 'L3' }] } });
    const result = await parseAndIngest(db, 'ch-sl-groups', [real('bag_sl_group_prices.csv')], { strict: true });
    expect(result.outcome).toBe('ok');
    expect(result.files).toEqual([{ file: 'bag_sl_group_prices.csv', role: 'group prices', read: 29, kept: 29, malformed: 0, excluded: {} }]);
    expect(result.outcome === 'ok' && result.report.tables.packs).toMatchObject({ delete: 0, insert: 0 });
    expect(await count()).toBe(before);
    // The published table gives 2070358 no limitation (the hand-written one said L3).
    const aconitum = await packOf('ch-sl-groups', '7640187361278');
    expect(aconitum?.sl).toEqual({ listed: true, group_code: '2070358', group_price: 18.35 });
  });

  it('applies new prices to packs by group: units × price, a stated pack price kept, packs of other groups as they were', async () => {
    const table = 'pharma_group_code,price_chf_incl_vat,description,limitation\n2070631,2.60,Ampulle,""\n2070358,19.10,Globuli,""\n2069591,27.50,Urtinktur,""\n';
    const result = await parseAndIngest(db, 'ch-sl-groups', [{ name: 'bag_sl_group_prices_20270101.csv', content: Buffer.from(table) }], { strict: true });
    expect(result.outcome).toBe('ok');
    expect(await packOf('ch-sl-groups', '7611916151071')).toMatchObject({ amount: 20.8, sl: { group_price: 2.6 } }); // 8x2070631
    expect(await packOf('ch-sl-groups', '7611916162404')).toMatchObject({ amount: 27.5, sl: { group_price: 27.5 } });
    expect(await packOf('ch-sl-groups', 'pharmacode:1019849')).toMatchObject({ amount: 27.5 });
    expect(await packOf('ch-sl-groups', '7640187361278')).toMatchObject({ amount: 19.1, sl: { group_price: 19.1 } });
    // 5043474 is in group 2070275, which this table does not name: left as it was.
    expect(await packOf('ch-sl-groups', 'pharmacode:5043474')).toMatchObject({ amount: 28.45, sl: { group_code: '2070275', group_price: 28.45 } });
    const merged = await db.query<{ sources: string[] }>(
      `SELECT array_agg(DISTINCT k.source ORDER BY k.source) AS sources FROM identifiers i JOIN packs k ON k.id = i.pack_id WHERE i.system = 'pharmacode' AND i.code = '1019849'`);
    expect(merged.rows[0]!.sources).toEqual(['ch-sl-groups', 'ch-zurrose']);
  });

  it('refuses the table alone where no catalogue is given (nothing to re-price)', () => {
    expect(() => parseChSlGroups([real('bag_sl_group_prices.csv')])).toThrow(/alone re-price the packs a catalogue holds/);
  });
});
