import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { ATC_LEVEL1_NAMES, parseWhoAtc, parseWhoAtcFiles } from '../../../workers/ingest/adapters/who-atc.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/who-atc/${name}`, import.meta.url));
const input = (name: string): InputFile => ({ name, content: fixture(name) });

describe('who-atc adapter: the flat file (code list and DDDs in one)', () => {
  const { snapshot, problems, files } = parseWhoAtc('atc.csv', fixture('atc.csv'));
  const entry = (code: string) => snapshot.atc?.find((e) => e.code === code);

  it('reads every ATC level and derives the level from the code length', () => {
    expect(['N', 'N02', 'N02B', 'N02BE', 'N02BE01'].map((c) => entry(c)?.level)).toEqual([1, 2, 3, 4, 5]);
    expect(entry('N02BE')?.name).toBe('Anilides');
    expect(entry('N02BE')?.ddd).toEqual([]);
    expect(files).toEqual([{ file: 'atc.csv', role: 'code list + DDD table', read: 15, kept: 13, malformed: 2 }]);
  });

  it('folds the DDD rows of one code into one entry, one DDD per route', () => {
    expect(entry('N02BE01')?.ddd).toEqual([
      { value: 3, unit: 'g', route: 'O' },
      { value: 3, unit: 'g', route: 'P' },
      { value: 3, unit: 'g', route: 'R' },
    ]);
    expect(entry('A04AD12')?.ddd).toEqual([
      { value: 165, unit: 'mg', route: 'O' },
      { value: 150, unit: 'mg', route: 'P', note: 'Refers to fosaprepitant' },
    ]);
  });

  it('keeps quoted names and notes with commas and doubled quotes intact', () => {
    expect(entry('N02BE51')?.name).toBe('paracetamol, combinations excl. psycholeptics');
    expect(entry('A02AD01')?.ddd).toEqual([]);
    expect(snapshot.atc?.filter((e) => e.code === 'N02BE01')).toHaveLength(1);
  });

  it('reports malformed rows with their line number and skips them; reports missing intermediate levels', () => {
    expect(problems.filter((p) => !p.message.includes('not in the code list'))).toEqual([
      { file: 'atc.csv', line: 12, message: '"X99ZZ01" is not an ATC code' },
      { file: 'atc.csv', line: 15, message: 'M01AE01: DDD "one" is not a positive number' },
    ]);
    expect(entry('X99ZZ01')).toBeUndefined();
    expect(entry('M01AE01')).toBeUndefined();
    // The fixture lists A-codes without their A02 / A02B ... groups: reported, not invented.
    expect(problems).toContainEqual({ file: 'atc.csv', line: 10, message: 'A02BC01: its ATC level 2 group A02 is not in the code list (left out, not invented)' });
    expect(entry('A02')).toBeUndefined();
  });

  it('describes the source as global (no country)', () => {
    expect(snapshot.format).toBe('drugref-snapshot/1');
    expect(snapshot.source).toMatchObject({ id: 'who-atc', country: null });
  });

  it('rejects a file whose header is not a WHO ATC header', () => {
    expect(() => parseWhoAtc('bad-header.csv', fixture('bad-header.csv'))).toThrow(FileRejectedError);
    expect(() => parseWhoAtc('bad-header.csv', fixture('bad-header.csv'))).toThrow(/header lacks atc_code/);
  });
});

