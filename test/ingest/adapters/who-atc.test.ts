import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseWhoAtc } from '../../../workers/ingest/adapters/who-atc.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/who-atc/${name}`, import.meta.url));

describe('who-atc adapter', () => {
  const { snapshot, problems } = parseWhoAtc('atc.csv', fixture('atc.csv'));
  const entry = (code: string) => snapshot.atc?.find((e) => e.code === code);

  it('reads every ATC level and derives the level from the code length', () => {
    expect(['N', 'N02', 'N02B', 'N02BE', 'N02BE01'].map((c) => entry(c)?.level)).toEqual([1, 2, 3, 4, 5]);
    expect(entry('N02BE')?.name).toBe('Anilides');
    expect(entry('N02BE')?.ddd).toBeUndefined();
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
    expect(entry('A02AD01')?.ddd).toBeUndefined();
    expect(snapshot.atc?.filter((e) => e.code === 'N02BE01')).toHaveLength(1);
  });

  it('reports malformed rows with their line number and skips them', () => {
    expect(problems).toEqual([
      { file: 'atc.csv', line: 12, message: '"X99ZZ01" is not an ATC code' },
      { file: 'atc.csv', line: 15, message: 'M01AE01: DDD "one" is not a positive number' },
    ]);
    expect(entry('X99ZZ01')).toBeUndefined();
    expect(entry('M01AE01')).toBeUndefined();
  });

  it('describes the source as global (no country)', () => {
    expect(snapshot.format).toBe('drugref-snapshot/1');
    expect(snapshot.source).toMatchObject({ id: 'who-atc', country: null });
  });

  it('rejects a file whose header is not the ATC/DDD export header', () => {
    expect(() => parseWhoAtc('bad-header.csv', fixture('bad-header.csv'))).toThrow(FileRejectedError);
    expect(() => parseWhoAtc('bad-header.csv', fixture('bad-header.csv'))).toThrow(/header lacks atc_code/);
  });
});
