import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../workers/ingest/adapters/common.ts';
import { delimitedRecords, delimitedTable, detectSeparator, splitLine } from '../../../workers/ingest/adapters/delimited-records.ts';

describe('delimited tables (AIFA and Infomed CSVs)', () => {
  it('reads records line by line as parseCsv reads the whole text: quoted separators, doubled quotes, quoted line breaks', () => {
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

  it('detects the separator and splits plain lines without the quote machinery', () => {
    expect(detectSeparator('a;b;c\n1;2;3')).toBe(';');
    expect(detectSeparator('a\tb\tc')).toBe('\t');
    expect(splitLine('1;2;;4', ';')).toEqual(['1', '2', '', '4']);
  });

  it('finds the header below title lines, reads cells by header key whatever the case, and skips empty lines', () => {
    const content = Buffer.from('Elenco del 01/11/2026\r\nCODICE_AIC;Denominazione\r\n026846016;GLUCOPHAGE\r\n;\r\n', 'latin1');
    const table = delimitedTable({ name: 'x.csv', content }, (keys) => keys.includes('codice_aic'), 'CODICE_AIC');
    expect(table.header).toEqual(['codice_aic', 'denominazione']);
    expect(table.rows.map((r) => [r.line, r.get('codice_aic'), r.get('denominazione'), r.width])).toEqual([[3, '026846016', 'GLUCOPHAGE', 2]]);
    expect(() => delimitedTable({ name: 'x.csv', content: Buffer.from('a;b\n1;2\n') }, (keys) => keys.includes('codice_aic'), 'CODICE_AIC')).toThrow(/no header row naming CODICE_AIC/);
  });
});
