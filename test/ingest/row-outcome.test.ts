import { describe, expect, it } from 'vitest';
import { RowTally, balanced, countRows, outcomeOf, unusedFile } from '../../workers/ingest/row-outcome.ts';

describe('row outcome', () => {
  it('counts every row once: kept, malformed with its problem, or excluded by reason', () => {
    const tally = new RowTally('WHO_ATC_DDD.csv');
    tally.keep();
    tally.exclude('no_ddd');
    tally.exclude('no_ddd');
    tally.malformedRow(7, '"X99" is not an ATC code');
    const report = tally.report('DDD table');
    expect(report).toEqual({ file: 'WHO_ATC_DDD.csv', role: 'DDD table', read: 4, kept: 1, malformed: 1, excluded: { no_ddd: 2 } });
    expect(tally.problems).toEqual([{ file: 'WHO_ATC_DDD.csv', line: 7, message: '"X99" is not an ATC code' }]);
    expect(balanced(report)).toBe(true);
  });

  it('takes back a row first counted as kept', () => {
    const tally = new RowTally('lms02.txt');
    tally.keep();
    tally.keep();
    tally.unkeep({ excluded: 'duplicate' });
    tally.unkeep({ malformed: { line: 3, message: 'bad' } });
    expect(tally.report('packages')).toMatchObject({ read: 2, kept: 0, malformed: 1, excluded: { duplicate: 1 } });
  });

  it('refuses a reason that is not a snake_case word', () => {
    expect(() => new RowTally('f').exclude('No DDD')).toThrow(/snake_case/);
  });

  it('states the exclusions of a report that has none', () => {
    expect(outcomeOf({ file: 'a.txt', role: 'r', read: 2, kept: 1, malformed: 1 })).toEqual({ file: 'a.txt', role: 'r', read: 2, kept: 1, malformed: 1, excluded: {} });
  });

  it('adds the files of an ingest up; an unused member counts no row', () => {
    const tally = new RowTally('lms01.txt');
    tally.keep();
    tally.exclude('out_of_scope');
    const rows = countRows([tally.report('drugs'), unusedFile('system.txt', 'release header')], [], 0);
    expect(rows).toEqual({ read: 2, kept: 1, malformed: 0, excluded: 1 });
  });
});
