import { describe, expect, it } from 'vitest';
import { atPznCheckDigit, isValidAtPzn } from '../../vocabulary/check-digits.ts';
import { detectCodes, normaliseIdentifier } from '../../vocabulary/codes.ts';

describe('Austrian PZN check digit', () => {
  it('computes the published example: body 083897 weighted 2..7 sums to 179, 179 mod 11 = 3', () => {
    expect(atPznCheckDigit('083897')).toBe('3');
    expect(isValidAtPzn('0838973')).toBe(true);
  });

  it('refuses a wrong check digit, a transposition, and bodies whose remainder is 10 (never issued)', () => {
    expect(isValidAtPzn('0838974')).toBe(false);
    expect(isValidAtPzn('0833897')).toBe(false);
    // 100000: 1*2 = 2; 500000: 5*2 = 10 → remainder 10.
    expect(atPznCheckDigit('500000')).toBeNull();
    expect(isValidAtPzn('083897')).toBe(false);
  });
});

describe('Austrian and Spanish search-only systems', () => {
  it('normalises Austrian PZNs: prefix, spaces and dropped leading zeros', () => {
    expect(normaliseIdentifier('at_pzn', 'PZN 0838973')).toBe('0838973');
    expect(normaliseIdentifier('at_pzn', '838973')).toBe('0838973');
    expect(normaliseIdentifier('at_pzn', '0838974')).toBeNull();
    expect(normaliseIdentifier('at_pzn', '08389731')).toBeNull();
  });

  it('normalises Zulassungsnummern in their old, dotted, numeric and EU forms', () => {
    expect(normaliseIdentifier('at_zulassungsnummer', 'Z.Nr.: 1-23456')).toBe('1-23456');
    expect(normaliseIdentifier('at_zulassungsnummer', '16.345')).toBe('16.345');
    expect(normaliseIdentifier('at_zulassungsnummer', ' 140123 ')).toBe('140123');
    expect(normaliseIdentifier('at_zulassungsnummer', 'EU/1/11/691/006')).toBe('EU/1/11/691/006');
    expect(normaliseIdentifier('at_zulassungsnummer', 'Hersteller')).toBeNull();
  });

  it('normalises AEMPS registration numbers as written, dots dropped', () => {
    expect(normaliseIdentifier('es_nregistro', '62.693')).toBe('62693');
    expect(normaliseIdentifier('es_nregistro', '07409006')).toBe('07409006');
    expect(normaliseIdentifier('es_nregistro', '')).toBeNull();
  });

  it('reads a check-digit-valid 7-digit query as an Austrian PZN, besides the other 7-digit readings', () => {
    expect(detectCodes('0838973')).toContainEqual({ kind: 'national', system: 'at_pzn', code: '0838973' });
    expect(detectCodes('0838974').some((c) => c.system === 'at_pzn')).toBe(false);
  });
});
