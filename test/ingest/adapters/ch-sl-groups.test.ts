import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChSlGroups } from '../../../workers/ingest/adapters/ch-sl-groups.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';

const input = (name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/ch-sl-groups/${name}`, import.meta.url)) });

describe('ch-sl-groups adapter (SL pharma group prices)', () => {
  const { snapshot, problems, files } = parseChSlGroups([input('bag_sl_group_prices.csv'), input('weleda_arzneimittel.csv'), input('wala_arzneimittel.csv')]);
  const pack = (gtin: string) => snapshot.products?.find((p) => p.key === gtin)?.packs[0];

  it('gives each grouped article a pack keyed by GTIN with the group code, group price and a price of kind group', () => {
    expect(snapshot.source).toMatchObject({ id: 'ch-sl-groups', country: 'CH' });
    // Units come from the shared pack-text grammar (leadingQuantity), so they are not pinned here.
    expect(pack('7611916162404')).toMatchObject({
      key: '7611916162404', description: 'Tropfen zum Einnehmen 50 ml', marketing_status: 'active',
      identifiers: [{ system: 'gtin', code: '7611916162404' }, { system: 'pharmacode', code: '1019849' }],
      prices: [{ amount: 26.95, currency: 'CHF', kind: 'group' }],
      sl: { listed: true, group_code: '2069591', group_price: 26.95 },
    });
    expect(snapshot.products?.find((p) => p.key === '7611916162404')).toMatchObject({
      product_name: 'Absinthium, ethanol. Infusum D1 Tropfen zum Einnehmen 50 ml', identifiers: [], attributes: { abgabekategorie: 'FM / SL' },
    });
  });

  it('prices "8x<code>" as 8 units of the group price and keeps a 5-digit authorisation as swissmedic_no', () => {
    expect(pack('7611916151071')).toMatchObject({ prices: [{ amount: 20, kind: 'group' }], sl: { group_code: '2070631', group_price: 2.5 } });
    expect(snapshot.products?.find((p) => p.key === '7611916151071')?.identifiers).toEqual([{ system: 'swissmedic_no', code: '59812' }]);
  });

  it('reads the WALA list: semicolons, BOM, starred and padded headers, quoted line breaks, the stated pack price, limitation codes', () => {
    expect(pack('7640187361278')).toMatchObject({
      prices: [{ amount: 18.35, kind: 'group' }], sl: { group_code: '2070358', group_price: 18.35, limitations: [{ code: 'L3', text: '', level: 'pack' }] },
    });
    expect(snapshot.products?.find((p) => p.key === '7640187361322')?.product_name).toBe('Adonis/Scilla comp. Globuli velati 20 g');
  });

  it('reports malformed rows and excludes articles outside any group', () => {
    expect(problems).toEqual([
      { file: 'bag_sl_group_prices.csv', line: 7, message: 'pharma group code "207064" is not 7 digits' },
      { file: 'bag_sl_group_prices.csv', line: 8, message: 'group price "n/a" is not a number' },
      { file: 'weleda_arzneimittel.csv', line: 6, message: 'GTIN "761191615696" has a wrong check digit or length' },
      { file: 'weleda_arzneimittel.csv', line: 7, message: 'pharma group code 2099999 is not in the group price table' },
    ]);
    expect(files).toEqual([
      { file: 'bag_sl_group_prices.csv', role: 'group prices', read: 7, kept: 5, malformed: 2 },
      { file: 'weleda_arzneimittel.csv', role: 'articles', read: 6, kept: 3, malformed: 2, excluded: { not_grouped: 1 } },
      { file: 'wala_arzneimittel.csv', role: 'articles', read: 3, kept: 2, malformed: 0, excluded: { not_grouped: 1 } },
    ]);
  });

  it('refuses a group table alone outside a catalogue and an article list without one; names a file it does not recognise as unused', () => {
    expect(() => parseChSlGroups([input('bag_sl_group_prices.csv')])).toThrow(/alone re-price the packs a catalogue holds/);
    expect(() => parseChSlGroups([input('weleda_arzneimittel.csv')])).toThrow(FileRejectedError);
    const { files: reports } = parseChSlGroups([input('bag_sl_group_prices.csv'), input('weleda_arzneimittel.csv'), { name: 'other.csv', content: Buffer.from('a,b\n1,2\n') }]);
    expect(reports?.at(-1)).toMatchObject({ file: 'other.csv', role: 'unused', read: 0, kept: 0 });
  });
});
