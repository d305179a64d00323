import { describe, expect, it } from 'vitest';
import { completeGtin, verhoeffCheckDigit } from '../../vocabulary/check-digits.ts';
import { atcLevel, detectCodes, normaliseGtin, normaliseIdentifier } from '../../vocabulary/codes.ts';
import { ndc11FromDashed, ndc11FromUndashed10, ndcProductFromDashed } from '../../vocabulary/ndc-codes.ts';
import type { CodeCandidate } from '../../vocabulary/codes.ts';

const pairs = (candidates: CodeCandidate[]): string[] => candidates.map((c) => `${c.system}:${c.code}`);

describe('detectCodes', () => {
  it('returns nothing for plain names', () => {
    for (const q of ['aspirin', 'Dafalgan', 'paracetamol 500', 'ABCDEFGHIJ', 'paracetamo', '', '   ']) {
      expect(detectCodes(q)).toEqual([]);
    }
  });

  it('reads a full level-5 ATC code case-insensitively and upper-cases it', () => {
    expect(detectCodes('n02be01')).toEqual([{ kind: 'atc', system: 'atc', code: 'N02BE01', level: 5 }]);
  });

  it('reads ATC class prefixes of levels 1 to 4', () => {
    expect(detectCodes('N')).toEqual([{ kind: 'atc_class', system: 'atc', code: 'N', level: 1 }]);
    expect(detectCodes('N02')[0]).toMatchObject({ kind: 'atc_class', level: 2 });
    expect(detectCodes('n02b')[0]).toMatchObject({ kind: 'atc_class', code: 'N02B', level: 3 });
    expect(detectCodes('N02BE')[0]).toMatchObject({ kind: 'atc_class', level: 4 });
  });

  it('does not read letters outside the 14 anatomical groups or broken shapes as ATC', () => {
    expect(detectCodes('X02')).toEqual([]);
    expect(detectCodes('N0')).toEqual([]);
    expect(detectCodes('N02BE0')).toEqual([]);
  });

  it('normalises the three dashed FDA layouts to the 11-digit 5-4-2 form', () => {
    expect(pairs(detectCodes('0002-3227-30'))).toEqual(['ndc11:00002322730']);
    expect(pairs(detectCodes('50580-600-02'))).toEqual(['ndc11:50580060002']);
    expect(pairs(detectCodes('12345-6789-1'))).toEqual(['ndc11:12345678901']);
    expect(pairs(detectCodes('12345-6789-01'))).toEqual(['ndc11:12345678901']);
  });

  it('offers all three 11-digit readings of an undashed 10-digit NDC, flagged ambiguous', () => {
    const found = detectCodes('0002322730');
    expect(found.filter((c) => c.system === 'ndc11')).toEqual([
      { kind: 'ndc', system: 'ndc11', code: '00002322730', ambiguous: true },
      { kind: 'ndc', system: 'ndc11', code: '00023022730', ambiguous: true },
      { kind: 'ndc', system: 'ndc11', code: '00023227300', ambiguous: true },
    ]);
    expect(found).toContainEqual({ kind: 'ndc', system: 'ndc', code: '0002322730' });
  });

  it('takes an undashed 11-digit NDC as it is', () => {
    expect(pairs(detectCodes('00002322730'))).toEqual(['ndc11:00002322730']);
  });

  it('reads a dashed product NDC as the padded 9-digit product code', () => {
    expect(detectCodes('0002-3227')).toEqual([{ kind: 'ndc_product', system: 'ndc', code: '000023227' }]);
  });

  it('reads a Swiss GTIN-13 with a valid check digit and rejects a wrong one', () => {
    expect(pairs(detectCodes('7680653170010'))).toEqual(['gtin:7680653170010']);
    expect(detectCodes('7680653170012')).toEqual([]);
  });

  it('stores a GTIN-12 as its GTIN-13 and derives the NDC of a US drug UPC', () => {
    const upc = completeGtin('30002322730');
    expect(pairs(detectCodes(upc))).toEqual([`gtin:0${upc}`, 'ndc:0002322730']);
  });

  it('reads a CIP13 both as GTIN and as CIP13', () => {
    const cip13 = completeGtin('340093398945');
    expect(pairs(detectCodes(cip13))).toEqual([`gtin:${cip13}`, `cip13:${cip13}`]);
  });

  it('does not read a CIP13 with a wrong check digit', () => {
    expect(detectCodes('3400933989454')).toEqual([]);
  });

  it('reads a 7-digit number of the BDPM ranges (3-5xxxxxx) as CIP7 among other 7-digit readings', () => {
    const found = pairs(detectCodes('3398945'));
    expect(found[0]).toBe('cip7:3398945');
    expect(found).toContain('be_apb:3398945');
    expect(found).toContain('cz_kod_sukl:3398945');
    expect(pairs(detectCodes('4949729'))[0]).toBe('cip7:4949729');
    expect(pairs(detectCodes('1234567'))).not.toContain('cip7:1234567');
  });

  it('reads AIC codes with or without the OCR-A `A` prefix, checking the Code 32 digit', () => {
    expect(pairs(detectCodes('A012745321'))).toEqual(['aic:012745321']);
    expect(pairs(detectCodes('012745321'))).toContain('aic:012745321');
    expect(pairs(detectCodes('A012745322'))).toEqual([]);
  });

  it('reads a PZN with a valid mod-11 digit, including the PZN- prefix', () => {
    expect(pairs(detectCodes('04114918'))).toContain('pzn:04114918');
    expect(pairs(detectCodes('PZN-04114918'))).toEqual(['pzn:04114918']);
    expect(pairs(detectCodes('04114917'))).not.toContain('pzn:04114917');
  });

  it('upgrades a valid legacy 7-digit PZN to PZN8', () => {
    expect(pairs(detectCodes('4114918'))).toContain('pzn:04114918');
  });

  it('reads national numbers by their register shapes', () => {
    expect(pairs(detectCodes('65317'))).toEqual(['swissmedic_no:65317']);
    expect(pairs(detectCodes('123456'))).toEqual(['dk_varenummer:123456', 'no_varenummer:123456', 'se_varunummer:123456']);
    expect(pairs(detectCodes('712729.7'))).toEqual(['cima_codigo:712729']);
    expect(pairs(detectCodes('RVG 12345'))).toEqual(['cbg_meb_id:12345']);
    expect(pairs(detectCodes('pa0126/173/001'))).toEqual(['ie_pa_number:PA0126/173/001']);
    expect(pairs(detectCodes('ID_11a2acc0-30a3-49b7-9c8b-4a2a1d40f2c3')))
      .toEqual(['no_merkevare_id:ID_11A2ACC0-30A3-49B7-9C8B-4A2A1D40F2C3']);
  });

  it('reads a Verhoeff-valid dm+d extension id', () => {
    const body = '391271100000110';
    const id = body + verhoeffCheckDigit(body);
    expect(pairs(detectCodes(id))).toEqual([`dmd_amppid:${id}`]);
    const wrong = body + String((Number(verhoeffCheckDigit(body)) + 1) % 10);
    expect(pairs(detectCodes(wrong))).not.toContain(`dmd_amppid:${wrong}`);
  });

  it('reads a UNII with a valid check character, any case, and rejects a wrong one', () => {
    expect(detectCodes('362O9ITL9D')).toEqual([{ kind: 'unii', system: 'unii', code: '362O9ITL9D' }]);
    expect(pairs(detectCodes('362o9itl9d'))).toEqual(['unii:362O9ITL9D']);
    expect(detectCodes('362O9ITL9E')).toEqual([]);
  });

  it('reads rxcui:<n>, dropping leading zeros', () => {
    expect(detectCodes('rxcui:161')).toEqual([{ kind: 'rxcui', system: 'rxcui', code: '161' }]);
    expect(pairs(detectCodes('RXCUI: 0161'))).toEqual(['rxcui:161']);
    expect(detectCodes('rxcui:abc')).toEqual([]);
  });

  it('ignores surrounding whitespace and spaces inside numeric codes', () => {
    expect(pairs(detectCodes('  7680 6531 7001 0 '))).toEqual(['gtin:7680653170010']);
  });
});

