/**
 * ch-swissmedic on Swissmedic's published list as oddb2xml keeps it (test/fixtures/registers/
 * ch-swissmedic/real, SOURCE.md there): title rows, a bilingual header, 43 pack rows of 31.01.2019.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseChSwissmedic } from '../../../workers/ingest/adapters/ch-swissmedic.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import type { AdapterResult } from '../../../workers/ingest/snapshot.ts';

const REAL = readFileSync(new URL('../../fixtures/registers/ch-swissmedic/real/Packungen.xlsx', import.meta.url));

describe('ch-swissmedic on the real Packungen.xlsx', () => {
  let result: AdapterResult;
  const product = (key: string) => result.snapshot.products?.find((p) => p.key === key);

  beforeAll(async () => {
    result = await parseChSwissmedic('Packungen.xlsx', REAL);
  });

  it('counts every pack row: 42 kept, Zymafluor pack 068 listed twice excluded as a duplicate', () => {
    expect(result.files).toEqual([{ file: 'Packungen.xlsx', role: 'Zugelassene Packungen', read: 43, kept: 42, malformed: 0, excluded: { duplicate: 1 } }]);
    expect(result.files?.every(balanced)).toBe(true);
    expect(result.problems).toEqual([]);
    expect(result.snapshot.products).toHaveLength(38);
  });

  it('reads Pethidin as the row says: category A+ kept, narcotic list a, GTIN from number and pack code', () => {
    // Row 10: 13369 | 1 | Pethidin HCl Amino 100 mg/2 ml, Injektionslösung | Amino AG ... | N02AB02 | ... | 046 | 100 | Ampulle(n) | A+
    expect(product('13369-01')).toMatchObject({
      product_name: 'Pethidin HCl Amino 100 mg/2 ml, Injektionslösung', atc_code: 'N02AB02', authorised_on: '1947-01-22', dispensing_category: 'A+',
      identifiers: [{ system: 'swissmedic_no', code: '13369' }],
    });
    expect(product('13369-01')?.packs).toEqual([expect.objectContaining({
      key: '7680133690465', description: '100 Ampulle(n)', dispensing_category: 'A+', narcotic_list: 'a', units: 100, unit: 'Ampulle(n)',
      identifiers: [{ system: 'gtin', code: '7680133690465' }, { system: 'swissmedic_no', code: '13369046' }],
    })]);
  });

  it('reads a date written as text (2016/01/14) and a multiplied pack size (4 x 112)', () => {
    // Row 44: 65160 | 1 | Lynparza 50 mg, Kapseln | ... | 2016/01/14 | 2016/01/14 | 2021/01/13 | 1 | 4 x 112 | Kapsel(n)
    expect(product('65160-01')).toMatchObject({ authorised_on: '2016-01-14', attributes: { authorisation_valid_until: '2021-01-13' } });
    expect(product('65160-01')?.packs[0]).toMatchObject({ key: '7680651600014', units: 448, unit: 'Kapsel(n)' });
  });

  it('refuses a truncated workbook, an empty file and a file of another register', async () => {
    await expect(parseChSwissmedic('Packungen.xlsx', REAL.subarray(0, 20_000))).rejects.toThrow(FileRejectedError);
    await expect(parseChSwissmedic('Packungen.xlsx', Buffer.alloc(0))).rejects.toThrow(FileRejectedError);
    const other = readFileSync(new URL('../../fixtures/registers/ch-sl-groups/real/bag_sl_group_prices.csv', import.meta.url));
    await expect(parseChSwissmedic('Packungen.xlsx', other)).rejects.toThrow(FileRejectedError);
  });
});
