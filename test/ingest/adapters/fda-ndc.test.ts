import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFdaNdc, parsePharmClasses } from '../../../workers/ingest/adapters/fda-ndc.ts';
import { ndc11Of, ndcPackIdentifiers, packageLayoutOf } from '../../../workers/ingest/adapters/us-ndc.ts';
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';

const file = (name: string, as = name): InputFile => ({
  name: as,
  content: readFileSync(new URL(`../../fixtures/registers/fda-ndc/${name}`, import.meta.url)),
});
const asOf = new Date('2025-06-01T00:00:00Z');

describe('fda-ndc adapter', () => {
  const { snapshot, problems } = parseFdaNdc([file('product.txt'), file('package.txt')], { asOf });
  const product = (ndc: string) => snapshot.products?.find((p) => p.identifiers.some((i) => i.system === 'ndc' && i.code === ndc));

  it('keys products by PRODUCTID and stores the padded product NDC', () => {
    const ibuprofen = product('009045853');
    expect(ibuprofen?.key).toBe('0904-5853_7d1c0b3e-2f4a-4c1e-9a55-1b2f3c4d5e01');
    expect(ibuprofen).toMatchObject({
      country: 'US', product_name: 'Ibuprofen', brand: 'Ibuprofen', generic: true, dose_form: 'TABLET, FILM COATED',
      route: 'ORAL', holder: 'Major Pharmaceuticals', authorised_on: '2010-01-15', marketing_status: 'active',
    });
    expect(ibuprofen?.identifiers).toContainEqual({ system: 'national', code: 'ANDA075682' });
  });

  it('gives packages their printed NDC and the 11-digit 5-4-2 NDC', () => {
    const packs = product('009045853')?.packs ?? [];
    expect(packs.map((p) => p.key)).toEqual(['00904585361', '00904585340']);
    expect(packs[0]?.identifiers).toEqual([{ system: 'ndc', code: '0904585361' }, { system: 'ndc11', code: '00904585361' }]);
    expect(packs[0]).toMatchObject({ units: 100, unit: 'TABLET, FILM COATED' });
    expect(packs[1]).toMatchObject({ units: 50, unit: 'TABLET, FILM COATED' });
    expect(product('505800496')?.packs[0]?.key).toBe('50580049610');
  });

  it('keys substances provisionally by name, since the directory has no UNIIs', () => {
    const combo = product('116730010');
    expect(combo?.product_name).toBe('Migraine Relief Extra Strength');
    expect(combo?.generic).toBeUndefined();
    expect(combo?.ingredients).toEqual([
      { unii: 'name:ACETAMINOPHEN', strength_value: 250, strength_unit: 'mg/1' },
      { unii: 'name:ASPIRIN', strength_value: 250, strength_unit: 'mg/1' },
      { unii: 'name:CAFFEINE', strength_value: 65, strength_unit: 'mg/1' },
    ]);
    expect(snapshot.substances).toContainEqual(expect.objectContaining({ unii: 'name:ACETAMINOPHEN', name: 'ACETAMINOPHEN', provisional: true }));
  });

  it('turns PHARM_CLASSES into classes on the product and on a single substance', () => {
    expect(snapshot.classes).toContainEqual({ system: 'epc', code: 'name:NONSTEROIDAL ANTI-INFLAMMATORY DRUG', label: 'Nonsteroidal Anti-inflammatory Drug' });
    expect(snapshot.classes).toContainEqual({ system: 'cs', code: 'name:ANTI-INFLAMMATORY AGENTS, NON-STEROIDAL', label: 'Anti-Inflammatory Agents, Non-Steroidal' });
    expect(snapshot.classes).toContainEqual(expect.objectContaining({ system: 'pe', label: 'Central Nervous System Stimulation' }));
    const ibuprofen = snapshot.substances?.find((s) => s.unii === 'name:IBUPROFEN');
    expect(ibuprofen?.classes).toHaveLength(3);
    expect(snapshot.substances?.find((s) => s.unii === 'name:CAFFEINE')?.classes).toBeUndefined();
    expect(product('116730010')?.classes).toHaveLength(5);
  });

  it('marks products and packages whose marketing ended as withdrawn', () => {
    expect(product('505800496')?.marketing_status).toBe('withdrawn');
    expect(product('505800496')?.packs[0]?.marketing_status).toBe('withdrawn');
    expect(product('505800496')?.generic).toBe(false);
  });

  it('reports malformed product and package rows with their line numbers and skips them', () => {
    expect(problems).toEqual([
      { file: 'product.txt', line: 5, message: '2 substances but 1 strengths and 2 units' },
      { file: 'package.txt', line: 6, message: 'NDCPACKAGECODE "0904-58530-61" is not a 4-4-2, 5-3-2 or 5-4-1 NDC' },
      { file: 'package.txt', line: 7, message: expect.stringContaining('is not a product of product.txt') },
    ]);
    expect(product('123456789')).toBeUndefined();
    expect(snapshot.products).toHaveLength(3);
  });

  it('rejects a product file without the FDA header columns', () => {
    const bad = [file('product-bad-header.txt', 'product.txt'), file('package.txt')];
    expect(() => parseFdaNdc(bad, { asOf })).toThrow(FileRejectedError);
    expect(() => parseFdaNdc(bad, { asOf })).toThrow(/missing PRODUCTNDC, PRODUCTTYPENAME/);
  });

  it('rejects a call without package.txt', () => {
    expect(() => parseFdaNdc([file('product.txt')], { asOf })).toThrow(/needs product.txt and package.txt/);
  });
});

