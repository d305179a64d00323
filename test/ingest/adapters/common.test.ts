import { describe, expect, it } from 'vitest';
import {
  decodeText, decodeUtf8OrLatin, isoFromCompact, isoFromDayFirst, leadingQuantity, numberedLines, parseCsv,
  parseFrenchNumber, provisionalNameKey,
} from '../../../workers/ingest/adapters/common.ts';

describe('decodeText', () => {
  it('decodes Windows-1252 including the 0x80-0x9F range that Latin-1 lacks', () => {
    const bytes = Buffer.from([0x80, 0x20, 0x92, 0x8c, 0x9c, 0x85, 0x20, 0xe9, 0xe8]);
    expect(decodeText(bytes, 'windows-1252')).toBe('€ ’Œœ… éè');
  });

  it('lets a UTF-8 byte-order mark win over the declared encoding', () => {
    expect(decodeText(Buffer.from('\ufeffcomprimé', 'utf-8'), 'windows-1252')).toBe('comprimé');
  });

  it('falls back to Windows-1252 when the bytes are not valid UTF-8', () => {
    expect(decodeUtf8OrLatin(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
    expect(decodeUtf8OrLatin(Buffer.from('café', 'utf-8'))).toBe('café');
  });
});

describe('parseCsv', () => {
  it('handles quoted commas, doubled quotes, CRLF and line breaks inside quotes', () => {
    const records = parseCsv('a,b\r\n"x, y","say ""hi"""\r\n"multi\nline",z\r\n\r\nlast,row');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['multi\nline', 'z'] },
      { line: 6, fields: ['last', 'row'] },
    ]);
  });
});

describe('numberedLines', () => {
  it('keeps 1-based numbers and drops blank lines', () => {
    expect(numberedLines('a\r\n\r\nb\n')).toEqual([{ line: 1, text: 'a' }, { line: 3, text: 'b' }]);
  });
});

describe('parseFrenchNumber', () => {
  it('reads decimal commas with space, no-break space, dot or comma thousands', () => {
    expect(parseFrenchNumber('1,23')).toBe(1.23);
    expect(parseFrenchNumber('1 234,56')).toBe(1234.56);
    expect(parseFrenchNumber('1\u00a0234,56')).toBe(1234.56);
    expect(parseFrenchNumber('1.234,56')).toBe(1234.56);
    expect(parseFrenchNumber('1,234,56')).toBe(1234.56);
    expect(parseFrenchNumber('12')).toBe(12);
  });

  it('gives null for empty or non-numeric cells', () => {
    expect(parseFrenchNumber('')).toBeNull();
    expect(parseFrenchNumber('abc')).toBeNull();
    expect(parseFrenchNumber('1,2,x')).toBeNull();
  });
});

describe('date helpers', () => {
  it('converts day-first and compact dates to ISO and rejects impossible dates', () => {
    expect(isoFromDayFirst('09/07/1996')).toBe('1996-07-09');
    expect(isoFromDayFirst('01.03.2015')).toBe('2015-03-01');
    expect(isoFromDayFirst('31/02/2001')).toBeNull();
    expect(isoFromCompact('20100115')).toBe('2010-01-15');
    expect(isoFromCompact('2010-01-15')).toBeNull();
  });
});

describe('leadingQuantity', () => {
  it('reads the count and unit at the start of a pack description', () => {
    expect(leadingQuantity('100 TABLET, FILM COATED in 1 BOTTLE (0904-5853-61)')).toEqual({ units: 100, unit: 'TABLET, FILM COATED' });
    expect(leadingQuantity('5 mL in 1 VIAL, SINGLE-DOSE (1234-5678-90)')).toEqual({ units: 5, unit: 'mL' });
    expect(leadingQuantity('12 Stk')).toEqual({ units: 12, unit: 'Stk' });
    expect(leadingQuantity('Flasche')).toBeNull();
  });

  it('reads pack texts in the registers own words with the pack-size grammar', () => {
    expect(leadingQuantity('4 x 112 Kapsel(n)')).toEqual({ units: 448, unit: 'Kapsel(n)' });
    expect(leadingQuantity('Durchstf 10 ml')).toEqual({ units: 10, unit: 'ml' });
    expect(leadingQuantity('plaquette(s) thermoformée(s) PVC-aluminium de 28 comprimé(s)')).toEqual({ units: 28, unit: 'comprimé(s)' });
    expect(leadingQuantity('ZOCOR Filmtabl 20 mg 28 Stk')).toEqual({ units: 28, unit: 'Stk' });
    expect(leadingQuantity('10 VIAL in 1 CARTON > 2 mL in 1 VIAL')).toEqual({ units: 20, unit: 'mL' });
  });
});

describe('provisionalNameKey', () => {
  it('upper-cases and single-spaces the name behind the name: prefix', () => {
    expect(provisionalNameKey('  acetylsalicylic   acid ')).toBe('name:ACETYLSALICYLIC ACID');
  });
});
