/**
 * The UNII adapter on real rows of the GSRS Names list (fixtures/registers/us-unii/real,
 * SOURCE.md there): the layout is recognised by its header whatever the file is called, every
 * row has one outcome, values are the source's bytes, and bad input is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseUsUnii } from '../../../workers/ingest/adapters/us-unii.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = new URL('../../fixtures/registers/us-unii/real/', import.meta.url);
const bytes = readFileSync(new URL('unii.csv', REAL));

describe('us-unii on real UNII Names rows', () => {
  it('reads the Names layout from its header under any name, dated or not', () => {
    for (const name of ['unii.csv', 'UNII_Names_20Nov2026.txt']) {
      const { files, problems } = parseUsUnii([{ name, content: bytes }]);
      expect(files).toEqual([{ file: name, role: 'UNII names', read: 2, kept: 2, malformed: 0 }]);
      expect(files!.every(balanced)).toBe(true);
      expect(problems).toEqual([]);
    }
  });

  it('keys each substance by its UNII with the display name as the file prints it', () => {
    const { snapshot } = parseUsUnii([{ name: 'unii.csv', content: bytes }]);
    expect(snapshot.substances).toEqual([
      { unii: '53KMP01VA9', name: '(((2-HYDROXYETHYL)IMINO)DIMETHYLENE)DIPHOSPHONIC ACID' },
      { unii: 'QTW553V7UO', name: '((1,1-DIMETHYLETHYL)DIOXY)METHANOL' },
    ]);
  });

  it('names a member of the download it does not read, and refuses a release of none', () => {
    const readme = { name: 'readme.txt', content: Buffer.from('UNII Data\nThis archive holds the UNII lists.\n') };
    const { files } = parseUsUnii([{ name: 'unii.csv', content: bytes }, readme]);
    expect(files?.[1]).toMatchObject({ file: 'readme.txt', role: 'unused', read: 0, kept: 0, malformed: 0 });
    expect(() => parseUsUnii([readme])).toThrow(/neither the UNII Records layout/);
  });

  it('refuses an empty file and a file of another register; a row cut short is malformed with its line', () => {
    expect(() => parseUsUnii([{ name: 'unii.csv', content: Buffer.alloc(0) }])).toThrow(FileRejectedError);
    const ndc = readFileSync(new URL('../../fda-ndc/real/product_trimmed.txt', REAL));
    expect(() => parseUsUnii([{ name: 'UNII_Names.txt', content: ndc }])).toThrow(/neither the UNII Records layout/);
    const cut = parseUsUnii([{ name: 'unii.csv', content: bytes.subarray(0, bytes.length - 40) }]);
    expect(cut.files).toEqual([{ file: 'unii.csv', role: 'UNII names', read: 2, kept: 1, malformed: 1 }]);
    expect(cut.problems).toEqual([{ file: 'unii.csv', line: 3, message: 'wrong number of tab-separated fields' }]);
  });
});