describe('fda-ndc adapter: unfinished drugs (bulk ingredients)', () => {
  const files = [file('unfinished_product.txt'), file('unfinished_package.txt')];
  const { snapshot, problems, files: reports } = parseFdaNdc(files, { asOf });
  const product = (ndc: string) => snapshot.products?.find((p) => p.identifiers.some((i) => i.system === 'ndc' && i.code === ndc));

  it('forms its own source, every record flagged unfinished with its marketing category', () => {
    expect(snapshot.source.id).toBe('fda-ndc-unfinished');
    expect(snapshot.products).toHaveLength(4);
    for (const p of snapshot.products ?? []) expect(p.attributes?.unfinished).toBe(true);
    expect(product('519271004')).toMatchObject({
      product_name: 'Ibuprofen', dose_form: 'POWDER', holder: 'Société Chimique Exemple', marketing_status: 'active',
      attributes: { unfinished: true, product_type: 'BULK INGREDIENT', marketing_category: 'BULK INGREDIENT' },
      ingredients: [{ unii: 'name:IBUPROFEN', strength_value: 1, strength_unit: 'kg/kg' }],
    });
    expect(product('519271004')?.brand).toBeUndefined();
    expect(product('519271004')?.route).toBeUndefined();
    expect(product('110140385')?.attributes).toMatchObject({ marketing_category: 'DRUG FOR FURTHER PROCESSING', dea_schedule: 'CIII' });
  });

  it('keeps a listing without strengths, ended listings withdrawn, and animal compounding as veterinary', () => {
    expect(product('001439521')).toMatchObject({ marketing_status: 'withdrawn', ingredients: [{ unii: 'name:ACETAMINOPHEN' }] });
    expect(product('001439521')?.packs[0]).toMatchObject({ key: '00143952101', marketing_status: 'withdrawn', description: '1 kg in 1 BOTTLE, PLASTIC (0143-9521-01)' });
    expect(product('632750995')?.veterinary).toBe(true);
  });

  it('normalises 5-4-1, 4-4-2, 5-3-2 and undashed 10-digit package codes (layout from the product NDC) to ndc11', () => {
    expect(product('519271004')?.packs.map((p) => p.key)).toEqual(['51927100401', '51927100402']);
    expect(product('519271004')?.packs[1]?.identifiers).toEqual([{ system: 'ndc', code: '5192710042' }, { system: 'ndc11', code: '51927100402' }]);
    expect(product('110140385')?.packs[0]).toMatchObject({ key: '11014038501', units: 6000, unit: 'CAPSULE' });
    expect(product('632750995')?.packs[0]?.key).toBe('63275099505');
  });

  it('reports malformed rows of the Windows-1252, CRLF files with their line numbers', () => {
    expect(problems).toEqual([
      { file: 'unfinished_product.txt', line: 6, message: 'PRODUCTNDC "ABC" is not a labeler-product NDC' },
      { file: 'unfinished_package.txt', line: 7, message: expect.stringContaining('is not a product of unfinished_product.txt') },
    ]);
    expect(reports).toEqual([
      { file: 'unfinished_product.txt', role: 'unfinished product', read: 5, kept: 4, malformed: 1 },
      { file: 'unfinished_package.txt', role: 'unfinished package', read: 6, kept: 5, malformed: 1 },
    ]);
  });

  it('recognises the layouts by header whatever the files are called', () => {
    const renamed = parseFdaNdc([file('unfinished_product.txt', 'bulk-products.txt'), file('unfinished_package.txt', 'bulk-unfinished-packages.txt')], { asOf });
    expect(renamed.snapshot.source.id).toBe('fda-ndc-unfinished');
    expect(renamed.files?.map((f) => f.role)).toEqual(['unfinished product', 'unfinished package']);
    expect(parseFdaNdc([file('product.txt', 'a.txt'), file('package.txt', 'b.txt')], { asOf }).files?.map((f) => f.role)).toEqual(['product', 'package']);
  });

  it('refuses finished and unfinished files mixed in one call, and a header of neither layout', () => {
    expect(() => parseFdaNdc([file('product.txt'), file('unfinished_package.txt')], { asOf })).toThrow(/separate sources, ingest each pair on its own/);
    expect(() => parseFdaNdc([...files, file('product.txt')], { asOf })).toThrow(FileRejectedError);
    expect(() => parseFdaNdc([file('unfinished_product.txt'), file('package-bad-header.txt')], { asOf }))
      .toThrow(/package-bad-header.txt: header matches neither .* missing PRODUCTNDC, NDCPACKAGECODE, PACKAGEDESCRIPTION/);
  });
});

