/**
 * Check-digit arithmetic for the pack and product codes the catalogue stores.
 * Pure functions only: no normalisation beyond what each algorithm defines, so callers
 * (code detection, adapters, demo-data generators) can rely on exact behaviour.
 *
 * Algorithms implemented are the documented ones only:
 * - GS1 mod-10 (GTIN-8/12/13/14, and therefore CIP13/EAN-13 which are GTIN-13s);
 * - German PZN (PZN8: weights 1..7, mod 11, remainder 10 never issued);
 * - Italian Code 32 / Minsan (the 9th digit of an AIC pack code, Luhn-style), as described
 *   for the Farmacode and confirmed on AIFA-published codes (012745321, 012745283);
 * - FDA UNII check character (sum of the base-36 values of the first nine characters,
 *   mod 36), as implemented in FDA's public GSRS source (`GinasUtils.isUnii`);
 * - Verhoeff (the last digit of every SNOMED CT identifier, hence of dm+d ids).
 */

const DIGITS = /^\d+$/;

/** Lengths of the four GTIN formats (GTIN-8, -12 = UPC-A, -13 = EAN-13, -14). */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** Prefix GS1 France reserves for CIP13 codes of medicines (34009). */
export const CIP13_PREFIX = '34009';

function assertDigits(body: string, what: string): void {
  if (!DIGITS.test(body)) throw new RangeError(`${what} must be digits only, got "${body}"`);
}

/**
 * GS1 mod-10 check digit of a GTIN body of any length: from the rightmost body digit
 * leftwards the weights alternate 3, 1, 3 ... (GS1 General Specifications §7.9.1).
 */
