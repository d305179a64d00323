/**
 * fi-fimea on a real Fimea release folder (test/fixtures/registers/fi-fimea/real/SOURCE.md):
 * the temporary-permit pack file, the ATC and dose form tables, the release note and two code
 * tables drugref does not read, given whole; and Fimea's substitution list, hand-written for the
 * join by Vnr and real (real-gs/SOURCE.md) for its header. Values asserted are first found in
 * the file's bytes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseFiFimea } from '../../../workers/ingest/adapters/fi-fimea.ts';
import { piecesOf } from '../../../workers/ingest/adapters/fi-fimea-pack.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const REAL = new URL('../../fixtures/registers/fi-fimea/real/', import.meta.url);
const HAND = new URL('../../fixtures/registers/fi-fimea/', import.meta.url);
const real = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, REAL)) });
const hand = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, HAND)) });
/** A file's text as Fimea wrote it (Windows-1252). */
const bytes = (name: string): string => readFileSync(new URL(name, REAL)).toString('latin1');
const FOLDER = readdirSync(REAL).filter((n) => n.endsWith('.txt')).sort().map(real);

describe('fi-fimea: a real release folder given whole', async () => {
  const { snapshot, files, problems } = await parseFiFimea(FOLDER);
  const byBrand = (name: string) => snapshot.products!.find((p) => p.brand === name);
  const pack = (key: string) => snapshot.products!.flatMap((p) => p.packs).find((p) => p.key === key);

  it('reads the pack file and the code tables it uses; names the others as unused, none refused', () => {
    expect(files).toEqual([
      { file: 'atc.txt', role: 'ATC', read: 29, kept: 26, malformed: 0, excluded: { unused_code: 3 } },
      { file: 'laakemuoto.txt', role: 'LAAKEMUOTO', read: 19, kept: 16, malformed: 0, excluded: { unused_code: 3 } },
      { file: 'pakkaus-m.txt', role: 'PAKKAUS', read: 40, kept: 40, malformed: 0 },
      expect.objectContaining({ file: 'maaraamisehto.txt', role: 'unused', read: 0, note: expect.stringContaining('prescribing conditions') }),
      expect.objectContaining({ file: 'saate.txt', role: 'unused', read: 0, note: expect.stringContaining('release note') }),
      expect.objectContaining({ file: 'sailytysastia.txt', role: 'unused', read: 0 }),
    ]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(34);
  });

  it('keeps literal quotes of a name in an unquoted field', () => {
    expect(bytes('pakkaus-m.txt')).toContain('165557;;25;1;25.00;kpl;;;;;R;DIAMOX "VIFOR";250 mg;tabletti;173;Vifor SA ;');
    expect(byBrand('DIAMOX "VIFOR"')).toMatchObject({
      product_name: 'DIAMOX "VIFOR" 250 mg tabletti', holder: 'Vifor SA', atc_code: 'S01EC01',
      identifiers: [{ system: 'fi_myyntilupa', code: '32691' }],
      packs: [{ key: '165557', identifiers: [], units: 25, unit: 'kpl' }],
    });
    expect(byBrand('MYLEPSINUM "TEVA"')?.packs.map((p) => p.key)).toEqual(['179636', '179637']);
  });

  it('states the permit: status, decision date and end date; a special-permit pack has no Vnr and is not on the market', () => {
    expect(bytes('pakkaus-m.txt')).toContain(';32691;;2014-09-24;2020-08-31;M\u00e4\u00e4r\u00e4aikainen erityislupa;11;');
    expect(byBrand('DIAMOX "VIFOR"')).toMatchObject({
      authorisation_status: 'Määräaikainen erityislupa', authorised_on: '2014-09-24', marketing_status: 'withdrawn',
      attributes: { vahvuus: '250 mg', paattymispvm: '2020-08-31' },
    });
    expect(pack('165557')).toMatchObject({ marketing_status: 'withdrawn', dispensing_category: 'R' });
  });

  it('reads free-text pack sizes through KOKO × KERROIN', () => {
    expect(bytes('pakkaus-m.txt')).toContain('103907;;18 ml + 2 ml;1;20.00;ml;');
    expect(pack('103907')).toMatchObject({ description: '18 ml + 2 ml', units: 20, unit: 'ml' });
    expect(pack('103811')).toMatchObject({ description: '10 x 10 ml', units: 100, unit: 'ml' });
    expect(pack('151694')).toMatchObject({ description: '1 kpl + solv.', units: 1, unit: 'kpl' });
  });

  it('gives products the ATC texts and the dose form names of the code tables', () => {
    expect(bytes('atc.txt')).toContain('4431;S01EC01;asetatsolamidi;acetazolamid;0.75;g');
    expect(bytes('laakemuoto.txt')).toContain('173;tabletti;tablett;tablet');
    expect(byBrand('DIAMOX "VIFOR"')?.attributes).toMatchObject({
      atc_selite_fi: 'asetatsolamidi', atc_selite_sv: 'acetazolamid', laakemuoto_sv: 'tablett', laakemuoto_en: 'tablet',
    });
    expect(byBrand('KESKOSTIPPA ILMAN D-VITAMIINIA')?.attributes).toMatchObject({ atc_selite_fi: 'Muut yhdistelmävalmisteet', laakemuoto_en: 'drops' });
  });

  it('names the starting-state pack file as unused: its layout is the current one, its packs are not', async () => {
    const nolla = { name: 'pakkaus_nolla.txt', content: readFileSync(new URL('pakkaus-m.txt', REAL)) };
    const result = await parseFiFimea([real('pakkaus-m.txt'), nolla]);
    expect(result.files?.[1]).toMatchObject({ file: 'pakkaus_nolla.txt', role: 'unused', note: expect.stringContaining('started from') });
    // The same pack file twice under two names: each pack once, the repeats excluded as duplicates.
    const twice = await parseFiFimea([real('pakkaus-m.txt'), { ...real('pakkaus-m.txt'), name: 'pakkaus1.txt' }]);
    expect(twice.files?.[1]).toEqual({ file: 'pakkaus1.txt', role: 'PAKKAUS', read: 40, kept: 0, malformed: 0, excluded: { duplicate: 40 } });
  });

  it('refuses code tables without a pack file, a truncated pack file row by row, an empty file and another register, writing nothing', async () => {
    await expect(parseFiFimea([real('atc.txt'), real('laakemuoto.txt'), real('saate.txt')])).rejects.toThrow(/pack file .* is missing/);
    const cut = { name: 'pakkaus-m.txt', content: readFileSync(new URL('pakkaus-m.txt', REAL)).subarray(0, 3000) };
    const truncated = await parseFiFimea([cut]);
    expect(truncated.files?.[0]).toMatchObject({ read: 14, kept: 13, malformed: 1 });
    expect(truncated.problems).toEqual([{ file: 'pakkaus-m.txt', line: 15, message: '22 fields where the header names 39' }]);
    await expect(parseFiFimea([{ name: 'pakkaus1.txt', content: Buffer.alloc(0) }])).rejects.toThrow(FileRejectedError);
    const cima = readFileSync(new URL('../es-cima/real/medicamento_cn_712729.json', HAND));
    await expect(parseFiFimea([{ name: 'pakkaus1.txt', content: cima }])).rejects.toThrow(/pack file .* is missing/);
  });
});

describe('fi-fimea: the substitution list (GS-ladattava.txt) beside the register', async () => {
  const { snapshot, files, problems } = await parseFiFimea([hand('PAKKAUS.txt'), hand('LAAKEAINE.txt'), hand('GS-ladattava.txt')]);
  const byBrand = (name: string) => snapshot.products!.find((p) => p.brand === name);

  it('gives each listed pack\'s product its substitution group; a pack the register lacks is excluded, a bad Vnr malformed', () => {
    expect(files?.[2]).toEqual({ file: 'GS-ladattava.txt', role: 'substitution', read: 5, kept: 3, malformed: 1, excluded: { not_in_register: 1 } });
    expect(problems.filter((p) => p.file === 'GS-ladattava.txt')).toEqual([{ file: 'GS-ladattava.txt', line: 6, message: 'Vnr "04A741" is not a 6-digit Vnr' }]);
    expect(byBrand('Metformin Orion')).toMatchObject({ generic_groups: [{ code: '1087', role: 'substitutable' }], attributes: { substituutioryhma: '1087' } });
    expect(byBrand('Lantus')?.generic_groups).toEqual([{ code: '2210', role: 'substitutable' }]);
  });

  it('reads free-text pack sizes without a unit as pieces', () => {
    expect(piecesOf('100 (2 x 50)')).toEqual({ units: 100, unit: 'kpl' });
    expect(piecesOf('7 + 7 + 7 + 7')).toEqual({ units: 28, unit: 'kpl' });
    expect(piecesOf('18 ml + 2 ml')).toBeNull();
  });
});

describe('fi-fimea: a real substitution list (GS-ladattava.txt, 2025) beside the real pack file', async () => {
  const GS = new URL('../../fixtures/registers/fi-fimea/real-gs/GS-ladattava.txt', import.meta.url);
  const gs = (name: string): InputFile => ({ name, content: readFileSync(GS) });

  it('recognises the list by its header (SUBSTITUUTIORYHMA, VNRNRO ...) under any name and reads every row', async () => {
    for (const name of ['GS-ladattava.txt', 'vaihtokelpoiset.txt']) {
      const { files, problems } = await parseFiFimea([real('pakkaus-m.txt'), gs(name)]);
      // The special-permit packs have no Vnr, so none of the list's packs is in this register.
      expect(files?.[1]).toEqual({ file: name, role: 'substitution', read: 60, kept: 0, malformed: 0, excluded: { not_in_register: 60 } });
      expect(problems).toEqual([]);
    }
  });

  it('is not taken for the ATC table beside it, though its header also names ATCKOODI and SELITES', async () => {
    const { files } = await parseFiFimea([real('pakkaus-m.txt'), gs('GS-ladattava.txt'), real('atc.txt')]);
    expect(files?.map((f) => [f.file, f.role])).toEqual([['pakkaus-m.txt', 'PAKKAUS'], ['GS-ladattava.txt', 'substitution'], ['atc.txt', 'ATC']]);
  });
});
