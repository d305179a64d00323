/**
 * The SPL adapter on a real DailyMed document (fixtures/registers/us-spl/real, SOURCE.md
 * there): its one product, values as the XML states them, the same outcome streamed and in
 * memory, a repeated document excluded as a duplicate, and bad input refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { parseUsSpl } from '../../../workers/ingest/adapters/us-spl.ts';
import { openUsSpl } from '../../../workers/ingest/adapters/us-spl-open.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import { collectStreamed } from '../../helpers/streamed.ts';

const REAL = new URL('../../fixtures/registers/us-spl/real/', import.meta.url);
const bytes = readFileSync(new URL('cough.xml', REAL));
const doc = (name = 'cough.xml', content = bytes) => ({ name, content });
const asOf = new Date('2026-01-01T00:00:00Z');

describe('us-spl on a real DailyMed SPL document', () => {
  const result = parseUsSpl([doc()], { asOf });

  it('keeps its one manufacturedProduct with the values the XML states', () => {
    expect(result.files).toEqual([{ file: 'cough.xml', role: 'SPL document', read: 1, kept: 1, malformed: 0 }]);
    expect(result.problems).toEqual([]);
    const [product] = result.snapshot.products!;
    expect(product).toMatchObject({
      key: '0067-6344', product_name: 'TRIAMINIC', dose_form: 'SYRUP', route: 'ORAL', holder: 'Novartis Consumer Health, Inc.',
      authorised_on: '2008-09-26', marketing_status: 'active',
      identifiers: [{ system: 'ndc', code: '000676344' }, { system: 'national', code: 'PART341' }],
      ingredients: [
        { unii: 'TC2D6JAD40', strength_value: 6.25, strength_unit: 'mg/5mL' },
        { unii: '04JA59TNSJ', strength_value: 2.5, strength_unit: 'mg/5mL' },
      ],
      attributes: { document_type: 'HUMAN OTC DRUG LABEL', spl_set_id: '00f66f25-3469-4c16-9baf-fba21e9628bd', marketing_category: 'OTC MONOGRAPH FINAL' },
    });
    expect(product!.packs.map((p) => [p.key, p.units, p.unit, p.description])).toEqual([
      ['00067634404', 118, 'mL', '1 BOTTLE in 1 CARTON > 118 mL in 1 BOTTLE'],
      ['00067634408', 236, 'mL', '1 BOTTLE in 1 CARTON > 236 mL in 1 BOTTLE'],
    ]);
    expect(result.snapshot.substances).toContainEqual({ unii: 'TC2D6JAD40', name: 'DIPHENHYDRAMINE HYDROCHLORIDE', moiety_unii: '8GTS82S83M' });
  });

  it('excludes the product of a second copy of the document as a duplicate, streamed and in memory alike', async () => {
    const twice = [doc(), doc('cough_2011-04-26.xml')];
    const parsed = parseUsSpl(twice, { asOf });
    expect(parsed.files).toEqual([
      { file: 'cough.xml', role: 'SPL document', read: 1, kept: 1, malformed: 0 },
      { file: 'cough_2011-04-26.xml', role: 'SPL document', read: 1, kept: 0, malformed: 0, excluded: { duplicate: 1 } },
    ]);
    expect(parsed.files!.every(balanced)).toBe(true);
    expect(await collectStreamed(await openUsSpl(twice, { asOf }))).toEqual(parsed);
  });

  it('takes an unpacked SPL zip whole: the label pictures beside the document are named unused, streamed and in memory alike', async () => {
    // A DailyMed SPL zip holds the document and the label's pictures; a JPEG starts FF D8 FF.
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(200, 0x5a)]);
    const note = 'an image of the label (DailyMed ships the pictures beside the SPL document)';
    const parsed = parseUsSpl([doc('triaminic-01.jpg', jpeg), doc(), doc('triaminic-02.jpg', jpeg)], { asOf });
    expect(parsed.files).toEqual([
      { file: 'triaminic-01.jpg', role: 'unused', read: 0, kept: 0, malformed: 0, note },
      { file: 'cough.xml', role: 'SPL document', read: 1, kept: 1, malformed: 0 },
      { file: 'triaminic-02.jpg', role: 'unused', read: 0, kept: 0, malformed: 0, note },
    ]);
    expect(parsed.snapshot.products!.map((p) => p.key)).toEqual(['0067-6344']);
    const dir = mkdtempSync(join(tmpdir(), 'spl-zip-'));
    try {
      writeFileSync(join(dir, 'triaminic-01.jpg'), jpeg);
      writeFileSync(join(dir, 'cough.xml'), bytes);
      writeFileSync(join(dir, 'triaminic-02.jpg'), jpeg);
      const onDisk = ['triaminic-01.jpg', 'cough.xml', 'triaminic-02.jpg'].map((n) => fileInput(join(dir, n), n));
      expect(await collectStreamed(await openUsSpl(onDisk, { asOf }))).toEqual(parsed);
      // Pictures alone are no release: refused, naming the first.
      await expect(openUsSpl([onDisk[0]!], { asOf })).rejects.toThrow(/triaminic-01\.jpg: an image of the label/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty file, a file of another register and a document cut short', () => {
    expect(() => parseUsSpl([doc('cough.xml', Buffer.alloc(0))], { asOf })).toThrow(FileRejectedError);
    const ndc = readFileSync(new URL('../../fda-ndc/real/product_trimmed.txt', REAL));
    expect(() => parseUsSpl([doc('cough.xml', ndc)], { asOf })).toThrow(FileRejectedError);
    expect(() => parseUsSpl([doc('cough.xml', bytes.subarray(0, 20_000))], { asOf })).toThrow(FileRejectedError);
  });
});
