import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseUsUnii } from '../../../workers/ingest/adapters/us-unii.ts';

const file = (name: string): InputFile => ({
  name, content: readFileSync(new URL(`../../fixtures/registers/us-unii/${name}`, import.meta.url)),
});

describe('us-unii adapter', () => {
  const { snapshot, problems, files } = parseUsUnii([file('UNII_Records_20Nov2026.txt'), file('UNII_Names_20Nov2026.txt'), file('UNII_Records_legacy.txt')]);
  const substance = (unii: string) => snapshot.substances?.find((s) => s.unii === unii);

  it('produces substances only, keyed by verified UNIIs with the display name and the records\' facts', () => {
    expect(snapshot.source).toMatchObject({ id: 'us-unii', country: null });
    expect(snapshot.products).toBeUndefined();
    expect(substance('WK2XYI10QM')).toMatchObject({
      name: 'IBUPROFEN', rxcui: '5640', formula: 'C13H18O2', inchikey: 'HEFNNWSXXWATRW-UHFFFAOYSA-N', smiles: 'CC(C)CC1=CC=C(C=C1)C(C)C(O)=O',
    });
    expect(substance('H4N855PNZ1')).toMatchObject({ name: '.ALPHA.-TOCOPHEROL, DL-', formula: 'C29H50O2' });
    expect(substance('H4N855PNZ1')?.rxcui).toBeUndefined();
    expect(substance('WK2XYI10QM')?.provisional).toBeUndefined();
  });

  it('keeps the INN, USAN, BAN, JAN and the INN\'s Latin, French and Spanish names, not codes, brands or systematic names', () => {
    expect(substance('WK2XYI10QM')?.names).toEqual({ inn: 'IBUPROFEN', usan: 'IBUPROFEN', jan: 'IBUPROFEN', la: 'IBUPROFENUM', fr: 'IBUPROFÈNE', es: 'IBUPROFENO' });
    // The last line of the names file is Windows-1252: read through the per-line fallback.
    expect(substance('362O9ITL9D')?.names).toEqual({ inn: 'PARACETAMOL', usan: 'ACETAMINOPHEN', ban: 'PARACETAMOL', fr: 'PARACÉTAMOL' });
  });

  it('links a salt to its active moiety where the export has the column (older PT header)', () => {
    expect(substance('786Z46389E')).toMatchObject({ name: 'METFORMIN HYDROCHLORIDE', moiety_unii: '9100L32L2N', names: { usan: 'METFORMIN HYDROCHLORIDE', jan: 'METFORMIN HYDROCHLORIDE' } });
    expect(substance('9100L32L2N')?.moiety_unii).toBeUndefined();
    expect(substance('9100L32L2N')?.names).toEqual({ usan: 'METFORMIN', inn: 'METFORMIN' });
  });

  it('reports a bad check character, a short row and a missing UNII with their lines (BOM and CRLF read)', () => {
    expect(problems).toEqual([
      { file: 'UNII_Records_20Nov2026.txt', line: 5, message: 'UNII "WK2XYI10QA" is not a valid UNII (check character)' },
      { file: 'UNII_Records_20Nov2026.txt', line: 6, message: 'wrong number of tab-separated fields' },
      { file: 'UNII_Names_20Nov2026.txt', line: 19, message: 'UNII "" is not a valid UNII (check character)' },
    ]);
    expect(files).toEqual([
      { file: 'UNII_Records_20Nov2026.txt', role: 'UNII records', read: 5, kept: 3, malformed: 2 },
      { file: 'UNII_Names_20Nov2026.txt', role: 'UNII names', read: 20, kept: 19, malformed: 1 },
      { file: 'UNII_Records_legacy.txt', role: 'UNII records', read: 2, kept: 2, malformed: 0 },
    ]);
  });

  it('rejects a file whose header is neither layout', () => {
    expect(() => parseUsUnii([file('bad-header.txt')])).toThrow(/neither the UNII Records layout/);
  });
});

describe('us-unii adapter: a Records row repeating a UNII', () => {
  it('keeps the first and excludes the repeat as a duplicate, not malformed', () => {
    const lines = file('UNII_Records_20Nov2026.txt').content.toString('utf8').split('\n');
    const content = Buffer.from([...lines.slice(0, 3), lines[1], ''].join('\n'));
    const { files, problems } = parseUsUnii([{ name: 'UNII_Records.txt', content }]);
    expect(problems).toEqual([]);
    expect(files).toEqual([{ file: 'UNII_Records.txt', role: 'UNII records', read: 3, kept: 2, malformed: 0, excluded: { duplicate: 1 } }]);
  });
});
