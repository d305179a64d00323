/**
 * Normalisers of the national registers' own numbers (ES, IE, NL, BE, NO, AT): raw code →
 * the form stored in the identifiers table, or null when malformed. codes.ts wires them into
 * detection and `normaliseIdentifier`; adapters import them from there.
 */
import { isValidAtPzn } from './check-digits.ts';

/** Spanish Código Nacional: 6 digits (medicines 600000-999999), optional `.d` control digit. */
export function normaliseCimaCodigo(raw: string): string | null {
  const m = /^(?:CN\s*)?(\d{6})(?:\.?\d)?$/i.exec(raw.replace(/\s+/g, ' ').trim());
  return m ? m[1]! : null;
}

/**
 * Irish HPRA licence numbers: PA (PPA for parallel imports, TR for traditional herbal and HOR
 * for homeopathic registrations) + holder/product/pack, e.g. PA0126/173/001; older licences
 * carry a letter after the pack (PA0167/051/005A).
 */
export function normaliseIePaNumber(raw: string): string | null {
  const code = raw.replace(/\s+/g, '').toUpperCase();
  return /^(?:P?PA|TR|HOR)\d{1,5}\/\d{1,4}(?:\/\d{1,4}[A-Z]?)?$/.test(code) ? code : null;
}

/** Dutch CBG-MEB numbers: RVG (or RVH) followed by the registration number. */
export function normaliseCbgMebId(raw: string): string | null {
  const m = /^(?:RV[GH]\s*)?(\d{1,6})$/i.exec(raw.trim());
  return m ? String(Number(m[1])) : null;
}

/**
 * Belgian SAM AMP code (actual medicinal product of the FAMHP authentic source): `SAM`, six
 * digits, a dash and two digits (`SAM123456-01`). No FHIR naming system is published for it.
 */
export function normaliseBeAmpCode(raw: string): string | null {
  const code = raw.replace(/\s+/g, '').toUpperCase();
  return /^SAM\d{6}-\d{2}$/.test(code) ? code : null;
}

/**
 * Belgian SAM AMPP code: the CTI-extended number of a pack (`123456-01`: CTI and pack sequence).
 * HL7 Belgium naming system: https://www.ehealth.fgov.be/standards/fhir/medication/NamingSystem/cti-extended-code
 * (the CNK, lookup system `be_apb`, is https://www.ehealth.fgov.be/standards/fhir/medication/NamingSystem/cnk-codes).
 */
export function normaliseBeAmppCode(raw: string): string | null {
  const code = raw.replace(/\s+/g, '');
  return /^\d{6}-\d{2}$/.test(code) ? code : null;
}

/** Norwegian FEST ids: `ID_` followed by a GUID, compared upper case. */
export function normaliseFestId(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return /^ID_[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/.test(code) ? code : null;
}

/**
 * Austrian Pharmazentralnummer: 7 digits with a mod-11 check digit (check-digits.ts), printed
 * `PZN 1234567` or with its leading zeros dropped by spreadsheets. Not the German PZN: the two
 * are assigned independently, so they are kept apart (`at_pzn` here, `pzn` for Germany).
 */
export function normaliseAtPzn(raw: string): string | null {
  const code = raw.replace(/^PZN[\s:-]*/i, '').replace(/[\s-]/g, '');
  if (!/^\d{1,7}$/.test(code)) return null;
  const padded = code.padStart(7, '0');
  return isValidAtPzn(padded) ? padded : null;
}

/**
 * Austrian Zulassungsnummer (BASG Arzneispezialitätenregister): `1-23456`, `16.345`, the newer
 * purely numeric `140123`, or an EU number for central authorisations; a `Z.Nr.` prefix and
 * spaces are dropped, letters compared upper case.
 */
export function normaliseAtZulassungsnummer(raw: string): string | null {
  const code = raw.replace(/^Z\.?\s*-?\s*NR\.?[\s:]*/i, '').replace(/\s+/g, '').toUpperCase();
  return /^[0-9A-Z][0-9A-Z./-]{0,24}$/.test(code) && /\d/.test(code) ? code : null;
}

/** Spanish registration number (AEMPS `nregistro`, `nro_definitivo`): as written, dots and spaces dropped (`62.693` → `62693`). */
export function normaliseEsNregistro(raw: string): string | null {
  const code = raw.replace(/[\s.]/g, '').toUpperCase();
  return /^[0-9A-Z-]{1,15}$/.test(code) && /\d/.test(code) ? code : null;
}
