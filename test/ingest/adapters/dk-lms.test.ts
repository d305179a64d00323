import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseDkLms } from '../../../workers/ingest/adapters/dk-lms.ts';
import { LMS09, decodeLms, readLms } from '../../../workers/ingest/adapters/dk-lms-layout.ts';
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';

const NAMES = ['lms01.txt', 'lms02.txt', 'lms03.txt', 'lms09.txt', 'lms30.txt'];
const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/dk-lms/${name}`, import.meta.url));
const all = () => NAMES.map((name) => ({ name, content: fixture(name) }));

describe('dk-lms adapter (Danish takst lms files)', async () => {
  const { snapshot, problems, files } = await parseDkLms(all());
  const product = (drugId: string) => snapshot.products!.find((p) => p.key === drugId)!;

  it('maps an lms01 drug: Drug ID, name with form and strength, ATC, route, holder from lms09, ingredient from lms30', () => {
    expect(product('28100636474')).toMatchObject({
      country: 'DK', product_name: 'Metformin "Actavis" filmovertrukne tabl. 500 mg', brand: 'Metformin "Actavis"',
      atc_code: 'A10BA02', dose_form: 'filmovertrukne tabl.', route: 'OR', holder: 'Actavis Group PTC ehf.', marketing_status: 'active',
      identifiers: [{ system: 'dk_drug_id', code: '28100636474' }],
      ingredients: [{ unii: 'name:METFORMINHYDROCHLORID', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      attributes: { varetype: 'SP', varedeltype: 'LM', form_code: 'FILMTAB', dose_dispensing: true, reimbursement_code: 'A' },
    });
    expect(snapshot.substances).toContainEqual({ unii: 'name:METFORMINHYDROCHLORID', name: 'Metforminhydrochlorid', names: { da: 'Metforminhydrochlorid' }, provisional: true });
  });

  it('maps lms02 packages with lms03 prices in DKK (øre / 100: AIP, AUP, tilskudspris), the price date and the udleveringsgruppe', () => {
    const [pack, multi] = product('28100636474').packs;
    expect(pack).toMatchObject({
      key: '028174', description: '100 stk. (blister)', units: 100, dispensing_category: 'B', marketing_status: 'active',
      identifiers: [{ system: 'dk_varenummer', code: '028174' }],
    });
    expect(pack!.prices).toEqual([
      { amount: 24.5, currency: 'DKK', kind: 'ex_factory', valid_from: '2025-09-01' },
      { amount: 69.95, currency: 'DKK', kind: 'public', valid_from: '2025-09-01' },
      { amount: 69.95, currency: 'DKK', kind: 'reimbursed', valid_from: '2025-09-01' },
    ]);
    // Pack text grammar: count × size, and a pen pack in ml.
    expect(multi).toMatchObject({ key: '028182', units: 300 });
    expect(product('28102345678').packs[0]).toMatchObject({ description: '5 x 3 ml (fyldt pen)', units: 15, unit: 'ml' });
    // An OTC pack without tilskudspris has no reimbursed price; HA is over-the-counter at pharmacies only.
    const otc = product('28101234567').packs[0]!;
    expect(otc).toMatchObject({ dispensing_category: 'HA' });
    expect(otc.prices!.map((p) => p.kind)).toEqual(['ex_factory', 'public']);
  });

  it('reads the numeric pack size when the text has none, a concentration strength, and a product without ATC', () => {
    const salve = product('28109876543');
    expect(salve.atc_code).toBeUndefined();
    expect(salve.product_name).toBe('Læsø Ringblomstsalve salve');
    expect(salve.holder).toBe('Læsø Urteapotek ApS');
    expect(salve.packs[0]).toMatchObject({ description: 'Tube', units: 50, unit: 'g', dispensing_category: 'HF' });
    // HF/HX packs (sold outside pharmacies too) have free prices: the takst gives zeros.
    expect(salve.packs[0]!.prices).toBeUndefined();
    expect(product('28102345678').ingredients).toEqual([{ unii: 'name:INSULIN GLARGIN', strength_value: 100, strength_unit: 'IU/ml', strength_text: '100 IE/ml' }]);
  });

  it('gives a combination its substances without a single strength, and marks deregistered drugs and ended packs withdrawn', () => {
    expect(product('28103456789').ingredients).toEqual([{ unii: 'name:AMOXICILLINTRIHYDRAT' }, { unii: 'name:KALIUMCLAVULANAT' }]);
    const panodil = product('28100000017');
    expect(panodil).toMatchObject({ marketing_status: 'withdrawn', attributes: { deregistered_on: '2024-01-01' } });
    expect(panodil.packs[0]).toMatchObject({ marketing_status: 'withdrawn' });
  });

  it('keeps a medicine for animals (ATCvet) out of human search, its ATCvet code as an attribute', () => {
    const metacam = product('28104444444');
    expect(metacam).toMatchObject({ veterinary: true, attributes: { atcvet_code: 'QM01AC06' } });
    expect(metacam.atc_code).toBeUndefined();
    expect(metacam.ingredients).toEqual([{ unii: 'name:MELOXICAM', strength_value: 1.5, strength_unit: 'mg/ml', strength_text: '1,5 mg/ml' }]);
  });

  it('reports malformed lines, orphan packages and orphan prices with file and line, and counts them per file', () => {
    expect(problems).toEqual([
      { file: 'lms01.txt', line: 4, message: 'drugId "X8100636474" at column 1 is malformed' },
      { file: 'lms02.txt', line: 3, message: 'varenummer "0281 2" at column 12 is malformed' },
      { file: 'lms02.txt', line: 11, message: 'package 123456 names Drug ID 28199999999, which lms01 does not list' },
      { file: 'lms03.txt', line: 9, message: 'price of package 999999, which lms02 does not list' },
    ]);
    expect(files).toEqual([
      { file: 'lms01.txt', role: 'lægemidler (lms01)', read: 9, kept: 8, malformed: 1 },
      { file: 'lms02.txt', role: 'pakninger (lms02)', read: 12, kept: 10, malformed: 2 },
      { file: 'lms03.txt', role: 'priser (lms03)', read: 10, kept: 9, malformed: 1 },
      { file: 'lms09.txt', role: 'firmaer (lms09)', read: 5, kept: 5, malformed: 0 },
      { file: 'lms30.txt', role: 'indholdsstoffer (lms30)', read: 8, kept: 8, malformed: 0 },
    ]);
    expect(snapshot.products).toHaveLength(8);
  });

  it('keeps the first line of a repeated varenummer and excludes the repeat as a duplicate', async () => {
    const lms02 = fixture('lms02.txt');
    const first = lms02.subarray(0, lms02.indexOf('\r\n') + 2);
    const r = await parseDkLms(all().map((f) => (f.name === 'lms02.txt' ? { ...f, content: Buffer.concat([lms02, first]) } : f)));
    expect(r.problems).toHaveLength(4);
    expect(r.files![1]).toMatchObject({ read: 13, kept: 10, malformed: 2, excluded: { duplicate: 1 } });
  });

  it('reads ISO-8859-1 and, where bytes 0x80-0x9F show it, the older DOS code page 865', () => {
    expect(fixture('lms09.txt').includes(Buffer.from([0xe6]))).toBe(true); // æ in Latin-1
    expect(decodeLms(Buffer.from([0x4c, 0x91, 0x73, 0x9b]))).toBe('Læsø');
    expect(decodeLms(Buffer.from([0x86, 0x8f, 0x92, 0x9d]))).toBe('åÅÆØ');
    const line = Buffer.concat([Buffer.from('009999L'), Buffer.from([0x91]), Buffer.from('s'), Buffer.from([0x9b]), Buffer.from(' Urter'.padEnd(16) + 'x'.padEnd(32) + '  ')]);
    const { records } = readLms('lms09.txt', line, LMS09, []);
    expect(records[0]!.get('kortNavn')).toBe('Læsø Urter');
  });

  it('names a file that is no takst file as unused; refuses a missing required file and two files of one role', async () => {
    const withReadme = await parseDkLms([...all(), { name: 'readme.txt', content: Buffer.from('x') }]);
    expect(withReadme.files![5]).toMatchObject({ file: 'readme.txt', role: 'unused', read: 0 });
    await expect(parseDkLms(all().filter((f) => f.name !== 'lms02.txt'))).rejects.toThrow(/no lms02 file/);
    const wrong = all().map((f) => (f.name === 'lms01.txt' ? { name: 'lms01.txt', content: fixture('lms30.txt') } : f));
    await expect(parseDkLms(wrong)).rejects.toThrow(FileRejectedError);
    await expect(parseDkLms(all().map((f) => (f.name === 'lms02.txt' ? { ...f, content: Buffer.from('') } : f)))).rejects.toThrow(/no lms02 file/);
  });

  it('normalises the Drug ID as a search-only system of 11 digits', () => {
    expect(normaliseIdentifier('dk_drug_id', '28100636474')).toBe('28100636474');
    expect(normaliseIdentifier('dk_drug_id', '2810063647')).toBeNull();
    expect(normaliseIdentifier('dk_varenummer', '028174')).toBe('028174');
  });
});
