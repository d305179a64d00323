import { describe, expect, it } from 'vitest';
import {
  decodeDelimitedText, delimitedRecords, detectSeparator, firstLineSeparator, isZip, parseCsv, splitLine, splitLines, splitRecords,
} from '../../../workers/ingest/adapters/delimited-text.ts';

describe('decodeDelimitedText', () => {
  it('reads UTF-16 by its byte-order mark, little or big endian (Excel "Unicode text")', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Nimi\tHinta\r\nPanadol\t1,5', 'utf16le')]);
    expect(decodeDelimitedText(le)).toBe('Nimi\tHinta\r\nPanadol\t1,5');
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeDelimitedText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('Nimi\tHinta\r\nPanadol\t1,5');
  });

  it('drops a UTF-8 byte-order mark, keeps valid UTF-8 and reads anything else as Windows-1252', () => {
    expect(decodeDelimitedText(Buffer.from('\ufeffLääke;€', 'utf-8'))).toBe('Lääke;€');
    expect(decodeDelimitedText(Buffer.from([0x4c, 0xe4, 0xe4, 0x6b, 0x65, 0x3b, 0x80, 0x92]))).toBe('Lääke;€’');
    // A mark that lies (Windows-1252 bytes behind it) is still no text of the file.
    expect(decodeDelimitedText(Buffer.from([0xef, 0xbb, 0xbf, 0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });

  it('tells a zip container (an xlsx workbook) from text', () => {
    expect(isZip(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe(true);
    expect(isZip(Buffer.from('PK;name\n'))).toBe(false);
  });
});

describe('detectSeparator', () => {
  it('takes the separator used most, `;` before tab before `,` on a tie', () => {
    expect(detectSeparator('a;b;c\n1;2;3')).toBe(';');
    expect(detectSeparator('a\tb\tc')).toBe('\t');
    expect(detectSeparator('a,b;c\n1,5;2')).toBe(';');
    expect(detectSeparator('a,b,c\n"1,5";2,3')).toBe(',');
    expect(detectSeparator('only one column')).toBe(';');
  });
});

describe('firstLineSeparator', () => {
  it('takes `;` only when the first line holds more semicolons than commas', () => {
    expect(firstLineSeparator('CN;PVP;"Nombre, forma"\r\n1,2,3,4,5')).toBe(';');
    expect(firstLineSeparator('a,b;c,d\n;;;;;;')).toBe(',');
    expect(firstLineSeparator('a;b,c')).toBe(',');
    expect(firstLineSeparator('a;b')).toBe(';');
  });
});

describe('parseCsv', () => {
  it('keeps quoted separators, doubled quotes, quoted line breaks (with a quoted CR) and first line numbers', () => {
    expect(parseCsv('a;"b;c"\r\n"x\r\ny";"say ""hi"""\r\n\r\nz;1', ';')).toEqual([
      { line: 1, fields: ['a', 'b;c'] },
      { line: 2, fields: ['x\r\ny', 'say "hi"'] },
      { line: 5, fields: ['z', '1'] },
    ]);
  });

  it('is strict by default: only a quote first in its field opens one, and a line of blanks is a record', () => {
    expect(parseCsv('1; "a;b"\n   \n2;3', ';')).toEqual([
      { line: 1, fields: ['1', ' "a', 'b"'] },
      { line: 2, fields: ['   '] },
      { line: 3, fields: ['2', '3'] },
    ]);
  });

  it('with loose blanks opens a quote after blanks and skips lines of blanks', () => {
    expect(parseCsv('1; "a;b"\n   \n2;3', ';', { looseBlanks: true })).toEqual([
      { line: 1, fields: ['1', 'a;b'] },
      { line: 3, fields: ['2', '3'] },
    ]);
  });
});

describe('splitRecords', () => {
  it('splits quote-free text line by line, dropping blank lines but keeping rows of bare separators', () => {
    expect(splitRecords('a;b\r\n\r\n  \r\n1;2\r\n;;\r\n', ';')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 4, fields: ['1', '2'] },
      { line: 5, fields: ['', '', ''] },
    ]);
  });

  it('reads text with quotes as parseCsv with loose blanks does', () => {
    const text = 'a;b\r\n1; "x;\r\ny"\r\n   \r\n2;3';
    expect(splitRecords(text, ';')).toEqual(parseCsv(text, ';', { looseBlanks: true }));
    expect(splitRecords(text, ';')[1]).toEqual({ line: 2, fields: ['1', 'x;\r\ny'] });
  });
});

describe('delimitedRecords (line by line)', () => {
  it('reads records as parseCsv reads the whole text: quoted separators, doubled quotes, quoted line breaks', () => {
    const text = 'A;"Codice\r\nAIC";C\r\n1;"""500 mg"" 30 cpr";x\r\n\r\n2;5" tablet;"a;b"\r\n3;"open\nstill open";z';
    const lines = delimitedRecords(text, ';');
    expect(lines).toEqual([
      { line: 1, fields: ['A', 'Codice\nAIC', 'C'] },
      { line: 3, fields: ['1', '"500 mg" 30 cpr', 'x'] },
      { line: 5, fields: ['2', '5" tablet', 'a;b'] },
      { line: 6, fields: ['3', 'open\nstill open', 'z'] },
    ]);
    // The same fields as the character-by-character reader (which keeps a quoted CR).
    expect(parseCsv(text, ';').map((r) => r.fields.map((f) => f.replace(/\r/g, '')))).toEqual(lines.map((r) => r.fields));
  });

  it('keeps a quote left open at the end of the file as the last record', () => {
    expect(delimitedRecords('a;b\n1;"unterminated', ';')).toEqual([{ line: 1, fields: ['a', 'b'] }, { line: 2, fields: ['1', 'unterminated'] }]);
  });

  it('splits many lines at once as splitLine splits each, a quote left open included', () => {
    const lines = ['1;2;;4', '1;"2;3";4', '2;5" tablet;"a;b"', '3;"open', '4;"""x"" y";z'];
    expect(splitLines(lines, ';')).toEqual(lines.map((l) => splitLine(l, ';')));
    expect(splitLines(lines, ';')[3]).toEqual(['3', 'open']);
    expect(splitLines(lines, ';')[4]).toEqual(['4', '"x" y', 'z']);
  });

  it('splits plain lines without the quote machinery', () => {
    expect(splitLine('1;2;;4', ';')).toEqual(['1', '2', '', '4']);
    expect(splitLine('1;"2;3";4', ';')).toEqual(['1', '2;3', '4']);
  });
});
