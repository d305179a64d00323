/**
 * The HPRA human medicines list read against two fixtures: the current layout (UTF-8,
 * repeated `ActiveSubstances` elements, PA/PPA/TR/EU licences, a withdrawn licence and three
 * records to refuse) and an older release (Windows-1252, CRLF, `PANumber`/`TradeName`/
 * `LicenceHolder` names, a wrapped substance list, day-first dates).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseIeHpra } from '../../../workers/ingest/adapters/ie-hpra.ts';

const file = (name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/ie-hpra/${name}`, import.meta.url)) });

describe('ie-hpra adapter', async () => {
  const { snapshot, problems, files } = await parseIeHpra([file('latestHMlist.xml')]);
  const product = (key: string) => snapshot.products!.find((p) => p.key === key)!;

  it('names its source and counts the records', () => {
    expect(snapshot.source).toMatchObject({ id: 'ie-hpra', country: 'IE', licence: expect.stringContaining('CC BY 4.0') });
    expect(files).toEqual([{ file: 'latestHMlist.xml', role: 'Human medicines list', read: 9, kept: 6, malformed: 2, excluded: { duplicate: 1 } }]);
    expect(snapshot.partial).toBe(true);
  });

  it('maps every field of a PA licence, with the strength unit in symbols and the text as written', () => {
    expect(product('PA0749/064/001')).toEqual({
      key: 'PA0749/064/001', country: 'IE', product_name: 'Metformin Teva 500 mg Film-coated Tablets',
      identifiers: [{ system: 'ie_pa_number', code: 'PA0749/064/001' }],
      ingredients: [{ unii: 'name:METFORMIN HYDROCHLORIDE', strength_value: 500, strength_unit: 'mg', strength_text: '500 milligram(s)' }],
      packs: [], atc_code: 'A10BA02', dose_form: 'Film-coated tablet', route: 'Oral use', holder: 'Teva Pharma B.V.',
      authorised_on: '2008-10-10', authorisation_status: 'authorised', marketing_status: 'active',
      dispensing_category: 'Product subject to prescription which may be renewed (B)', attributes: { marketing_status: 'Marketed' },
    });
    expect(snapshot.substances).toContainEqual({ unii: 'name:METFORMIN HYDROCHLORIDE', name: 'Metformin hydrochloride', names: { en: 'Metformin hydrochloride' }, provisional: true });
  });

  it('reads repeated substance elements once each, with their own strengths, and a spaced PA number', () => {
    expect(product('PA1077/033/003').ingredients).toEqual([
      { unii: 'name:AMOXICILLIN TRIHYDRATE', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' },
      { unii: 'name:POTASSIUM CLAVULANATE', strength_value: 125, strength_unit: 'mg', strength_text: '125 mg' },
    ]);
  });

  it('reads parallel imports, herbal registrations without ATC, EU licences and withdrawn licences', () => {
    expect(product('PPA1463/045/001')).toMatchObject({ marketing_status: 'withdrawn', attributes: { parallel_import: true, marketing_status: 'Not marketed' } });
    const herbal = product('TR0456/001/001');
    expect(herbal).toMatchObject({ identifiers: [{ system: 'ie_pa_number', code: 'TR0456/001/001' }], ingredients: [{ unii: 'name:VALERIAN ROOT DRY EXTRACT' }] });
    expect(herbal.atc_code).toBeUndefined();
    expect(product('EU/1/00/134/033')).toMatchObject({
      identifiers: [{ system: 'eu_number', code: 'EU/1/00/134/033' }, { system: 'eu_number', code: 'EU/1/00/134' }],
      ingredients: [{ strength_value: 100, strength_unit: 'U/ml' }],
    });
    expect(product('PA0999/001/001')).toMatchObject({ authorisation_status: 'withdrawn', marketing_status: 'withdrawn' });
  });

  it('reports unusable records with file and line; a repeated licence is excluded as a duplicate, not malformed', () => {
    expect(problems).toEqual([
      { file: 'latestHMlist.xml', line: 85, message: 'licence number "X12345" is not a PA, PPA, TR, HOR or EU number' },
      { file: 'latestHMlist.xml', line: 89, message: 'PA0999/002/001: authorisation date "2015-13-45T00:00:00" is not a date' },
    ]);
  });

  it('reads an older release: Windows-1252, other element names, a wrapped substance list', async () => {
    const older = await parseIeHpra([file('latestHMlist-2019.xml')]);
    expect(older.problems).toEqual([]);
    expect(older.snapshot.products).toEqual([
      expect.objectContaining({
        key: 'PA0126/173/002', product_name: 'Ibuprofen Clonmel 400 mg Film-coated Tablets', holder: 'Clonmel Healthcare Ltd',
        dose_form: 'Film-coated tablet', atc_code: 'M01AE01', authorised_on: '2003-05-12',
        dispensing_category: 'Product subject to medical prescription which may not be renewed (A)',
        ingredients: [{ unii: 'name:IBUPROFEN', strength_value: 400, strength_unit: 'mg', strength_text: '400 mg' }],
      }),
      expect.objectContaining({ product_name: 'Crème Example 1% w/w Cream', ingredients: [expect.objectContaining({ strength_value: 1, strength_unit: '%w/w' })] }),
    ]);
  });

  it('refuses another XML document, a list without usable records, and broken XML', async () => {
    await expect(parseIeHpra([file('wrong-root.xml')])).rejects.toThrow(/no usable <Product> records under <Vouchers>/);
    await expect(parseIeHpra([{ name: 'latestHMlist.xml', content: Buffer.from('<Products><Product><LicenceNumber>PA1/1/1</Product></Products>') }])).rejects.toThrow(FileRejectedError);
    await expect(parseIeHpra([{ name: 'latestHMlist.xml', content: Buffer.from('<Products><Product><LicenceNumber>X</LicenceNumber><ProductName>x</ProductName></Product></Products>') }])).rejects.toThrow(/no usable <Product>/);
  });
});
