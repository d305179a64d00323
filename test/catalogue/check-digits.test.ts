import { describe, expect, it } from 'vitest';
import {
  aicCheckDigit, completeAic, completeGtin, completePzn, gtinCheckDigit, isValidAic, isValidCip13,
  isValidGtin, isValidPzn, isValidSctConceptId, isValidUnii, isValidVerhoeff, pzn8FromPzn7, pznCheckDigit,
  uniiCheckCharacter, verhoeffCheckDigit,
} from '../../vocabulary/check-digits.ts';

describe('gtinCheckDigit', () => {
  it('computes the GS1 mod-10 digit of the published UPC-A example 03600029145(2)', () => {
    expect(gtinCheckDigit('03600029145')).toBe('2');
  });

  it('computes the digit of the published EAN-8 example 9638507(4)', () => {
    expect(gtinCheckDigit('9638507')).toBe('4');
  });

  it('computes the digit of a Swiss 7680 pack body (Swissmedic 65317, pack 001)', () => {
    expect(gtinCheckDigit('768065317001')).toBe('0');
  });

  it('handles a GTIN-14 body, where the indicator digit gets weight 3 too', () => {
    expect(gtinCheckDigit('1768065317001')).toBe('7');
  });

  it('gives 0 when the weighted sum is already a multiple of ten', () => {
    expect(gtinCheckDigit('000000000000')).toBe('0');
  });

  it('rejects a body containing non-digits', () => {
    expect(() => gtinCheckDigit('76806531700A')).toThrow(RangeError);
  });
});

describe('completeGtin', () => {
  it('appends the check digit to the body', () => {
    expect(completeGtin('768065317001')).toBe('7680653170010');
  });
});

describe('isValidGtin', () => {
  it('accepts GTIN-8, GTIN-12, GTIN-13 and GTIN-14 with correct check digits', () => {
    expect(isValidGtin('96385074')).toBe(true);
    expect(isValidGtin('036000291452')).toBe(true);
    expect(isValidGtin('7680653170010')).toBe(true);
    expect(isValidGtin('17680653170017')).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidGtin('7680653170012')).toBe(false);
  });

  it('rejects lengths that are not GTIN lengths', () => {
    expect(isValidGtin('76806531700')).toBe(false);
    expect(isValidGtin('123456789012345')).toBe(false);
  });

  it('rejects non-digit input', () => {
    expect(isValidGtin('768065317001X')).toBe(false);
    expect(isValidGtin('')).toBe(false);
  });
});

describe('pznCheckDigit', () => {
  it('weights the seven digits 1..7 and takes the sum mod 11', () => {
    // 0*1 + 4*2 + 1*3 + 1*4 + 4*5 + 9*6 + 1*7 = 96, 96 mod 11 = 8
    expect(pznCheckDigit('0411491')).toBe('8');
  });

  it('returns null when the remainder is 10, since such PZNs are never issued', () => {
    expect(pznCheckDigit('1000481')).toBeNull();
  });

  it('refuses a body that is not seven digits', () => {
    expect(() => pznCheckDigit('041149')).toThrow(RangeError);
  });
});

describe('isValidPzn', () => {
  it('accepts PZN 04114918', () => {
    expect(isValidPzn('04114918')).toBe(true);
  });

  it('rejects a wrong check digit and a wrong length', () => {
    expect(isValidPzn('04114917')).toBe(false);
    expect(isValidPzn('4114918')).toBe(false);
  });
});

describe('completePzn', () => {
  it('appends the check digit, or gives null for an unusable body', () => {
    expect(completePzn('0411491')).toBe('04114918');
    expect(completePzn('1000481')).toBeNull();
  });
});

describe('pzn8FromPzn7', () => {
  it('turns a valid legacy 7-digit PZN into its PZN8 by a leading zero', () => {
    expect(pzn8FromPzn7('4114918')).toBe('04114918');
  });

  it('gives null for an invalid legacy PZN', () => {
    expect(pzn8FromPzn7('4114917')).toBeNull();
    expect(pzn8FromPzn7('41149')).toBeNull();
  });
});

describe('isValidCip13', () => {
  it('accepts a GTIN-13 in the 34009 range', () => {
    expect(isValidCip13(completeGtin('340093398945'))).toBe(true);
  });

  it('rejects a valid GTIN-13 outside the 34009 range', () => {
    expect(isValidCip13('7680653170010')).toBe(false);
  });

  it('rejects a 34009 code with a wrong check digit', () => {
    expect(isValidCip13('3400933989454')).toBe(false);
  });
});

describe('aicCheckDigit', () => {
  it('reproduces the check digits of AIFA-published Tachipirina pack codes', () => {
    expect(aicCheckDigit('01274532')).toBe('1');
    expect(aicCheckDigit('01274528')).toBe('3');
    expect(completeAic('01274535')).toBe('012745358');
  });

  it('refuses a body that is not eight digits', () => {
    expect(() => aicCheckDigit('0127453')).toThrow(RangeError);
  });
});

describe('isValidAic', () => {
  it('accepts published AIC codes and rejects a changed check digit', () => {
    expect(isValidAic('012745333')).toBe(true);
    expect(isValidAic('012745345')).toBe(true);
    expect(isValidAic('012745346')).toBe(false);
  });

  it('rejects anything that is not nine digits', () => {
    expect(isValidAic('A012745333')).toBe(false);
    expect(isValidAic('12745333')).toBe(false);
  });
});

describe('uniiCheckCharacter', () => {
  it('reproduces the check character of real UNIIs', () => {
    expect(uniiCheckCharacter('362O9ITL9')).toBe('D');
    expect(uniiCheckCharacter('R16CO5Y76')).toBe('E');
    expect(uniiCheckCharacter('059QF0KO0')).toBe('R');
  });

  it('refuses lower case or short bodies', () => {
    expect(() => uniiCheckCharacter('362o9itl9')).toThrow(RangeError);
    expect(() => uniiCheckCharacter('362O9ITL')).toThrow(RangeError);
  });
});

describe('isValidUnii', () => {
  it('accepts the UNIIs of paracetamol, aspirin, ibuprofen and methadone', () => {
    for (const unii of ['362O9ITL9D', 'R16CO5Y76E', 'WK2XYI10QM', 'UC6VBE7V1Z']) {
      expect(isValidUnii(unii)).toBe(true);
    }
  });

  it('rejects a wrong check character, lower case and wrong lengths', () => {
    expect(isValidUnii('362O9ITL9E')).toBe(false);
    expect(isValidUnii('362o9itl9d')).toBe(false);
    expect(isValidUnii('362O9ITL9')).toBe(false);
  });
});

describe('verhoeffCheckDigit', () => {
  it('computes the textbook example 236 → 3', () => {
    expect(verhoeffCheckDigit('236')).toBe('3');
    expect(isValidVerhoeff('2363')).toBe(true);
    expect(isValidVerhoeff('2364')).toBe(false);
  });
});

describe('isValidSctConceptId', () => {
  it('accepts real SNOMED CT concept ids', () => {
    for (const id of ['138875005', '404684003', '73211009', '38341003']) expect(isValidSctConceptId(id)).toBe(true);
  });

  it('rejects a wrong check digit, a description partition and a leading zero', () => {
    expect(isValidSctConceptId('73211008')).toBe(false);
    const description = `12345${'01'}`;
    expect(isValidSctConceptId(description + verhoeffCheckDigit(description))).toBe(false);
    expect(isValidSctConceptId('073211009')).toBe(false);
  });
});
