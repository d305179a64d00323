import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseUsSpl } from '../../../workers/ingest/adapters/us-spl.ts';

const file = (name: string): InputFile => ({
  name, content: readFileSync(new URL(`../../fixtures/registers/us-spl/${name}`, import.meta.url)),
});
const asOf = new Date('2025-06-01T00:00:00Z');

describe('us-spl adapter', () => {
  const { snapshot, problems, files } = parseUsSpl([file('metformin-spl.xml'), file('older-spl.xml')], { asOf });
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('keys products by product NDC with name, form, route, labeler, approval and marketing start', () => {
    expect(snapshot.source.id).toBe('us-spl');
    expect(product('65162-175')).toMatchObject({
      country: 'US', product_name: 'Metformin Hydrochloride', dose_form: 'TABLET', route: 'ORAL', holder: 'Amneal Pharmaceuticals LLC',
      generic: true, authorised_on: '2008-01-01', marketing_status: 'active',
      identifiers: [{ system: 'ndc', code: '651620175' }, { system: 'national', code: 'ANDA076172' }],
      attributes: { marketing_category: 'ANDA', spl_set_id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', document_type: 'HUMAN PRESCRIPTION DRUG LABEL' },
    });
    expect(product('65162-175')?.brand).toBeUndefined();
    expect(product('0121-4775')).toMatchObject({ product_name: 'Riomet®', brand: 'Riomet®', generic: false, marketing_status: 'withdrawn' });
  });

  it('keeps active ingredients by UNII with strength and moiety; inactive ones are dropped', () => {
    expect(product('65162-175')?.ingredients).toEqual([{ unii: '786Z46389E', strength_value: 500, strength_unit: 'mg/1', strength_text: '500 mg/1' }]);
    expect(product('0121-4775')?.ingredients[0]).toMatchObject({ unii: '786Z46389E', strength_value: 500, strength_unit: 'mg/5mL' });
    expect(snapshot.substances).toContainEqual({ unii: '786Z46389E', name: 'METFORMIN HYDROCHLORIDE', moiety_unii: '9100L32L2N' });
    expect(snapshot.substances).toContainEqual({ unii: '9100L32L2N', name: 'METFORMIN' });
    expect(snapshot.substances?.some((s) => s.name === 'POVIDONE K30')).toBe(false);
  });

  it('makes a pack per package NDC, nested containers outer first, undashed codes split by the product layout', () => {
    expect(product('65162-175')?.packs).toEqual([
      expect.objectContaining({ key: '65162017510', description: '100 TABLET in 1 BOTTLE', units: 100, unit: 'TABLET', marketing_status: 'active' }),
      expect.objectContaining({ key: '65162017550', description: '500 TABLET in 1 BOTTLE', identifiers: [{ system: 'ndc', code: '6516217550' }, { system: 'ndc11', code: '65162017550' }] }),
    ]);
    expect(product('0121-4775')?.packs.map((p) => [p.key, p.description, p.marketing_status])).toEqual([
      ['00121477504', '118 mL in 1 BOTTLE', 'withdrawn'],
      ['00121477540', '1 BOTTLE in 1 CARTON > 118 mL in 1 BOTTLE', 'withdrawn'],
    ]);
  });

  it('reads the older manufacturedMedicine / activeIngredient / containerPackagedMedicine spelling', () => {
    expect(product('0536-3086')).toMatchObject({
      product_name: 'Low Dose Aspirin', holder: 'Rugby Laboratories', ingredients: [{ unii: 'R16CO5Y76E', strength_value: 81 }],
      packs: [{ key: '00536308641', units: 120, unit: 'TABLET, DELAYED RELEASE' }],
    });
  });

  it('reports a bad UNII (kept by name) and a bad product NDC (skipped) with their lines', () => {
    expect(problems).toEqual([
      { file: 'metformin-spl.xml', line: 106, message: 'ingredient EXAMPLE FLAVOUR BASE has code "ZZZZZZZZZA", not a valid UNII; keyed by name' },
      { file: 'metformin-spl.xml', line: 179, message: 'product code "ABC" is not a labeler-product NDC' },
    ]);
    expect(product('0121-4775')?.ingredients[1]?.unii).toBe('name:EXAMPLE FLAVOUR BASE');
    expect(files).toEqual([
      { file: 'metformin-spl.xml', role: 'SPL document', read: 3, kept: 2, malformed: 1 },
      { file: 'older-spl.xml', role: 'SPL document', read: 1, kept: 1, malformed: 0 },
    ]);
  });

  it('rejects a document outside the HL7 v3 namespace and XML that is not well-formed', () => {
    expect(() => parseUsSpl([file('not-spl.xml')])).toThrow(/not an HL7 v3 SPL document/);
    expect(() => parseUsSpl([file('broken.xml')])).toThrow(FileRejectedError);
  });
});
