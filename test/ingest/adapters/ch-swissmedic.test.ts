import { beforeAll, describe, expect, it } from 'vitest';
import { parseChSwissmedic } from '../../../workers/ingest/adapters/ch-swissmedic.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { AdapterResult } from '../../../workers/ingest/snapshot.ts';
import { excelDateToIso } from '../../../workers/ingest/adapters/xlsx.ts';
import { HEADER, ROWS, buildPackungen } from '../../fixtures/registers/ch-swissmedic/packungen.ts';

describe('ch-swissmedic adapter (Zugelassene Packungen, xlsx)', () => {
  let result: AdapterResult;
  const product = (key: string) => result.snapshot.products?.find((p) => p.key === key);

  beforeAll(async () => {
    result = await parseChSwissmedic('Packungen.xlsx', await buildPackungen());
  });

  it('makes one product per Dosisstärke, keyed NNNNN-SS, carrying the 5-digit Swissmedic number', () => {
    expect(result.snapshot.products?.map((p) => p.key)).toEqual(['65317-01', '65317-02', '58111-01', '62044-01']);
    expect(product('65317-01')).toMatchObject({
      country: 'CH', product_name: 'Exemplol 500 mg, Filmtabletten', holder: 'Exempla AG', atc_code: 'N02BE01',
      authorised_on: '2015-03-01', dispensing_category: 'D', marketing_status: 'active',
      identifiers: [{ system: 'swissmedic_no', code: '65317' }],
      attributes: {
        heilmittelcode: 'Synthetika human', it_number: '01.01.2.', first_authorised_on: '2015-03-01', authorisation_valid_until: '2030-02-28',
        dispensing_category_product: 'B', indication: 'Schmerzen und Fieber bei Erwachsenen',
      },
    });
    expect(product('65317-02')?.authorised_on).toBe('2016-01-01');
  });

  it('derives each GTIN as 7680 + number + pack code + check digit, with the category per pack', () => {
    expect(product('65317-01')?.packs).toEqual([
      expect.objectContaining({
        key: '7680653170010', description: '16 Tablette(n)', dispensing_category: 'D', marketing_status: 'active',
        identifiers: [{ system: 'gtin', code: '7680653170010' }, { system: 'swissmedic_no', code: '65317001' }],
      }),
      expect.objectContaining({ key: '7680653170027', description: '100 Tablette(n)', dispensing_category: 'B' }),
    ]);
    expect(product('65317-02')?.packs[0]?.key).toBe('7680653170119');
  });

  it('keeps the narcotics list per pack and "unbegrenzt" as written', () => {
    expect(product('58111-01')?.packs[0]).toMatchObject({ key: '7680581110034', dispensing_category: 'A', narcotic_list: 'a' });
    expect(product('58111-01')?.attributes?.authorisation_valid_until).toBe('unbegrenzt');
    expect(product('65317-01')?.packs[0]?.narcotic_list).toBeUndefined();
  });

  it('marks Tierarzneimittel veterinary and leaves empty cells out', () => {
    expect(product('62044-01')).toMatchObject({ veterinary: true, holder: 'Vetexempla GmbH' });
    expect(product('62044-01')?.atc_code).toBeUndefined();
    expect(product('62044-01')?.attributes?.atcvet_code).toBe('QM01AE01');
    expect(product('62044-01')?.attributes?.it_number).toBeUndefined();
    expect(product('65317-01')?.veterinary).toBeUndefined();
  });

  it('keeps the Latin substances as provisional substances with the strength Zusammensetzung gives', () => {
    expect(product('58111-01')?.ingredients).toEqual([
      { unii: 'name:MORPHINI SULFAS PENTAHYDRICUS', strength_value: 10, strength_unit: 'mg', strength_text: '10 mg' },
    ]);
    expect(product('65317-02')?.ingredients).toEqual([{ unii: 'name:PARACETAMOLUM', strength_value: 1, strength_unit: 'g', strength_text: '1 g' }]);
    expect(result.snapshot.substances).toContainEqual({ unii: 'name:PARACETAMOLUM', name: 'paracetamolum', names: { la: 'paracetamolum' }, provisional: true });
  });

  it('reports malformed rows with their Excel row number, keeps the first row of a repeated pack (the second excluded as a duplicate), skips blank rows', () => {
    expect(result.problems).toEqual([
      { file: 'Packungen.xlsx', line: 13, message: 'Zulassungsnummer "6531A" is not a number of at most 5 digits' },
      { file: 'Packungen.xlsx', line: 15, message: 'Packungscode "ABC" is not a number of at most 3 digits' },
    ]);
    expect(product('65317-01')?.packs[0]?.dispensing_category).toBe('D');
    expect(result.files).toEqual([{ file: 'Packungen.xlsx', role: 'Zugelassene Packungen', read: 8, kept: 5, malformed: 2, excluded: { duplicate: 1 } }]);
  });

  it('finds the columns by header text wherever they are', async () => {
    const order = [2, 0, ...HEADER.map((_, i) => i).filter((i) => i !== 0 && i !== 2)];
    const moved = await buildPackungen(ROWS.map((r) => (r ? order.map((i) => r[i] ?? null) : null)), order.map((i) => HEADER[i]!));
    const again = await parseChSwissmedic('Packungen.xlsx', moved);
    expect(again.snapshot.products).toEqual(result.snapshot.products);
  });

  it('rejects a workbook without the required columns and a file that is not an xlsx', async () => {
    const header = HEADER.filter((h) => h !== 'Packungscode');
    await expect(buildPackungen([], header).then((b) => parseChSwissmedic('Packungen.xlsx', b))).rejects.toThrow(/missing packungscode/);
    await expect(buildPackungen([], ['Name', 'Wert']).then((b) => parseChSwissmedic('Packungen.xlsx', b))).rejects.toThrow(/no header row/);
    await expect(parseChSwissmedic('Packungen.csv', Buffer.from('Zulassungs-Nummer;Packungscode\n65317;1\n'))).rejects.toThrow(FileRejectedError);
    const book = await buildPackungen();
    await expect(parseChSwissmedic('Packungen.xlsx', book.subarray(0, book.length - 200))).rejects.toThrow(FileRejectedError);
    await expect(parseChSwissmedic('Packungen.xlsx', Buffer.concat([book.subarray(0, 2000), book.subarray(book.length - 2000)]))).rejects.toThrow(FileRejectedError);
    await expect(buildPackungen([]).then((b) => parseChSwissmedic('Packungen.xlsx', b))).rejects.toThrow(/no data rows/);
  });

  it('converts Excel serial days in both date systems', () => {
    expect(excelDateToIso(45352)).toBe('2024-03-01');
    expect(excelDateToIso(45352 - 1462, true)).toBe('2024-03-01');
    expect(excelDateToIso(0)).toBeNull();
  });
});