describe('NDC helpers', () => {
  it('rejects dashed layouts the FDA does not issue', () => {
    expect(ndc11FromDashed('1234-567-89')).toBeNull();
    expect(ndc11FromDashed('123-4567-89')).toBeNull();
  });

  it('splits an undashed 10-digit NDC by the three layouts', () => {
    expect(ndc11FromUndashed10('5058060002')).toEqual(['05058060002', '50580060002', '50580600002']);
    expect(ndc11FromUndashed10('505806000')).toEqual([]);
  });

  it('pads 4-4 and 5-3 product NDCs to 5-4', () => {
    expect(ndcProductFromDashed('50580-600')).toBe('505800600');
    expect(ndcProductFromDashed('0002-3227')).toBe('000023227');
  });
});

describe('atcLevel', () => {
  it('maps code lengths 1, 3, 4, 5, 7 to levels 1..5', () => {
    expect(['A', 'A10', 'A10B', 'A10BA', 'A10BA02'].map(atcLevel)).toEqual([1, 2, 3, 4, 5]);
    expect(atcLevel('a10')).toBeNull();
  });
});

describe('normaliseGtin', () => {
  it('turns GTIN-12 and GTIN-14 with indicator 0 into GTIN-13, keeps GTIN-8', () => {
    expect(normaliseGtin('036000291452')).toBe('0036000291452');
    expect(normaliseGtin('07680653170010')).toBe('7680653170010');
    expect(normaliseGtin('96385074')).toBe('96385074');
    expect(normaliseGtin('17680653170017')).toBe('17680653170017');
  });
});

