/**
 * The SPL adapter on a real DailyMed document (fixtures/registers/us-spl/real, SOURCE.md
 * there): its one product, values as the XML states them, the same outcome streamed and in
 * memory, a repeated document excluded as a duplicate, and bad input refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
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

  it('refuses an empty file, a file of another register and a document cut short', () => {
    expect(() => parseUsSpl([doc('cough.xml', Buffer.alloc(0))], { asOf })).toThrow(FileRejectedError);
    const ndc = readFileSync(new URL('../../fda-ndc/real/product_trimmed.txt', REAL));
    expect(() => parseUsSpl([doc('cough.xml', ndc)], { asOf })).toThrow(FileRejectedError);
    expect(() => parseUsSpl([doc('cough.xml', bytes.subarray(0, 20_000))], { asOf })).toThrow(FileRejectedError);
  });
});
