/**
 * dk-lms on a real takst release (2011-03-09, cut to 81 drugs; test/fixtures/registers/dk-lms/real/SOURCE.md).
 * Expected values are cut from the source lines at the takst's documented columns (1-based start, length).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseDkLms } from '../../../workers/ingest/adapters/dk-lms.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const DIR = new URL('../../fixtures/registers/dk-lms/real/', import.meta.url);
const NAMES = readdirSync(DIR).filter((n) => n.endsWith('.txt')).sort();
const bytes = (name: string): Buffer => readFileSync(new URL(name, DIR));
const release = () => NAMES.map((name) => ({ name, content: bytes(name) }));
/** Line `n` (1-based) of a fixture, as Latin-1 text. */
const line = (name: string, n: number): string => bytes(name).toString('latin1').split('\n')[n - 1]!;
const cut = (text: string, start: number, length: number): string => text.slice(start - 1, start - 1 + length);

describe('dk-lms on the real takst of 2011-03-09', async () => {
  const { snapshot, problems, files } = await parseDkLms(release());
  const product = (id: string) => snapshot.products!.find((p) => p.key === id)!;

  it('takes the release whole: every member recognised by its layout, every row with one outcome', () => {
    expect(files).toEqual([
      { file: 'lms01.txt', role: 'lægemidler (lms01)', read: 81, kept: 81, malformed: 0 },
      { file: 'lms02.txt', role: 'pakninger (lms02)', read: 137, kept: 137, malformed: 0 },
      { file: 'lms03.txt', role: 'priser (lms03)', read: 137, kept: 137, malformed: 0 },
      { file: 'lms09.txt', role: 'firmaer (lms09)', read: 67, kept: 67, malformed: 0 },
      { file: 'lms12.txt', role: 'ATC-koder og tekst (lms12)', read: 44, kept: 44, malformed: 0 },
      { file: 'system.txt', role: 'takst header (system.txt)', read: 1, kept: 1, malformed: 0 },
    ]);
    expect(files!.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(81);
    expect(snapshot.products!.flatMap((p) => p.packs)).toHaveLength(137);
  });

  it('reads dated copies (lms01_2011-03-09.txt) and names a member it does not read as unused', async () => {
    const dated = release().map((f) => ({ ...f, name: f.name.replace('.txt', '_2011-03-09.txt') }));
    const r = await parseDkLms([...dated, { name: 'lms04_2011-03-09.txt', content: Buffer.from('0289028174   \n') }, { name: 'readme.txt', content: Buffer.from('Takst 2011-03-09\n') }]);
    expect(r.files!.map((f) => [f.file, f.role, f.kept])).toEqual([
      ['lms01_2011-03-09.txt', 'lægemidler (lms01)', 81], ['lms02_2011-03-09.txt', 'pakninger (lms02)', 137],
      ['lms03_2011-03-09.txt', 'priser (lms03)', 137], ['lms09_2011-03-09.txt', 'firmaer (lms09)', 67],
      ['lms12_2011-03-09.txt', 'ATC-koder og tekst (lms12)', 44], ['system_2011-03-09.txt', 'takst header (system.txt)', 1],
      ['lms04_2011-03-09.txt', 'unused', 0], ['readme.txt', 'unused', 0],
    ]);
    expect(r.files![6]!.note).toBe('generic substitution groups (not read)');
    expect(r.snapshot.products).toEqual(snapshot.products);
  });

  it('gives the prices of lms03 in DKK from øre (AIP, AUP, TSP) with the price date of lms02', () => {
    const src = line('lms03.txt', 1); // 133736: Rimactan 150 mg, 100 stk.
    expect(cut(src, 1, 6)).toBe('133736');
    const kr = (start: number) => Number(cut(src, start, 9)) / 100;
    const rimactan = product('28100535568');
    expect(rimactan.packs[0]!.prices).toEqual([
      { amount: kr(7), currency: 'DKK', kind: 'ex_factory', valid_from: '2010-01-25' },
      { amount: kr(16), currency: 'DKK', kind: 'public', valid_from: '2010-01-25' },
      { amount: kr(52), currency: 'DKK', kind: 'reimbursed', valid_from: '2010-01-25' },
    ]);
    expect(rimactan.packs[0]!.prices!.map((p) => p.amount)).toEqual([358.5, 493.85, 503.85]);
    expect(rimactan).toMatchObject({ product_name: 'Rimactan kapsler, hårde 150 mg', atc_code: 'J04AB02', holder: 'Sandoz', attributes: { atc_text_da: 'Rifampicin' } });
  });

  it('marks packages with an udgået date before the takst date withdrawn, the date as the varenummer\'s end', () => {
    const src = line('lms02.txt', 35); // 020356: Simvastatin "Actavis" 10 mg, 98 stk., udgået 20110207
    expect([cut(src, 1, 11), cut(src, 12, 6), cut(src, 120, 8)]).toEqual(['28103625803', '020356', '20110207']);
    const simva = product('28103625803');
    expect(simva).toMatchObject({ marketing_status: 'withdrawn', attributes: { deregistered_on: '2011-02-21' } });
    expect(simva.packs[0]).toMatchObject({
      key: '020356', description: '98 stk. (blister)', units: 98, marketing_status: 'withdrawn',
      identifiers: [{ system: 'dk_varenummer', code: '020356', valid_to: '2011-02-07' }],
    });
    const packs = snapshot.products!.flatMap((p) => p.packs);
    expect(packs.filter((p) => p.marketing_status === 'withdrawn')).toHaveLength(19);
    expect(snapshot.products!.filter((p) => p.marketing_status === 'withdrawn')).toHaveLength(6);
  });

  it('keeps an udgået date after the takst date as a pack still sold until then', async () => {
    const system = bytes('system.txt').toString('latin1').replace('20110309', '20110301');
    const r = await parseDkLms(release().map((f) => (f.name === 'system.txt' ? { ...f, content: Buffer.from(system, 'latin1') } : f)));
    const tube = r.snapshot.products!.find((p) => p.key === '28103143900')!.packs.find((p) => p.key === '003746')!;
    expect(tube).toMatchObject({ marketing_status: 'active', identifiers: [{ system: 'dk_varenummer', code: '003746', valid_to: '2011-03-07' }] });
  });

  it('reads the strength unit codes (mg/dosis, IE/ml, mikg/time) and pack units (doser)', () => {
    expect(product('28100559669').ingredients).toEqual([{ unii: 'name:SALBUTAMOL', strength_value: 0.1, strength_unit: 'mg/dose', strength_text: '0,1 mg/dosis' }]);
    expect(product('28100559669').packs[0]).toMatchObject({ description: '200 doser', units: 200, unit: 'doser' });
    expect(product('28103276801').ingredients[0]).toMatchObject({ strength_value: 100, strength_unit: 'IU/ml' });
    expect(product('28101545293').ingredients[0]).toMatchObject({ strength_value: 50, strength_unit: 'µg/h' });
    // Coliscour (ATCvet QA07AA10, `2 MIE/ml` coded MIU): a medicine for animals, no ATC text to name its substance.
    expect(product('28104319008')).toMatchObject({ veterinary: true, ingredients: [] });
    // Without lms30 a single-substance drug is named by its level-5 ATC text; a combination gets none.
    expect(snapshot.substances).toContainEqual({ unii: 'name:SALBUTAMOL', name: 'Salbutamol', names: { da: 'Salbutamol' }, provisional: true, atc_codes: ['R03AC02'] });
  });

  it('refuses a truncated file, a file of another register and an empty file', async () => {
    const lms01 = bytes('lms01.txt');
    await expect(parseDkLms(release().map((f) => (f.name === 'lms01.txt' ? { ...f, content: lms01.subarray(0, 120) } : f)))).rejects.toThrow(/no lms01 file/);
    const transfer = readFileSync(new URL('../../fixtures/registers/ch-zurrose/transfer.dat', import.meta.url));
    await expect(parseDkLms(release().map((f) => (f.name === 'lms02.txt' ? { ...f, content: transfer } : f)))).rejects.toThrow(/no lms02 file/);
    await expect(parseDkLms(release().map((f) => (f.name === 'lms01.txt' ? { ...f, content: Buffer.alloc(0) } : f)))).rejects.toThrow(FileRejectedError);
    // Cut inside a line: that line is malformed, the rest read.
    const cutShort = await parseDkLms(release().map((f) => (f.name === 'lms02.txt' ? { ...f, content: bytes('lms02.txt').subarray(0, 137 * 10 + 10 + 60) } : f)));
    expect(cutShort.files![1]).toMatchObject({ read: 11, malformed: 1 });
    expect(cutShort.problems[0]).toMatchObject({ file: 'lms02.txt', line: 11 });
  });
});
