import { describe, expect, it } from 'vitest';
import { column, fixedLayout, fixedLines, layoutMatch, lineProblem, rawColumn, recordOf } from '../../../workers/ingest/adapters/fixed-width.ts';

// Columns as publishers document them: 1-based start and length.
const LAYOUT = fixedLayout('demo', { code: [1, 4, /^\d{4}$/], name: [5, 10, /\S/], flag: [15, 1] }, { recordLength: 15 });

describe('fixed-width layout reader', () => {
  it('cuts columns by 1-based start and length, trimmed or as written', () => {
    expect(column('0042Aspirin   J', [5, 10])).toBe('Aspirin');
    expect(rawColumn('0042Aspirin   J', [5, 10])).toBe('Aspirin   ');
    // A line ending early reads as blanks.
    expect(rawColumn('0042Asp', [5, 10])).toBe('Asp       ');
    const r = recordOf('0042Aspirin   J', 7, LAYOUT);
    expect([r.line, r.get('code'), r.get('name'), r.get('flag')]).toEqual([7, '0042', 'Aspirin', 'J']);
  });

  it('says why a line is no record: too short, too long, or the first column out of shape', () => {
    expect(lineProblem('0042Aspirin   J', LAYOUT)).toBeNull();
    expect(lineProblem('0042Aspirin', LAYOUT)).toBe('line has 11 characters, too short for a demo record (15)');
    expect(lineProblem('0042Aspirin   J  extra', LAYOUT)).toBe('line has 22 characters, longer than a demo record (15)');
    expect(lineProblem('0042Aspirin   J   ', LAYOUT)).toBeNull();
    expect(lineProblem('00X2Aspirin   J', LAYOUT)).toBe('code "00X2" at column 1 is malformed');
    expect(lineProblem('0042          J', LAYOUT)).toBe('name "" at column 5 is malformed');
  });

  it('numbers lines (LF or CRLF) and leaves blank lines out', () => {
    expect(fixedLines('a\r\n\r\nb\nc')).toEqual([{ line: 1, text: 'a' }, { line: 3, text: 'b' }, { line: 4, text: 'c' }]);
  });

  it('recognises a file by its head: 2 at the documented length, 1 when lines fit otherwise, 0 when most do not', () => {
    expect(layoutMatch('0042Aspirin   J\n0043Ibuprofen J\n', LAYOUT)).toBe(2);
    // A malformed line among records does not change what the file is.
    expect(layoutMatch('0042Aspirin   J\n0043Ibuprofen J\n0044Naproxen  J\nXXXX\n', LAYOUT)).toBe(2);
    expect(layoutMatch('0042Aspirin   J   \n0043Ibuprofen J\n', LAYOUT)).toBe(1);
    expect(layoutMatch('0042Aspirin   J\nXXXX\n', LAYOUT)).toBe(0);
    expect(layoutMatch('<?xml version="1.0"?>\n<a/>\n', LAYOUT)).toBe(0);
    expect(layoutMatch('', LAYOUT)).toBe(0);
    // A head cut inside its last line judges the complete lines only.
    expect(layoutMatch('0042Aspirin   J\n0043Ibu', LAYOUT)).toBe(2);
  });
});