describe('NDC layouts', () => {
  it('normalise 4-4-2, 5-3-2, 5-4-1, 5-4-2 and 11 digits to one 11-digit form', () => {
    expect(ndc11Of('0904-5853-61')).toBe('00904585361');
    expect(ndc11Of('11673-010-24')).toBe('11673001024');
    expect(ndc11Of('50580-0496-1')).toBe('50580049601');
    expect(ndc11Of('50580-0496-10')).toBe('50580049610');
    expect(ndc11Of('00904585361')).toBe('00904585361');
    expect(ndc11Of('0904-58530-61')).toBeNull();
  });

  it('split undashed 10 digits only when the layout is known', () => {
    expect(ndc11Of('0904585361', '4-4-2')).toBe('00904585361');
    expect(ndc11Of('1167301024', '5-3-2')).toBe('11673001024');
    expect(ndc11Of('5058004961', '5-4-1')).toBe('50580049601');
    expect(ndc11Of('0904585361')).toBeNull();
    expect(packageLayoutOf('0904-5853')).toBe('4-4-2');
    expect(packageLayoutOf('11673-010')).toBe('5-3-2');
    expect(packageLayoutOf('50580-0496')).toBe('5-4-1');
    expect(packageLayoutOf('505800496')).toBeNull();
  });

  it('agree with the lookup normaliser, and keep the printed 10 digits beside ndc11', () => {
    for (const printed of ['0904-5853-61', '11673-010-24', '50580-0496-1', '00904585361']) {
      expect(normaliseIdentifier('ndc11', printed)).toBe(ndc11Of(printed));
    }
    expect(ndcPackIdentifiers('50580-0496-1', '50580049601')).toEqual([{ system: 'ndc', code: '5058004961' }, { system: 'ndc11', code: '50580049601' }]);
    expect(ndcPackIdentifiers('50580049601', '50580049601')).toEqual([{ system: 'ndc11', code: '50580049601' }]);
  });
});

describe('parsePharmClasses', () => {
  it('reads the four axes and the old Chemical/Ingredient tag', () => {
    expect(parsePharmClasses('Opioid Agonist [EPC], Opioid Agonists [MoA], Opium Alkaloids [Chemical/Ingredient]').map((c) => c.system))
      .toEqual(['epc', 'moa', 'cs']);
    expect(parsePharmClasses('')).toEqual([]);
  });
});
