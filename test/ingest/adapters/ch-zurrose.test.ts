import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseChZurrose } from '../../../workers/ingest/adapters/ch-zurrose.ts';

const fixture = (): Buffer => readFileSync(new URL('../../fixtures/registers/ch-zurrose/transfer.dat', import.meta.url));

describe('ch-zurrose adapter (transfer.dat)', () => {
  const { snapshot, problems, files } = parseChZurrose('transfer.dat', fixture());
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('reads the fixed-width fields: pharmacode, GTIN, prices in Rappen as CHF, category', () => {
    const exemplol = product('7680653170010');
    expect(exemplol).toMatchObject({ country: 'CH', product_name: 'EXEMPLOL Filmtabl 500 mg 16 Stk', marketing_status: 'active' });
    expect(exemplol?.packs[0]).toMatchObject({
      key: '7680653170010', description: 'EXEMPLOL Filmtabl 500 mg 16 Stk', dispensing_category: 'D', marketing_status: 'active',
      prices: [{ amount: 1.85, currency: 'CHF', kind: 'ex_factory' }, { amount: 3.9, currency: 'CHF', kind: 'public' }],
    });
    expect(exemplol?.attributes).toEqual({ vat_code: '2', insurance_listing: 'SL', index_therapeuticus: '0102100' });
  });

  it('keeps the first line of a repeated pharmacode and adds a second pharmacode of the same GTIN to that pack', () => {
    expect(product('7680653170010')?.packs[0]?.identifiers).toEqual([
      { system: 'gtin', code: '7680653170010' }, { system: 'pharmacode', code: '7001234' }, { system: 'pharmacode', code: '7001235' },
    ]);
    expect(snapshot.products?.filter((p) => p.key === '7680653170010')).toHaveLength(1);
  });

  it('reads the narcotic and cold-chain flags and marks out-of-trade articles withdrawn', () => {
    expect(product('7680581110034')?.attributes).toMatchObject({ narcotic: true });
    expect(product('7680581110034')?.packs[0]?.dispensing_category).toBe('A');
    expect(product('7680653170119')).toMatchObject({ marketing_status: 'withdrawn', packs: [{ marketing_status: 'withdrawn' }] });
  });

  it('keeps veterinary lines, marked veterinary', () => {
    expect(product('7680620440016')).toMatchObject({ veterinary: true, product_name: 'CANIPROFEN Tabl 50 mg ad us. vet. 100 Stk' });
    expect(product('7680653170010')?.veterinary).toBeUndefined();
  });

  it('treats an all-zero GTIN as none and keys the article by pharmacode; decodes ISO-8859-1', () => {
    const cold = product('pharmacode:58502');
    expect(cold).toMatchObject({ product_name: 'KÜHLKOMPRESSE Gel für Säuglinge 1 Stk', attributes: { cold_chain: true, vat_code: '1', insurance_listing: 'none' } });
    expect(cold?.packs[0]).toMatchObject({ key: 'pharmacode:58502', identifiers: [{ system: 'pharmacode', code: '58502' }], prices: [{ amount: 4.5, kind: 'public' }] });
    expect(cold?.packs[0]?.dispensing_category).toBeUndefined();
  });

  it('reports short lines, bad check digits and bad digits with their line numbers, and counts the rows', () => {
    expect(problems).toEqual([
      { file: 'transfer.dat', line: 8, message: 'line has 31 characters, too short for a transfer.dat record (97)' },
      { file: 'transfer.dat', line: 9, message: 'GTIN "7680653170012" has a wrong check digit' },
      { file: 'transfer.dat', line: 10, message: 'PRMO "00O000" at column 61 is malformed' },
    ]);
    expect(files).toEqual([{ file: 'transfer.dat', role: 'article master (fixed width)', read: 10, kept: 6, malformed: 3, excluded: { duplicate: 1 } }]);
    expect(snapshot.products).toHaveLength(5);
  });

  it('accepts LF line ends and a file without a final line break', () => {
    const lf = Buffer.from(fixture().toString('latin1').replace(/\r\n/g, '\n').trimEnd(), 'latin1');
    const result = parseChZurrose('transfer.dat', lf);
    expect(result.snapshot.products).toEqual(snapshot.products);
    expect(result.problems.map((p) => p.line)).toEqual([8, 9, 10]);
  });

  it('rejects a file with no line in the layout (another file, or an empty one that would empty the source)', () => {
    expect(() => parseChZurrose('transfer.dat', Buffer.alloc(0))).toThrow(FileRejectedError);
    expect(() => parseChZurrose('transfer.dat', Buffer.from('<?xml version="1.0"?>\n<Articles/>\n'))).toThrow(/no line in the transfer.dat layout \(2 lines read\)/);
  });
});
