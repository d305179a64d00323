import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFdaNdc, parsePharmClasses } from '../../../workers/ingest/adapters/fda-ndc.ts';

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

describe('parsePharmClasses', () => {
  it('reads the four axes and the old Chemical/Ingredient tag', () => {
    expect(parsePharmClasses('Opioid Agonist [EPC], Opioid Agonists [MoA], Opium Alkaloids [Chemical/Ingredient]').map((c) => c.system))
      .toEqual(['epc', 'moa', 'cs']);
    expect(parsePharmClasses('')).toEqual([]);
  });
});
