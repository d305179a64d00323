/**
 * Reading a search query or a lookup code as a pharmaceutical code.
 *
 * `detectCodes` lists every interpretation of a query string as a code, in the order the
 * API documents for GET /v1/drugs (ATC, NDC, GTIN, CIP13, CIP7, AIC, PZN, national numbers,
 * UNII, RxCUI); `normaliseIdentifier` turns a lookup `system` + raw code into the form
 * stored in the identifiers table, or null when the code is malformed for that system.
 * Adapters use the same functions, so stored and queried codes always agree.
 */
import type { IdentifierSystem, LookupSystem } from './systems.ts';
import {
  isValidAic, isValidCip13, isValidGtin, isValidPzn, isValidSctConceptId, isValidUnii, pzn8FromPzn7,
} from './check-digits.ts';
import { isValidAtPzn } from './check-digits.ts';
import {
  normaliseAtPzn, normaliseAtZulassungsnummer, normaliseBeAmpCode, normaliseBeAmppCode, normaliseCbgMebId, normaliseCimaCodigo,
  normaliseEsNregistro, normaliseFestId, normaliseIePaNumber,
} from './national-codes.ts';
import { ndc11FromDashed, ndc11FromUndashed10, ndcProductFromDashed } from './ndc-codes.ts';

export {
  normaliseAtPzn, normaliseAtZulassungsnummer, normaliseBeAmpCode, normaliseBeAmppCode, normaliseCbgMebId, normaliseCimaCodigo,
  normaliseEsNregistro, normaliseFestId, normaliseIePaNumber,
};

export type CodeKind =
  | 'atc' | 'atc_class' | 'ndc' | 'ndc_product' | 'gtin' | 'cip13' | 'cip7' | 'cis' | 'aic' | 'pzn'
  | 'eu_number' | 'national' | 'unii' | 'rxcui';

/** One reading of a query as a code. */
export interface CodeCandidate {
  kind: CodeKind;
  /** `atc` for ATC codes, otherwise the identifier system the code is stored under. */
  system: IdentifierSystem | 'atc';
  /** Normalised code, exactly as stored (digits only, or upper case). */
  code: string;
  /** ATC level 1..5 (only for `atc` and `atc_class`). */
  level?: number;
  /** True when the query has several equally valid readings of this kind (undashed NDC10). */
  ambiguous?: boolean;
}

/** WHO ATC anatomical main groups; other letters never start an ATC code. */
const ATC_GROUPS = 'ABCDGHJLMNPRSV';
/** ATC shape by level: letter, 2 digits, letter, letter, 2 digits. */
const ATC_PATTERN = /^[A-Z](?:\d{2}(?:[A-Z](?:[A-Z](?:\d{2})?)?)?)?$/;
/** Code length to ATC level (1, 3, 4, 5, 7 characters). */
const ATC_LEVEL_BY_LENGTH: Record<number, number> = { 1: 1, 3: 2, 4: 3, 5: 4, 7: 5 };

/** ATC level of a normalised code, or null when it is not ATC-shaped. */
export function atcLevel(code: string): number | null {
  if (!ATC_PATTERN.test(code) || !ATC_GROUPS.includes(code.charAt(0))) return null;
  return ATC_LEVEL_BY_LENGTH[code.length] ?? null;
}

function detectAtc(q: string): CodeCandidate[] {
  const code = q.toUpperCase();
  const level = atcLevel(code);
  if (level === null) return [];
  return [{ kind: level === 5 ? 'atc' : 'atc_class', system: 'atc', code, level }];
}

