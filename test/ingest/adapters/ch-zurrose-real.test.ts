/**
 * ch-zurrose on oddb2xml's real `spec/data/transfer.dat` (test/fixtures/registers/ch-zurrose/real/SOURCE.md):
 * every one of its 75 lines kept or excluded for a named reason; values checked against the bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseChZurrose } from '../../../workers/ingest/adapters/ch-zurrose.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const bytes = (): Buffer => readFileSync(new URL('../../fixtures/registers/ch-zurrose/real/transfer.dat', import.meta.url));
const line = (n: number): string => bytes().toString('latin1').split(/\r?\n/)[n - 1]!;
/** A column as the record description gives it: 1-based start and length. */
const cut = (text: string, start: number, length: number): string => text.slice(start - 1, start - 1 + length);

describe('ch-zurrose on oddb2xml\'s transfer.dat', () => {
  const { snapshot, problems, files } = parseChZurrose('transfer.dat', bytes());
  const byPharmacode = (code: string) => snapshot.products!.find((p) => p.packs[0]!.identifiers.some((i) => i.system === 'pharmacode' && i.code === code))!;

  it('counts 75 lines: 63 kept, 12 excluded as repeats of an earlier pharmacode, none malformed or unaccounted', () => {
    expect(files).toEqual([{ file: 'transfer.dat', role: 'article master (fixed width)', read: 75, kept: 63, malformed: 0, excluded: { duplicate: 12 } }]);
    expect(files!.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    // 63 kept lines, 62 articles: one GTIN carries two pharmacodes.
    expect(snapshot.products).toHaveLength(62);
  });

  it('keeps the first of a repeated pharmacode (line 3 of 3, 4, 5 and 68, as oddb2xml does)', () => {
    expect([3, 4, 5, 68].map((n) => cut(line(n), 4, 7))).toEqual(['0020244', '0020244', '0020244', '0020244']);
    expect(byPharmacode('20244').product_name).toBe(cut(line(3), 11, 50).trim());
  });

  it('reads prices in Rappen as CHF, category, GTIN and index therapeuticus at the documented columns', () => {
    const src = line(2); // ERYTHROCIN i.v. Trockensub 1000 mg Amp
    const erythrocin = byPharmacode(String(Number(cut(src, 4, 7))));
    expect(erythrocin).toMatchObject({
      key: cut(src, 84, 13), product_name: cut(src, 11, 50).trim(),
      attributes: { vat_code: cut(src, 97, 1), insurance_listing: 'none', index_therapeuticus: cut(src, 77, 7) },
    });
    expect(erythrocin.packs[0]).toMatchObject({
      dispensing_category: cut(src, 76, 1),
      prices: [
        { amount: Number(cut(src, 61, 6)) / 100, currency: 'CHF', kind: 'ex_factory' },
        { amount: Number(cut(src, 67, 6)) / 100, currency: 'CHF', kind: 'public' },
      ],
    });
    expect(erythrocin.packs[0]!.prices!.map((p) => p.amount)).toEqual([50.53, 69.15]);
    expect(erythrocin.key).toBe('7680202580475');
  });

  it('marks out-of-trade articles (mutation code 3) withdrawn and veterinary lines veterinary', () => {
    expect(snapshot.products!.filter((p) => p.marketing_status === 'withdrawn')).toHaveLength(15);
    expect(snapshot.products!.filter((p) => p.veterinary)).toHaveLength(5);
    expect(byPharmacode('2871437')).toMatchObject({ veterinary: true, product_name: 'CANIPHEDRIN Tabl 20 mg ad us vet. 100 Stk' });
  });

  it('refuses a truncated file, a file of another register and an empty file', () => {
    expect(() => parseChZurrose('transfer.dat', bytes().subarray(0, 60))).toThrow(FileRejectedError);
    const takst = readFileSync(new URL('../../fixtures/registers/dk-lms/real/lms01.txt', import.meta.url));
    expect(() => parseChZurrose('transfer.dat', takst)).toThrow(/no line in the transfer.dat layout \(81 lines read\)/);
    expect(() => parseChZurrose('transfer.dat', Buffer.alloc(0))).toThrow(FileRejectedError);
    // Cut inside the tenth line: it is malformed, the nine before it read.
    const cutShort = parseChZurrose('transfer.dat', bytes().subarray(0, 99 * 9 + 40));
    expect(cutShort.files![0]).toMatchObject({ read: 10, malformed: 1 });
    expect(cutShort.problems[0]).toMatchObject({ line: 10, message: expect.stringMatching(/too short/) });
  });
});
