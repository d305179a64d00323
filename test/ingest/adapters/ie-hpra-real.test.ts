/**
 * The ie-hpra adapter on excerpts of the HPRA's real lists (test/fixtures/registers/ie-hpra/real,
 * see SOURCE.md there): twelve records of `latestHumanlist.xml` and eight of
 * `withdrawnHumanlist.xml`, under today's names. Counts and values are checked against the
 * bytes of those files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIeHpra } from '../../../workers/ingest/adapters/ie-hpra.ts';

const REAL = new URL('../../fixtures/registers/ie-hpra/real/', import.meta.url);
const file = (name: string) => ({ name, content: readFileSync(new URL(name, REAL)) });

describe('ie-hpra adapter on the real lists', async () => {
  const { snapshot, problems, files } = await parseIeHpra([file('withdrawnHumanlist.xml'), file('latestHumanlist.xml')]);
  const product = (key: string) => snapshot.products!.find((p) => p.key === key)!;

  it('takes both lists under today\'s names, told apart by content, and counts every record', () => {
    expect(files).toEqual([
      { file: 'withdrawnHumanlist.xml', role: 'Withdrawn human medicines list', read: 8, kept: 8, malformed: 0 },
      { file: 'latestHumanlist.xml', role: 'Human medicines list', read: 12, kept: 12, malformed: 0 },
    ]);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(20);
    // Both lists state the whole register: not partial.
    expect(snapshot.partial).toBeUndefined();
  });

  it('reads the level-5 ATC code of <ATCs>, and none where the list gives only a group', () => {
    expect(product('PA1968/018/001').atc_code).toBe('B05BB01');
    expect(product('EU/1/20/1422/016-017').atc_code).toBe('A10AB04');
    expect(product('PA0179/002/013').atc_code).toBeUndefined(); // <ATC>V07AB</ATC> only
    expect(product('EU/1/21/1539/001').atc_code).toBeUndefined(); // <ATC>L01</ATC> only
  });

  it('makes an EU range findable by each pack number and the product number', () => {
    expect(product('EU/1/20/1422/016-017')).toMatchObject({
      product_name: '100 units/mL Tempo Pen solution for injection in pre-filled pen', holder: 'Eli Lilly Nederland B.V.',
      authorised_on: '2022-04-25', authorisation_status: 'authorised', dose_form: 'Solution for injection in pre-filled pen',
      route: 'Intravenous use;Subcutaneous use', ingredients: [{ unii: 'name:INSULIN LISPRO' }],
      identifiers: [
        { system: 'eu_number', code: 'EU/1/20/1422/016' }, { system: 'eu_number', code: 'EU/1/20/1422/017' }, { system: 'eu_number', code: 'EU/1/20/1422' },
      ],
      dispensing_category: 'Product subject to prescription which may be renewed (B)',
    });
  });

  it('reads PA numbers with a five-digit holder, TR registrations and nil elements', () => {
    expect(product('PA23266/056/001')).toMatchObject({
      identifiers: [{ system: 'ie_pa_number', code: 'PA23266/056/001' }], holder: 'Viatris Limited', marketing_status: 'active',
      ingredients: [{ unii: 'name:ABACAVIR SULFATE' }, { unii: 'name:LAMIVUDINE' }], attributes: expect.objectContaining({ marketing_status: 'Marketed' }),
    });
    expect(product('TR2309/021/001')).toMatchObject({
      product_name: 'A.Vogel Uva-ursi & Echinacea Cystitis oral drops', identifiers: [{ system: 'ie_pa_number', code: 'TR2309/021/001' }], ingredients: [],
    });
    expect(product('EU/1/04/276/033-035').authorised_on).toBeUndefined(); // <AuthorisedDate xsi:nil="true" />
  });

  it('reads withdrawn licences with their withdrawal date, letter suffixes kept', () => {
    expect(product('PA0167/051/005A')).toMatchObject({
      product_name: '0.15% w/v Potassium Chloride and 5.0% w/v Glucose Intravenous Infusion BP', holder: 'Baxter Healthcare Limited',
      identifiers: [{ system: 'ie_pa_number', code: 'PA0167/051/005A' }], authorised_on: '1983-04-01',
      authorisation_status: 'withdrawn', marketing_status: 'withdrawn', attributes: { marketing_status: 'Marketed', withdrawn_on: '2012-10-18' },
    });
    // `*** AWAITING VALUE ***` is the list's placeholder, not a dispensing status.
    expect(product('PA0167/005/002').dispensing_category).toBeUndefined();
    expect(product('PA0237/019/001')).toMatchObject({ product_name: 'CO TRIMOXAZOLE', attributes: { withdrawn_on: '1998-01-20' } });
  });

  it('reads one list alone as a partial document, under any name', async () => {
    const alone = await parseIeHpra([{ name: 'hpra-2026-06-26.xml', content: file('withdrawnHumanlist.xml').content }]);
    expect(alone.snapshot.partial).toBe(true);
    expect(alone.files).toEqual([{ file: 'hpra-2026-06-26.xml', role: 'Withdrawn human medicines list', read: 8, kept: 8, malformed: 0 }]);
  });

  it('refuses, writing nothing: a truncated list, an empty file, another register\'s file', async () => {
    const cut = { name: 'latestHumanlist.xml', content: file('latestHumanlist.xml').content.subarray(0, 6000) };
    await expect(parseIeHpra([cut])).rejects.toThrow(/latestHumanlist\.xml/);
    await expect(parseIeHpra([{ name: 'latestHumanlist.xml', content: Buffer.alloc(0) }])).rejects.toThrow(/not an HPRA human medicines list/);
    const sam = { name: 'latestHumanlist.xml', content: readFileSync(new URL('../../fixtures/registers/be-sam/real/findamp-cnk-response.xml', import.meta.url)) };
    await expect(parseIeHpra([sam])).rejects.toThrow(/not an HPRA human medicines list/);
  });
});
