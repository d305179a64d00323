/**
 * The FDA NDC adapter on real directory files: the trimmed `product.txt` / `package.txt` and
 * unfinished pair that openFDA's own importer tests on (fixtures/registers/fda-ndc/real,
 * SOURCE.md there). Every row has one outcome, values are the bytes of the source, the streamed
 * read reports what the in-memory one does, and bad input is refused whole.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFdaNdc } from '../../../workers/ingest/adapters/fda-ndc.ts';
import { openFdaNdc } from '../../../workers/ingest/adapters/fda-ndc-stream.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = new URL('../../fixtures/registers/fda-ndc/real/', import.meta.url);
const real = (name: string, as = name): InputFile => ({ name: as, content: readFileSync(new URL(name, REAL)) });
const asOf = new Date('2019-01-01T00:00:00Z');

describe('fda-ndc on the real directory excerpt (finished drugs)', () => {
  const files = [real('product_trimmed.txt'), real('package_trimmed.txt')];
  const { snapshot, problems, files: reports } = parseFdaNdc(files, { asOf });
  const product = (id: string) => snapshot.products?.find((p) => p.key === id);

  it('gives every row one outcome: the product whose lists disagree and its two packages are malformed', () => {
    expect(reports).toEqual([
      { file: 'product_trimmed.txt', role: 'product', read: 3, kept: 2, malformed: 1 },
      { file: 'package_trimmed.txt', role: 'package', read: 3, kept: 1, malformed: 2 },
    ]);
    expect(reports!.every(balanced)).toBe(true);
    // Line 3 (Amyvid) names 4 substances with 3 strengths and 2 units: no ingredient can be paired.
    expect(problems).toEqual([
      { file: 'product_trimmed.txt', line: 3, message: '4 substances but 3 strengths and 2 units' },
      { file: 'package_trimmed.txt', line: 3, message: expect.stringContaining('PRODUCTID 0002-1200_4bd46cbe-cdc1-4329-a8e7-22816bd7fc33 is not a product') },
      { file: 'package_trimmed.txt', line: 4, message: expect.stringContaining('PRODUCTID 0002-1200_4bd46cbe-cdc1-4329-a8e7-22816bd7fc33 is not a product') },
    ]);
  });

  it('reads the values as the file prints them', () => {
    // product_trimmed.txt line 2: 0002-0800 Sterile Diluent, WATER 1 mL/mL, NDA018781, 19870710.
    expect(product('0002-0800_ab2a5006-1880-4b6c-9640-dc2ec1066449')).toMatchObject({
      product_name: 'Sterile Diluent', dose_form: 'INJECTION, SOLUTION', route: 'SUBCUTANEOUS', holder: 'Eli Lilly and Company',
      authorised_on: '1987-07-10', generic: false, marketing_status: 'active',
      identifiers: [{ system: 'ndc', code: '000020800' }, { system: 'national', code: 'NDA018781' }],
      ingredients: [{ unii: 'name:WATER', strength_value: 1, strength_unit: 'mL/mL' }],
      attributes: { product_type: 'HUMAN OTC DRUG', marketing_category: 'NDA' },
    });
    // package_trimmed.txt line 2: 0002-0800-01, nested description, 10 mL at the last level.
    expect(product('0002-0800_ab2a5006-1880-4b6c-9640-dc2ec1066449')?.packs).toEqual([{
      key: '00002080001', description: '1 VIAL in 1 CARTON (0002-0800-01)  > 10 mL in 1 VIAL',
      identifiers: [{ system: 'ndc', code: '0002080001' }, { system: 'ndc11', code: '00002080001' }],
      marketing_status: 'active', units: 10, unit: 'mL',
    }]);
    // line 4: Quinidine Gluconate 80 mg/mL with three PHARM_CLASSES (two EPC, one MoA).
    expect(product('0002-1407_14757f9d-f641-4836-acf3-229265588d1d')).toMatchObject({
      ingredients: [{ unii: 'name:QUINIDINE GLUCONATE', strength_value: 80, strength_unit: 'mg/mL' }],
      classes: [{ system: 'epc', code: 'name:ANTIARRHYTHMIC' }, { system: 'epc', code: 'name:CYTOCHROME P450 2D6 INHIBITOR' }, { system: 'moa', code: 'name:CYTOCHROME P450 2D6 INHIBITORS' }],
    });
  });

  it('reports the same outcomes, problems and products when streamed', async () => {
    const streamed = await openFdaNdc(files, { asOf });
    expect(streamed.files).toEqual(reports);
    expect(streamed.problems).toEqual(problems);
    const keys: string[] = [];
    for await (const p of streamed.snapshot.products as AsyncIterable<{ key: string }>) keys.push(p.key);
    expect(keys).toEqual(snapshot.products!.map((p) => p.key));
  });
});

describe('fda-ndc on the real directory excerpt (unfinished drugs)', () => {
  const files = [real('unfinished_product_trimmed.txt'), real('unfinished_package_trimmed.txt')];
  const { snapshot, problems, files: reports } = parseFdaNdc(files, { asOf });

  it('keeps every row, recognising the unfinished layout by its header whatever the names', () => {
    expect(snapshot.source.id).toBe('fda-ndc-unfinished');
    expect(problems).toEqual([]);
    expect(reports).toEqual([
      { file: 'unfinished_product_trimmed.txt', role: 'unfinished product', read: 3, kept: 3, malformed: 0 },
      { file: 'unfinished_package_trimmed.txt', role: 'unfinished package', read: 3, kept: 3, malformed: 0 },
    ]);
  });

  it('reads a strength printed without its leading zero (Dulaglutide .75 mg/.5mL)', () => {
    const dulaglutide = snapshot.products?.find((p) => p.key === '0002-1401_70b2e81d-fb7e-48bb-b97d-7f2f26f18c41');
    expect(dulaglutide).toMatchObject({
      product_name: 'Dulaglutide', dose_form: 'INJECTION, SOLUTION', authorised_on: '2014-09-22',
      ingredients: [{ unii: 'name:DULAGLUTIDE', strength_value: 0.75, strength_unit: 'mg/.5mL' }],
      attributes: { unfinished: true, product_type: 'DRUG FOR FURTHER PROCESSING' },
    });
    const insulin = snapshot.products?.find((p) => p.key === '0002-0485_6d8a935c-fc7b-44c6-92d1-2337b959d1ce');
    expect(insulin?.packs.map((p) => [p.key, p.units, p.unit])).toEqual([['00002048504', 2000, 'g'], ['00002048518', 2000, 'g']]);
  });

  it('reports the same outcomes when streamed', async () => {
    const streamed = await openFdaNdc(files, { asOf });
    expect(streamed.files).toEqual(reports);
    expect(streamed.problems).toEqual([]);
  });
});

describe('fda-ndc refuses bad input built from the real files', () => {
  const bytes = readFileSync(new URL('product_trimmed.txt', REAL));
  const pack = real('package_trimmed.txt');

  it('refuses an empty file, a file of another register and a file cut inside its header', () => {
    expect(() => parseFdaNdc([{ name: 'product.txt', content: Buffer.alloc(0) }, pack], { asOf })).toThrow(FileRejectedError);
    const rrf = { name: 'product.txt', content: readFileSync(new URL('../../us-rxnorm/real/RXNCONSO.RRF', REAL)) };
    expect(() => parseFdaNdc([rrf, pack], { asOf })).toThrow(/header matches neither the NDC product nor the package layout/);
    expect(() => parseFdaNdc([{ name: 'product.txt', content: bytes.subarray(0, 60) }, pack], { asOf })).toThrow(FileRejectedError);
  });

  it('reports a file cut inside its last row as that row malformed, with its line', () => {
    const cut = { name: 'product.txt', content: bytes.subarray(0, bytes.length - 40) };
    const { problems, files } = parseFdaNdc([cut, pack], { asOf });
    expect(files![0]).toEqual({ file: 'product.txt', role: 'product', read: 3, kept: 1, malformed: 2 });
    expect(problems).toContainEqual({ file: 'product.txt', line: 4, message: 'wrong number of tab-separated fields' });
  });
});
