import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { forEachArrayElement } from '../../../workers/ingest/adapters/json-stream.ts';
import { parseOpenFdaNdc } from '../../../workers/ingest/adapters/us-openfda-ndc.ts';

const file = (name: string): InputFile => ({
  name, content: readFileSync(new URL(`../../fixtures/registers/us-openfda-ndc/${name}`, import.meta.url)),
});
const asOf = new Date('2025-06-01T00:00:00Z');

describe('us-openfda-ndc adapter', () => {
  const { snapshot, problems, files } = parseOpenFdaNdc([file('drug-ndc-0001-of-0001.json')], { asOf });
  const product = (ndc: string) => snapshot.products?.find((p) => p.identifiers.some((i) => i.system === 'ndc' && i.code === ndc));

  it('reads each results record into a product keyed like the directory, with RxCUIs and the application number', () => {
    expect(snapshot.source.id).toBe('us-openfda-ndc');
    const ibuprofen = product('009045853');
    expect(ibuprofen).toMatchObject({
      key: '0904-5853_7d1c0b3e-2f4a-4c1e-9a55-1b2f3c4d5e01', country: 'US', product_name: 'Ibuprofen', brand: 'Ibuprofen', generic: true,
      dose_form: 'TABLET, FILM COATED', route: 'ORAL', holder: 'Major Pharmaceuticals', authorised_on: '2010-01-15', marketing_status: 'active',
      attributes: { product_type: 'HUMAN OTC DRUG', marketing_category: 'ANDA', spl_set_id: '3a7d5e1c-9b2f-4c8e-a1d6-7f0e2b4c6d81' },
    });
    expect(ibuprofen?.identifiers).toEqual(expect.arrayContaining([{ system: 'national', code: 'ANDA075682' }, { system: 'rxcui', code: '310965' }]));
    expect(product('505800496')?.identifiers.filter((i) => i.system === 'rxcui').map((i) => i.code)).toEqual(['198440', '209387']);
    expect(product('116730010')).toMatchObject({ product_name: 'Migraine Relief Extra Strength', holder: 'Target Corporation' });
    expect(product('505800496')).toMatchObject({ holder: 'Laboratoires Exemple Santé', marketing_status: 'withdrawn', generic: false });
  });

  it('keys packages by ndc11 and counts units on the last level of " / " nested descriptions', () => {
    const packs = product('009045853')?.packs ?? [];
    expect(packs.map((p) => p.key)).toEqual(['00904585361', '00904585340']);
    expect(packs[0]?.identifiers).toEqual([{ system: 'ndc', code: '0904585361' }, { system: 'ndc11', code: '00904585361' }]);
    expect(packs[1]).toMatchObject({ units: 50, unit: 'TABLET, FILM COATED' });
    expect(product('505800496')?.packs[0]).toMatchObject({ key: '50580049610', marketing_status: 'withdrawn' });
    expect(product('110140385')?.packs[0]).toMatchObject({ key: '11014038501', units: 6000, unit: 'CAPSULE' });
  });

  it('keys a single-ingredient record by its verified UNII, with the strength as written', () => {
    expect(product('009045853')?.ingredients).toEqual([{ unii: 'WK2XYI10QM', strength_value: 200, strength_unit: 'mg/1', strength_text: '200 mg/1' }]);
    expect(snapshot.substances).toContainEqual(expect.objectContaining({ unii: 'WK2XYI10QM', name: 'IBUPROFEN' }));
  });

  it('pairs a combination\'s UNIIs only through names the file pairs elsewhere; the rest stay provisional', () => {
    expect(product('116730010')?.ingredients.map((i) => i.unii)).toEqual(['362O9ITL9D', 'R16CO5Y76E', 'name:CAFFEINE']);
    expect(snapshot.substances).toContainEqual(expect.objectContaining({ unii: 'name:CAFFEINE', provisional: true }));
  });

  it('ignores a UNII that fails its check character, keying the ingredient by name', () => {
    expect(product('009047788')?.ingredients[0]?.unii).toBe('name:IBUPROFEN');
    expect(problems).toContainEqual({ file: 'drug-ndc-0001-of-0001.json', line: 255, message: 'openfda.unii "WK2XYI10QA" fails its check character; ignored' });
  });

  it('turns the pharm_class lists into classes on the product and its single substance', () => {
    expect(snapshot.classes).toContainEqual({ system: 'epc', code: 'name:NONSTEROIDAL ANTI-INFLAMMATORY DRUG', label: 'Nonsteroidal Anti-inflammatory Drug' });
    expect(snapshot.classes).toContainEqual({ system: 'pe', code: 'name:CENTRAL NERVOUS SYSTEM STIMULATION', label: 'Central Nervous System Stimulation' });
    expect(product('009045853')?.classes).toHaveLength(3);
    expect(snapshot.substances?.find((s) => s.unii === 'WK2XYI10QM')?.classes).toHaveLength(3);
    expect(snapshot.substances?.find((s) => s.unii === '362O9ITL9D')?.classes).toBeUndefined();
  });

  it('flags unfinished records (finished: false) and keeps their DEA schedule', () => {
    expect(product('110140385')).toMatchObject({
      product_name: 'Testosterone Undecanoate', attributes: { unfinished: true, dea_schedule: 'CIII', marketing_category: 'DRUG FOR FURTHER PROCESSING' },
      ingredients: [{ unii: 'name:TESTOSTERONE UNDECANOATE', strength_value: 158 }],
    });
    expect(product('009045853')?.attributes?.unfinished).toBeUndefined();
  });

  it('reports a record that is not valid JSON and one with a bad product NDC by line, and counts the file', () => {
    expect(problems).toContainEqual({ file: 'drug-ndc-0001-of-0001.json', line: 250, message: expect.stringMatching(/^not valid JSON/) });
    expect(problems).toContainEqual({ file: 'drug-ndc-0001-of-0001.json', line: 288, message: 'product_ndc "12345678" is not a labeler-product NDC' });
    expect(problems).toHaveLength(3);
    expect(files).toEqual([{ file: 'drug-ndc-0001-of-0001.json', role: 'drug/ndc results', read: 8, kept: 6, malformed: 2 }]);
  });

  it('rejects a JSON document without a results array, and a truncated one', () => {
    expect(() => parseOpenFdaNdc([file('not-openfda.json')])).toThrow(/no "results" array/);
    expect(() => parseOpenFdaNdc([file('truncated.json')])).toThrow(FileRejectedError);
    expect(() => parseOpenFdaNdc([{ name: 'x.json', content: Buffer.from('[1, 2]') }])).toThrow(/expected a JSON object/);
  });
});

describe('forEachArrayElement', () => {
  it('hands over elements one by one with their lines, across strings holding brackets and escapes', () => {
    const seen: Array<[unknown, number]> = [];
    const json = '\ufeff{"a": {"x": "]}"}, "results": [\n {"s": "a \\" ] } ,"},\n 2,\n "t",\n null\n], "z": [1]}';
    const keys = forEachArrayElement('t.json', Buffer.from(json), 'results', { onElement: (v, l) => seen.push([v, l]), onMalformed: () => undefined });
    expect(keys).toEqual(['a', 'results', 'z']);
    expect(seen).toEqual([[{ s: 'a " ] } ,' }, 2], [2, 3], ['t', 4], [null, 5]]);
  });
});
