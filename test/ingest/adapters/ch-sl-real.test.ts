/**
 * ch-sl on the SL's Preparations.xml as oddb2xml keeps it (test/fixtures/registers/ch-sl/real,
 * SOURCE.md there): 8 preparations, a byte-order mark at the start and another between two of them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChSl } from '../../../workers/ingest/adapters/ch-sl.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = readFileSync(new URL('../../fixtures/registers/ch-sl/real/Preparations.xml', import.meta.url));

describe('ch-sl on the real Preparations.xml', () => {
  const { snapshot, problems, files } = parseChSl('Preparations.xml', REAL);
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('keeps all 8 preparations and their 9 packs', () => {
    expect(files).toEqual([{ file: 'Preparations.xml', role: 'Preparations', read: 8, kept: 8, malformed: 0 }]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products?.flatMap((p) => p.packs)).toHaveLength(9);
  });

  it('reads Ancopir as the file says: prices with their dates, pharmacode, limitation points', () => {
    // <Pack ProductKey="394" Pharmacode="177804"> <GTIN>7680284860144</GTIN> PublicPrice 8.55 from 01.03.2010, ExFactoryPrice 3.89 from 01.07.2001
    expect(product('394')).toMatchObject({ product_name: 'Ancopir Inj Lös', atc_code: 'A11DB', identifiers: [{ system: 'swissmedic_no', code: '28486' }] });
    expect(product('394')?.packs[0]).toMatchObject({
      key: '7680284860144',
      identifiers: [{ system: 'gtin', code: '7680284860144' }, { system: 'swissmedic_no', code: '28486014' }, { system: 'pharmacode', code: '177804' }],
      prices: [
        { amount: 3.89, currency: 'CHF', kind: 'ex_factory', valid_from: '2001-07-01' },
        { amount: 8.55, currency: 'CHF', kind: 'public', valid_from: '2010-03-01' },
      ],
      sl: { listed: true, public_price: 8.55, ex_factory_price: 3.89, limitations: [expect.objectContaining({ code: '070240', type: 'PKT', value: 40 })] },
    });
  });

  it('keeps a pack the SL names by pharmacode only (no GTIN), under that pharmacode', () => {
    expect(product('19736')?.packs[0]).toMatchObject({ key: 'phar:3817150', identifiers: [{ system: 'pharmacode', code: '3817150' }] });
  });

  it('refuses a truncated file, an empty file and a file of another register', () => {
    expect(() => parseChSl('Preparations.xml', REAL.subarray(0, 20_000))).toThrow(FileRejectedError);
    expect(() => parseChSl('Preparations.xml', Buffer.alloc(0))).toThrow(FileRejectedError);
    const refdata = readFileSync(new URL('../../fixtures/registers/ch-refdata/real/Refdata.Articles.xml', import.meta.url));
    expect(() => parseChSl('Preparations.xml', refdata)).toThrow(FileRejectedError);
  });
});