function detectNdc(raw: string): CodeCandidate[] {
  // Labels print the code as `NDC 0093-7155-98` (or `NDC: ...`); the prefix is not part of it.
  const stripped = raw.replace(/^NDC[\s:#-]*/i, '');
  const q = /^[\d\s]+$/.test(stripped) ? stripped.replace(/\s+/g, '') : stripped;
  const dashed = ndc11FromDashed(q);
  if (dashed) return [{ kind: 'ndc', system: 'ndc11', code: dashed }];
  const product = ndcProductFromDashed(q);
  if (product) return [{ kind: 'ndc_product', system: 'ndc', code: product }];
  // An undashed 10-digit NDC cannot be split safely: offer all three layouts, plus the
  // 10 digits themselves, which adapters store as written under `ndc`.
  if (/^\d{10}$/.test(q)) {
    return [
      ...ndc11FromUndashed10(q).map((code): CodeCandidate => ({ kind: 'ndc', system: 'ndc11', code, ambiguous: true })),
      { kind: 'ndc', system: 'ndc', code: q },
    ];
  }
  // Undashed 11 digits can only be the 5-4-2 billing form.
  if (/^\d{11}$/.test(q)) return [{ kind: 'ndc', system: 'ndc11', code: q }];
  return [];
}

/**
 * Canonical stored GTIN: GTIN-12 (UPC-A) and GTIN-14 with indicator 0 become the GTIN-13
 * they denote, so one pack has one key; GTIN-8 and other GTIN-14 stay as they are.
 */
export function normaliseGtin(code: string): string | null {
  if (!isValidGtin(code)) return null;
  if (code.length === 12) return `0${code}`;
  if (code.length === 14 && code.startsWith('0')) return code.slice(1);
  return code;
}

function detectGtin(q: string): CodeCandidate[] {
  const gtin = normaliseGtin(q);
  if (!gtin) return [];
  const out: CodeCandidate[] = [{ kind: 'gtin', system: 'gtin', code: gtin }];
  // US drug UPCs are number system 3 followed by the 10-digit NDC as printed.
  if (gtin.length === 13 && gtin.startsWith('03')) out.push({ kind: 'ndc', system: 'ndc', code: gtin.slice(2, 12) });
  return out;
}

function detectFrench(q: string): CodeCandidate[] {
  const out: CodeCandidate[] = [];
  if (isValidCip13(q)) out.push({ kind: 'cip13', system: 'cip13', code: q });
  // CIP7 numbers are 7 digits; BDPM presentations use 3xxxxxx to 5xxxxxx. No check digit is published.
  if (/^[345]\d{6}$/.test(q)) out.push({ kind: 'cip7', system: 'cip7', code: q });
  // CIS specialty codes are 8 digits, all starting with 6 in the BDPM.
  if (/^6\d{7}$/.test(q)) out.push({ kind: 'cis', system: 'cis', code: q });
  return out;
}

/** An EU authorisation number; a pack-level one also reads as its product's (the EMA report's key). */
function detectEuNumber(q: string): CodeCandidate[] {
  const range = euNumberRange(q);
  if (range) return [...range, /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(range[0]!)![0]].map((code) => ({ kind: 'eu_number' as const, system: 'eu_number' as const, code }));
  const code = EXTRA_NORMALISERS.eu_number(q);
  if (!code) return [];
  const product = /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(code)![0];
  return [{ kind: 'eu_number', system: 'eu_number', code }, ...(product !== code ? [{ kind: 'eu_number' as const, system: 'eu_number' as const, code: product }] : [])];
}

/**
 * The pack numbers of an EU range as national lists publish it (`EU/1/20/1422/016-017` →
 * `EU/1/20/1422/016`, `EU/1/20/1422/017`), or null when `raw` is not a range of at most 100 packs.
 */
export function euNumberRange(raw: string): string[] | null {
  const m = /^(EU\/[12]\/\d{2}\/\d{3,4})\/(\d{3,4})-(\d{3,4})$/.exec(raw.replace(/\s+/g, '').toUpperCase());
  if (!m) return null;
  const [first, last] = [Number(m[2]), Number(m[3])];
  if (last < first || last - first >= 100) return null;
  return Array.from({ length: last - first + 1 }, (_, i) => `${m[1]}/${String(first + i).padStart(m[2]!.length, '0')}`);
}

/**
 * AIC pack codes: 9 digits with a Code 32 check digit, printed with an `A` prefix in OCR-A, and
 * written as a number without its leading zero (8 digits) in AIFA's lists and spreadsheets.
 */
export function normaliseAic(raw: string): string | null {
  const code = raw.replace(/^A/i, '');
  const full = /^\d{8}$/.test(code) ? `0${code}` : code;
  return isValidAic(full) ? full : null;
}

/** PZN: PZN8, legacy PZN7 (zero-padded), optionally written `PZN-` or `PZN `. */
export function normalisePzn(raw: string): string | null {
  const code = raw.replace(/^PZN[\s-]?/i, '');
  if (/^\d{8}$/.test(code)) return isValidPzn(code) ? code : null;
  return pzn8FromPzn7(code);
}

function detectAicPzn(q: string): CodeCandidate[] {
  const out: CodeCandidate[] = [];
  const aic = normaliseAic(q);
  if (aic) out.push({ kind: 'aic', system: 'aic', code: aic });
  const pzn = normalisePzn(q);
  if (pzn) out.push({ kind: 'pzn', system: 'pzn', code: pzn });
  return out;
}

/** Nordic article numbers (Vnr) for medicines: 000001-199999 and 370000-599999 (NNC). */
function isMedicineVnr(code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const n = Number(code);
  return (n >= 1 && n <= 199_999) || (n >= 370_000 && n <= 599_999);
}

/** A SAM AMP code typed into search: the `SAM` prefix makes the shape distinctive. */
function detectBelgian(q: string): CodeCandidate[] {
  const code = normaliseBeAmpCode(q);
  return code ? [{ kind: 'national', system: 'be_amp_code', code }] : [];
}

/** A 7-digit number read as an Austrian PZN where its check digit holds. */
function detectAtPzn(q: string): CodeCandidate[] {
  return /^\d{7}$/.test(q) && isValidAtPzn(q) ? [{ kind: 'national', system: 'at_pzn', code: q }] : [];
}

function national(system: LookupSystem, code: string): CodeCandidate {
  return { kind: 'national', system, code };
}

/** Bare-number national readings, by length; each range below is the register's own. */
function detectNationalDigits(q: string): CodeCandidate[] {
  const out: CodeCandidate[] = [];
  // Swissmedic: 5-digit authorisation number, 8-digit pack number (5 + 3).
  if (/^\d{5}$/.test(q) || /^\d{8}$/.test(q)) out.push(national('swissmedic_no', q));
  if (isMedicineVnr(q)) {
    for (const system of ['dk_varenummer', 'no_varenummer', 'se_varunummer'] as const) out.push(national(system, q));
  }
  if (/^[6-9]\d{5}$/.test(q)) out.push(national('cima_codigo', q));
  // 7 digits: Swiss pharmacode (legacy padded form), Belgian CNK, Czech SÚKL code.
  if (/^\d{7}$/.test(q)) {
    if (Number(q) > 0) out.push(national('pharmacode', String(Number(q))));
    out.push(national('be_apb', q), national('cz_kod_sukl', q));
  }
  // dm+d ids are SNOMED CT extension ids in namespace 1000001 (suffix 1000001 + partition 10).
  if (/^\d+100000110\d$/.test(q) && isValidSctConceptId(q)) out.push(national('dmd_amppid', q));
  return out;
}

function detectNationalPrefixed(q: string): CodeCandidate[] {
  if (/^CN\s*\d{6}(?:\.\d)?$/i.test(q) || /^\d{6}\.\d$/.test(q)) {
    return [national('cima_codigo', normaliseCimaCodigo(q)!)];
  }
  if (/^RV[GH]\s*\d{1,6}$/i.test(q)) return [national('cbg_meb_id', normaliseCbgMebId(q)!)];
  const pa = normaliseIePaNumber(q);
  if (pa && /^(?:P?PA|TR|HOR)/i.test(q)) return [national('ie_pa_number', pa)];
  const fest = normaliseFestId(q);
  return fest ? [national('no_merkevare_id', fest)] : [];
}

function detectUnii(q: string): CodeCandidate[] {
  const code = q.toUpperCase();
  if (!isValidUnii(code)) return [];
  // A lower-case ten-letter word passes the mod-36 check 1 time in 36; require a digit then.
  if (code !== q && !/\d/.test(code)) return [];
  return [{ kind: 'unii', system: 'unii', code }];
}

function detectRxcui(q: string): CodeCandidate[] {
  const m = /^rxcui:\s*0*(\d{1,9})$/i.exec(q);
  return m ? [{ kind: 'rxcui', system: 'rxcui', code: m[1]! }] : [];
}

/**
 * Swedish NPL ids (product `NPL-id`, pack `NPL-pack-id`): 14 digits, most led by the date the id
 * was issued (20030101100055), licence products by 1001 (10010101000011). Offered only when the
 * digits are not also a valid GTIN-14, so a query never reads as both.
 */
function detectSwedishNpl(q: string): CodeCandidate[] {
  if (!NPL_SHAPE.test(q) || isValidGtin(q)) return [];
  return [{ kind: 'national', system: 'se_npl_id', code: q }, { kind: 'national', system: 'se_npl_pack_id', code: q }];
}

/** NPL ids as Läkemedelsverket issues them: 14 digits beginning with 1 or 2. */
const NPL_SHAPE = /^[12]\d{13}$/;

/**
 * Every reading of `q` as a code, in the spec's order; [] for a plain name.
 * Separators inside a purely numeric code (spaces) are ignored; dashes only count for NDCs.
 */
export function detectCodes(q: string): CodeCandidate[] {
  const trimmed = q.trim();
  if (trimmed === '') return [];
  const compact = /^[\d\s]+$/.test(trimmed) ? trimmed.replace(/\s+/g, '') : trimmed;
  return [
    ...detectAtc(compact),
    ...detectNdc(compact),
    ...detectGtin(compact),
    ...detectFrench(compact),
    ...detectEuNumber(compact),
    ...detectAicPzn(compact),
    ...detectNationalDigits(compact),
    ...detectNationalPrefixed(compact),
    ...detectAtPzn(compact),
    ...detectBelgian(compact),
    ...detectUnii(compact),
    ...detectRxcui(compact),
    ...detectSwedishNpl(compact),
  ];
}

/** Digits-only code of a fixed length range, with spaces and dashes removed. */
function digits(raw: string, min: number, max: number): string | null {
  const code = raw.replace(/[\s-]/g, '');
  return code.length >= min && code.length <= max && ALL_DIGITS.test(code) ? code : null;
}

// Not a RegExp built per call: every typeahead runs every detector.
const ALL_DIGITS = /^\d+$/;

/** Per lookup system: raw code → stored code, or null when malformed. */
const NORMALISERS: Record<LookupSystem, (raw: string) => string | null> = {
  gtin: (raw) => normaliseGtin(raw.replace(/\s/g, '')),
  // `ean` is the retail name of the GTIN-13: same number, same stored key.
  ean: (raw) => {
    const code = raw.replace(/\s/g, '');
    return code.length === 13 ? normaliseGtin(code) : null;
  },
  cip13: (raw) => {
    const code = raw.replace(/\s/g, '');
    return isValidCip13(code) ? code : null;
  },
  pzn: (raw) => normalisePzn(raw.trim()),
  // HL7 Italia names the AIC code system urn:oid:2.16.840.1.113883.2.9.6.1.5 (FHIR and CDA).
  aic: (raw) => normaliseAic(raw.trim()),
  ndc11: (raw) => {
    const code = raw.trim();
    if (/^\d{11}$/.test(code)) return code;
    return ndc11FromDashed(code);
  },
  // Pharmacodes are integers since 2015; the legacy form pads them to 7 digits with zeros.
  pharmacode: (raw) => {
    const code = digits(raw, 1, 10);
    return code && Number(code) > 0 ? String(Number(code)) : null;
  },
  swissmedic_no: (raw) => {
    const code = raw.replace(/[\s.'-]/g, '');
    return /^\d{5}$/.test(code) || /^\d{8}$/.test(code) ? code : null;
  },
  dmd_amppid: (raw) => {
    const code = raw.trim();
    return isValidSctConceptId(code) ? code : null;
  },
  // CNK codes are 7 digits; printed forms drop leading zeros or insert a dash (1234-567).
  be_apb: (raw) => {
    const code = digits(raw, 1, 7);
    return code ? code.padStart(7, '0') : null;
  },
  cbg_meb_id: normaliseCbgMebId,
  cima_codigo: normaliseCimaCodigo,
  // SÚKL codes are 7 digits with leading zeros, often printed without them.
  cz_kod_sukl: (raw) => {
    const code = digits(raw, 1, 7);
    return code ? code.padStart(7, '0') : null;
  },
  dk_varenummer: (raw) => digits(raw, 6, 6),
  no_varenummer: (raw) => digits(raw, 6, 6),
  se_varunummer: (raw) => digits(raw, 6, 6),
  // Finnish authorisation numbers: a national serial number or a centralised EU number.
  fi_myyntilupa: (raw) => {
    const code = raw.replace(/^MT\s*(?:NR|NRO)?\.?\s*/i, '').trim().toUpperCase();
    return /^\d{1,6}$/.test(code) || /^EU\/\d\/\d{2}\/\d{3,4}\/\d{3,4}$/.test(code) ? code : null;
  },
  ie_pa_number: normaliseIePaNumber,
  no_merkevare_id: normaliseFestId,
};

/** Search-only systems, normalised the same way so adapters store what detection yields. */
const EXTRA_NORMALISERS: Record<Exclude<IdentifierSystem, LookupSystem>, (raw: string) => string | null> = {
  // Package NDCs are kept as printed (10 digits); product NDCs in the padded 5-4 form,
  // because the digits of 4-4 and 5-3 products could otherwise collide.
  ndc: (raw) => {
    const code = raw.trim();
    if (/^\d{4,5}-\d{3,4}-\d{1,2}$/.test(code) && ndc11FromDashed(code)) return code.replace(/-/g, '');
    if (/^\d{10}$/.test(code)) return code;
    return ndcProductFromDashed(code) ?? (/^\d{9}$/.test(code) ? code : null);
  },
  cip7: (raw) => digits(raw, 7, 7),
  unii: (raw) => {
    const code = raw.trim().toUpperCase();
    return isValidUnii(code) ? code : null;
  },
  rxcui: (raw) => {
    const m = /^(?:rxcui:\s*)?0*(\d{1,9})$/i.exec(raw.trim());
    return m ? m[1]! : null;
  },
  // French CIS: the 8-digit specialty code of the BDPM.
  cis: (raw) => digits(raw, 8, 8),
  // EU authorisation number of a centrally authorised product (`EU/1/yy/nnn`) or pack (`/ppp`).
  eu_number: (raw) => {
    const code = raw.replace(/\s+/g, '').toUpperCase();
    return /^EU\/[12]\/\d{2}\/\d{3,4}(\/\d{3,4})?$/.test(code) ? code : null;
  },
  // EMA procedure number, e.g. `EMEA/H/C/000471`.
  ema_procedure: (raw) => {
    const code = raw.replace(/\s+/g, '').toUpperCase();
    return /^EMEA\/[HV]\/C\/[A-Z0-9]+$/.test(code) ? code : null;
  },
  // dm+d concept ids of the other levels: SNOMED CT ids (Verhoeff check digit) like AMPP ids.
  dmd_vmpid: (raw) => NORMALISERS.dmd_amppid(raw),
  dmd_vmppid: (raw) => NORMALISERS.dmd_amppid(raw),
  dmd_apid: (raw) => NORMALISERS.dmd_amppid(raw),
  dmd_vtmid: (raw) => NORMALISERS.dmd_amppid(raw),
  // No published FHIR NamingSystem URI was found for these three national numbers.
  es_nregistro: normaliseEsNregistro,
  at_pzn: normaliseAtPzn,
  at_zulassungsnummer: normaliseAtZulassungsnummer,
  // Danish Drug ID (takst lms01), 11 digits; FHIR system https://laegemiddelstyrelsen.dk/LMS01/DrugID.
  // Not detected in typeahead `q`: 11 digits read as an NDC-11 too.
  dk_drug_id: (raw) => digits(raw, 11, 11),
  // Free-form national numbers: compared upper case without spaces.
  national: (raw) => {
    const code = raw.replace(/\s+/g, '').toUpperCase();
    return code === '' ? null : code;
  },
  // Swedish NPL product id (Läkemedelsverket's NPL-id of a medicinal product).
  se_npl_id: (raw) => (NPL_SHAPE.test(raw.replace(/[\s-]/g, '')) ? raw.replace(/[\s-]/g, '') : null),
  // Swedish NPL pack id; FHIR system http://electronichealth.se/identifier/nplpackid (its Varunummer: .../identifier/varunr).
  se_npl_pack_id: (raw) => (NPL_SHAPE.test(raw.replace(/[\s-]/g, '')) ? raw.replace(/[\s-]/g, '') : null),
  // Finnish Vnr (Nordic article number, 6 digits) as Fimea and Kela print it; leading zeros kept.
  fi_vnr: (raw) => digits(raw, 6, 6),
  // AIFA product code (AIC6, COD_FARMACO): the first six digits of every AIC of the medicine.
  it_aic6: (raw) => {
    const code = digits(raw, 1, 6);
    return code ? code.padStart(6, '0') : null;
  },
  // Infarmed número de registo of a presentation (7 digits; exports sometimes drop leading zeros).
  pt_registo: (raw) => {
    const code = digits(raw.replace(/^N\.?º\s*/i, ''), 1, 7);
    return code && Number(code) > 0 ? code.padStart(7, '0') : null;
  },
  // CNPEM, the Portuguese prescription grouping code (same substance, strength, form and pack size): 8 digits.
  pt_cnpem: (raw) => digits(raw, 8, 8),
  be_amp_code: normaliseBeAmpCode,
  be_ampp_code: normaliseBeAmppCode,
};

const ALL_NORMALISERS: Record<string, ((raw: string) => string | null) | undefined> = {
  ...NORMALISERS, ...EXTRA_NORMALISERS,
};

/**
 * Stored form of `code` under `system` (a lookup system or a search-only one), or null
 * when the code is malformed for it (wrong check digit, wrong shape) or the system unknown.
 */
export function normaliseIdentifier(system: string, code: string): string | null {
  const normalise = Object.hasOwn(ALL_NORMALISERS, system) ? ALL_NORMALISERS[system] : undefined;
  return normalise ? normalise(code) : null;
}