describe('normaliseIdentifier', () => {
  it('checks GTIN, EAN and CIP13 check digits', () => {
    expect(normaliseIdentifier('gtin', '7680653170010')).toBe('7680653170010');
    expect(normaliseIdentifier('gtin', '7680653170012')).toBeNull();
    expect(normaliseIdentifier('ean', '7680653170010')).toBe('7680653170010');
    expect(normaliseIdentifier('ean', '036000291452')).toBeNull();
    expect(normaliseIdentifier('cip13', '3400930000014')).toBe('3400930000014');
    expect(normaliseIdentifier('cip13', '7680653170010')).toBeNull();
  });

  it('accepts dashed and undashed ndc11 but refuses an ambiguous 10-digit NDC', () => {
    expect(normaliseIdentifier('ndc11', '0002-3227-30')).toBe('00002322730');
    expect(normaliseIdentifier('ndc11', '00002322730')).toBe('00002322730');
    expect(normaliseIdentifier('ndc11', '0002322730')).toBeNull();
  });

  it('normalises PZN, AIC and pharmacode forms', () => {
    expect(normaliseIdentifier('pzn', 'PZN 4114918')).toBe('04114918');
    expect(normaliseIdentifier('pzn', '04114917')).toBeNull();
    expect(normaliseIdentifier('aic', 'A012745283')).toBe('012745283');
    expect(normaliseIdentifier('aic', '012745284')).toBeNull();
    expect(normaliseIdentifier('pharmacode', '0012345')).toBe('12345');
    expect(normaliseIdentifier('pharmacode', '0000000')).toBeNull();
  });

  it('normalises registration and pack numbers of the national registers', () => {
    expect(normaliseIdentifier('swissmedic_no', "65'317")).toBe('65317');
    expect(normaliseIdentifier('swissmedic_no', '653170')).toBeNull();
    expect(normaliseIdentifier('be_apb', '1234-567')).toBe('1234567');
    expect(normaliseIdentifier('be_apb', '34567')).toBe('0034567');
    expect(normaliseIdentifier('cz_kod_sukl', '94114')).toBe('0094114');
    expect(normaliseIdentifier('cbg_meb_id', 'RVG 01234')).toBe('1234');
    expect(normaliseIdentifier('cima_codigo', 'CN 712729.7')).toBe('712729');
    expect(normaliseIdentifier('dk_varenummer', '12345')).toBeNull();
    expect(normaliseIdentifier('se_varunummer', '123456')).toBe('123456');
    expect(normaliseIdentifier('no_varenummer', '123456')).toBe('123456');
    expect(normaliseIdentifier('fi_myyntilupa', 'MT nr 12345')).toBe('12345');
    expect(normaliseIdentifier('fi_myyntilupa', 'eu/1/00/123/001')).toBe('EU/1/00/123/001');
    expect(normaliseIdentifier('ie_pa_number', 'PA 126/173/1')).toBe('PA126/173/1');
    expect(normaliseIdentifier('no_merkevare_id', 'nope')).toBeNull();
  });

  it('validates dm+d ids as SNOMED CT concept ids', () => {
    expect(normaliseIdentifier('dmd_amppid', '73211009')).toBe('73211009');
    expect(normaliseIdentifier('dmd_amppid', '73211008')).toBeNull();
  });

  it('normalises the search-only systems adapters store', () => {
    expect(normaliseIdentifier('ndc', '0002-3227-30')).toBe('0002322730');
    expect(normaliseIdentifier('ndc', '50580-600')).toBe('505800600');
    expect(normaliseIdentifier('unii', '362o9itl9d')).toBe('362O9ITL9D');
    expect(normaliseIdentifier('rxcui', 'rxcui:0161')).toBe('161');
    expect(normaliseIdentifier('cip7', '3398945')).toBe('3398945');
  });

  it('gives null for an unknown system, including inherited object keys', () => {
    expect(normaliseIdentifier('isbn', '123')).toBeNull();
    expect(normaliseIdentifier('toString', '123')).toBeNull();
  });
});
