import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseUsRxnorm } from '../../../workers/ingest/adapters/us-rxnorm.ts';

const file = (name: string, as = name): InputFile => ({
  name: as, content: readFileSync(new URL(`../../fixtures/registers/us-rxnorm/${name}`, import.meta.url)),
});

describe('us-rxnorm adapter', () => {
  // RXNSAT first: concepts are read first whatever the order.
  const { snapshot, problems, files } = parseUsRxnorm([file('RXNSAT.RRF'), file('RXNCONSO.RRF')]);
  const product = (rxcui: string) => snapshot.products?.find((p) => p.key === rxcui);
  const substance = (rxcui: string) => snapshot.substances?.find((s) => s.rxcui === rxcui);

  it('keys ingredients by their single valid MTHSPL UNII, else by name, with the RxCUI and RxNorm name', () => {
    expect(substance('5640')).toEqual({ unii: 'WK2XYI10QM', name: 'ibuprofen', names: { rxnorm: 'ibuprofen' }, rxcui: '5640' });
    expect(substance('1886')).toEqual({ unii: 'name:CAFFEINE', name: 'caffeine', names: { rxnorm: 'caffeine' }, rxcui: '1886', provisional: true });
    // The PIN's second UNII fails its check character, so one valid UNII remains.
    expect(substance('235743')?.unii).toBe('786Z46389E');
    expect(snapshot.substances).toHaveLength(4);
  });

  it('makes a product per SCD/SBD with NDCs, a pack per 11-digit NDC, the brand from the SBD name', () => {
    expect(snapshot.source).toMatchObject({ id: 'us-rxnorm', country: 'US' });
    expect(product('310965')).toMatchObject({
      country: 'US', product_name: 'ibuprofen 200 MG Oral Tablet', identifiers: [{ system: 'rxcui', code: '310965' }], attributes: { tty: 'SCD' },
    });
    expect(product('310965')?.packs).toEqual([
      { key: '00904585361', description: '00904-5853-61', identifiers: [{ system: 'ndc11', code: '00904585361' }] },
      { key: '00904585340', description: '00904-5853-40', identifiers: [{ system: 'ndc11', code: '00904585340' }] },
    ]);
    expect(product('153010')).toMatchObject({ brand: 'Advil', packs: [{ key: '00573015020' }] });
    expect(product('310965')?.brand).toBeUndefined();
    expect(product('198440')?.packs.map((p) => p.key)).toEqual(['50580049610']);
  });

  it('leaves out suppressed concepts, concepts without NDCs and other sources\' atoms and attributes', () => {
    expect(product('197806')).toBeUndefined();
    expect(product('860975')).toBeUndefined();
    expect(snapshot.products).toHaveLength(3);
  });

  it('reports malformed lines, bad UNIIs and NDCs and an NDC claimed twice, and counts each file', () => {
    expect(problems).toEqual([
      { file: 'RXNCONSO.RRF', line: 9, message: 'MTHSPL substance code "786Z46389A" is not a valid UNII' },
      { file: 'RXNCONSO.RRF', line: 15, message: '4 fields instead of 18' },
      { file: 'RXNSAT.RRF', line: 7, message: 'NDC 00904585361 is already attached to RXCUI 310965; not to 198440' },
      { file: 'RXNSAT.RRF', line: 8, message: 'NDC "0904585361" is not an 11-digit NDC' },
    ]);
    expect(files).toEqual([
      // RXNSAT: other attributes and sources out of scope, line 10 repeats line 1, line 9 is the NDC of a suppressed concept.
      { file: 'RXNSAT.RRF', role: 'RXNSAT', read: 10, kept: 4, malformed: 2, excluded: { out_of_scope: 2, duplicate: 1, no_drug_concept: 1 } },
      // RXNCONSO: the MMSL atom out of scope, the obsolete SCD suppressed, the ER metformin SCD without an NDC.
      { file: 'RXNCONSO.RRF', role: 'RXNCONSO', read: 15, kept: 10, malformed: 2, excluded: { out_of_scope: 1, suppressed: 1, no_ndc: 1 } },
    ]);
  });

  it('recognises renamed files by their field count, names other layouts unused and refuses a missing RXNCONSO', () => {
    const renamed = parseUsRxnorm([file('RXNCONSO.RRF', 'conso.txt'), file('RXNSAT.RRF', 'sat.txt')]);
    expect(renamed.files?.map((f) => f.role)).toEqual(['RXNCONSO', 'RXNSAT']);
    const withOther = parseUsRxnorm([file('RXNCONSO.RRF'), file('other.RRF')]);
    expect(withOther.files?.[1]).toEqual({ file: 'other.RRF', role: 'unused', read: 0, kept: 0, malformed: 0, note: expect.stringMatching(/not RXNCONSO \(18 fields\) nor RXNSAT/) });
    // A file named RXNCONSO.RRF is read by its content: another layout under that name is no RXNCONSO.
    expect(() => parseUsRxnorm([file('other.RRF', 'RXNCONSO.RRF')])).toThrow(/needs RXNCONSO.RRF/);
    expect(() => parseUsRxnorm([file('RXNSAT.RRF')])).toThrow(/needs RXNCONSO.RRF/);
  });
});