export function gtinCheckDigit(body: string): string {
  assertDigits(body, 'GTIN body');
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = Number(body[body.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Body followed by its GS1 check digit, e.g. `768065317001` → `7680653170012`. */
export function completeGtin(body: string): string {
  return body + gtinCheckDigit(body);
}

/** True for an 8, 12, 13 or 14 digit string whose last digit is the GS1 check digit. */
export function isValidGtin(code: string): boolean {
  if (!DIGITS.test(code)) return false;
  if (!(GTIN_LENGTHS as readonly number[]).includes(code.length)) return false;
  return gtinCheckDigit(code.slice(0, -1)) === code.slice(-1);
}

/**
 * PZN8 check digit of the first seven digits: digit i (1-based) weighted by i, sum mod 11.
 * Returns null when the remainder is 10, because IFA never issues such a PZN.
 */
export function pznCheckDigit(body7: string): string | null {
  assertDigits(body7, 'PZN body');
  if (body7.length !== 7) throw new RangeError(`PZN body must have 7 digits, got "${body7}"`);
  let sum = 0;
  for (let i = 0; i < 7; i += 1) sum += Number(body7[i]) * (i + 1);
  const check = sum % 11;
  return check === 10 ? null : String(check);
}

/** True for an 8-digit PZN whose last digit is its mod-11 check digit. */
export function isValidPzn(code8: string): boolean {
  if (!/^\d{8}$/.test(code8)) return false;
  return pznCheckDigit(code8.slice(0, 7)) === code8.slice(7);
}

/** Seven-digit body plus its check digit, or null when that body cannot carry a PZN. */
export function completePzn(body7: string): string | null {
  const check = pznCheckDigit(body7);
  return check === null ? null : body7 + check;
}

/**
 * Old 7-digit PZNs (before 2013) became PZN8 by a leading zero; their weights 2..7 over
 * six digits give the same check digit, so the zero-padded form validates as PZN8.
 */
export function pzn8FromPzn7(code7: string): string | null {
  if (!/^\d{7}$/.test(code7)) return null;
  const code8 = `0${code7}`;
  return isValidPzn(code8) ? code8 : null;
}

/** True for a GTIN-13 in the 34009 range GS1 France reserves for CIP13 medicine packs. */
export function isValidCip13(code: string): boolean {
  return code.length === 13 && code.startsWith(CIP13_PREFIX) && isValidGtin(code);
}

/**
 * Code 32 (Minsan) check digit of the first eight digits of an Italian AIC pack code:
 * odd positions count as is, even positions are doubled with their digits summed, mod 10.
 */
export function aicCheckDigit(body8: string): string {
  assertDigits(body8, 'AIC body');
  if (body8.length !== 8) throw new RangeError(`AIC body must have 8 digits, got "${body8}"`);
  let sum = 0;
  for (let i = 0; i < 8; i += 1) {
    const digit = Number(body8[i]);
    const weighted = i % 2 === 0 ? digit : digit * 2;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return String(sum % 10);
}

/** True for a 9-digit AIC pack code whose last digit is its Code 32 check digit. */
export function isValidAic(code9: string): boolean {
  if (!/^\d{9}$/.test(code9)) return false;
  return aicCheckDigit(code9.slice(0, 8)) === code9.slice(8);
}

/** Eight-digit AIC body plus its Code 32 check digit. */
export function completeAic(body8: string): string {
  return body8 + aicCheckDigit(body8);
}

/** Alphabet of UNII characters; a character's index is its value in the checksum. */
const UNII_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * UNII check character of the first nine characters: the sum of their base-36 values
 * mod 36, read back in the same alphabet (FDA GSRS `GinasUtils.isUnii`).
 */
export function uniiCheckCharacter(body9: string): string {
  if (!/^[0-9A-Z]{9}$/.test(body9)) throw new RangeError(`UNII body must be 9 characters 0-9A-Z, got "${body9}"`);
  let sum = 0;
  for (const ch of body9) sum += UNII_ALPHABET.indexOf(ch);
  return UNII_ALPHABET.charAt(sum % UNII_ALPHABET.length);
}

/** True for a 10-character upper-case UNII whose last character is its check character. */
export function isValidUnii(code: string): boolean {
  if (!/^[0-9A-Z]{10}$/.test(code)) return false;
  return uniiCheckCharacter(code.slice(0, 9)) === code.slice(9);
}

/** Verhoeff multiplication table (dihedral group D5). */
const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
/** Verhoeff position permutation table: row i is row 1 applied i times. */
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
/** Verhoeff inverse table. */
const VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

function verhoeffState(digits: string, offset: number): number {
  let c = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    c = VERHOEFF_D[c]![VERHOEFF_P[(i + offset) % 8]![digit]!]!;
  }
  return c;
}

/** Verhoeff check digit of a digit string (SNOMED CT Technical Implementation Guide). */
export function verhoeffCheckDigit(body: string): string {
  assertDigits(body, 'Verhoeff body');
  return String(VERHOEFF_INV[verhoeffState(body, 1)]);
}

/** True when the last digit of a digit string is its Verhoeff check digit. */
export function isValidVerhoeff(code: string): boolean {
  if (!DIGITS.test(code) || code.length < 2) return false;
  return verhoeffState(code, 0) === 0;
}

/**
 * True for a SNOMED CT concept id (dm+d ids are SNOMED CT ids): 6 to 18 digits, no leading
 * zero, partition digit 0 (core concept) or 1 with a namespace (extension concept) before
 * the Verhoeff check digit.
 */
export function isValidSctConceptId(code: string): boolean {
  if (!/^[1-9]\d{5,17}$/.test(code)) return false;
  const partition = code.slice(-3, -1);
  return (partition === '00' || partition === '10') && isValidVerhoeff(code);
}

/**
 * Austrian Pharmazentralnummer check digit (ARGE Pharma, published by the Apothekerkammer):
 * the six body digits weighted 2 to 7 from the left, sum mod 11; a remainder of 10 is never issued.
 * Austrian and German PZN7 share the arithmetic but are assigned independently.
 */
export function atPznCheckDigit(body6: string): string | null {
  assertDigits(body6, 'Austrian PZN body');
  if (body6.length !== 6) throw new RangeError(`Austrian PZN body must have 6 digits, got "${body6}"`);
  let sum = 0;
  for (let i = 0; i < 6; i += 1) sum += Number(body6[i]) * (i + 2);
  const check = sum % 11;
  return check === 10 ? null : String(check);
}

/** True for a 7-digit Austrian PZN whose last digit is its mod-11 check digit. */
export function isValidAtPzn(code7: string): boolean {
  if (!/^\d{7}$/.test(code7)) return false;
  return atPznCheckDigit(code7.slice(0, 6)) === code7.slice(6);
}