describe('who-atc adapter: code list and DDD table as two files', () => {
  it('recognises each file by its header, in either order', () => {
    const one = parseWhoAtcFiles([input('codes.csv'), input('ddd.csv')]);
    const other = parseWhoAtcFiles([input('ddd.csv'), input('codes.csv')]);
    expect(one.files?.map((f) => f.role)).toEqual(['code list', 'DDD table']);
    expect(other.files?.map((f) => f.role)).toEqual(['DDD table', 'code list']);
    const sorted = (r: typeof one) => [...(r.snapshot.atc ?? [])].sort((a, b) => a.code.localeCompare(b.code));
    expect(sorted(other)).toEqual(sorted(one));
  });

  it('gives every code of the list its DDDs, and none to the many codes without one', () => {
    const { snapshot } = parseWhoAtcFiles([input('codes.csv'), input('ddd.csv')]);
    const entry = (code: string) => snapshot.atc?.find((e) => e.code === code);
    expect(entry('N02BE01')).toEqual({
      code: 'N02BE01', name: 'paracetamol', level: 5,
      ddd: [{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'P' }, { value: 3, unit: 'g', route: 'R' }],
    });
    expect(entry('N02BE71')).toEqual({ code: 'N02BE71', name: 'paracetamol, combinations with psycholeptics', level: 5, ddd: [] });
  });

  it('supplies the level-1 groups the export leaves out from WHO\'s English labels', () => {
    const { snapshot } = parseWhoAtcFiles([input('codes.csv')]);
    expect(snapshot.atc?.find((e) => e.code === 'N')).toEqual({ code: 'N', name: 'NERVOUS SYSTEM', level: 1 });
    expect(snapshot.atc?.find((e) => e.code === 'A')?.name).toBe('ALIMENTARY TRACT AND METABOLISM');
    expect(Object.keys(ATC_LEVEL1_NAMES)).toEqual(['A', 'B', 'C', 'D', 'G', 'H', 'J', 'L', 'M', 'N', 'P', 'R', 'S', 'V']);
  });

  it('reports missing intermediate levels and malformed rows of both files with their lines', () => {
    const { problems, files } = parseWhoAtcFiles([input('codes.csv'), input('ddd.csv')]);
    expect(problems).toEqual([
      { file: 'codes.csv', line: 8, message: 'A02BC01: its ATC level 2 group A02 is not in the code list (left out, not invented)' },
      { file: 'codes.csv', line: 8, message: 'A02BC01: its ATC level 3 group A02B is not in the code list (left out, not invented)' },
      { file: 'codes.csv', line: 11, message: '"Q01AA01" is not an ATC code' },
      { file: 'ddd.csv', line: 9, message: 'N02BE51: DDD "three" is not a positive number' },
    ]);
    expect(files).toEqual([
      { file: 'codes.csv', role: 'code list', read: 10, kept: 9, malformed: 1 },
      { file: 'ddd.csv', role: 'DDD table', read: 8, kept: 7, malformed: 1 },
    ]);
  });

  it('reads a DDD table alone as DDD-only entries (no names: the tree is left as stored)', () => {
    const { snapshot } = parseWhoAtcFiles([input('ddd.csv')]);
    expect(snapshot.atc?.map((e) => e.code)).toEqual(['N02BE01', 'A02BC01', 'A02BC05']);
    expect(snapshot.atc?.every((e) => e.name === undefined)).toBe(true);
  });

  it('reads WHOCC\'s XML exports (ATC_YYYY.xml and ATC_ddd_YYYY.xml)', () => {
    const { snapshot, problems, files } = parseWhoAtcFiles([input('ATC_ddd_2016.xml'), input('ATC_2016.xml')]);
    expect(files?.map((f) => [f.role, f.read])).toEqual([['DDD table', 3], ['code list', 7]]);
    expect(snapshot.atc?.find((e) => e.code === 'N02BE01')?.ddd).toEqual([{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'R' }]);
    // A04AD12 is not in that code list: its DDD is reported with the XML line, not kept.
    expect(problems).toContainEqual({ file: 'ATC_ddd_2016.xml', line: 18, message: 'A04AD12: DDD for a code the code list does not have' });
    const alone = parseWhoAtcFiles([input('ATC_ddd_2016.xml')]);
    expect(alone.snapshot.atc?.find((e) => e.code === 'A04AD12')?.ddd).toEqual([{ value: 95, unit: 'mg', route: 'P', note: 'expressed as fosaprepitant & more' }]);
  });

  it('refuses two code lists or two DDD tables in one ingest', () => {
    expect(() => parseWhoAtcFiles([input('codes.csv'), input('atc.csv')])).toThrow(/a second code list/);
    expect(() => parseWhoAtcFiles([input('ddd.csv'), input('ATC_ddd_2016.xml')])).toThrow(/a second DDD table/);
  });
});
