/**
 * A generated dm+d release of the real release's shape and size, for the large-ingest bench and
 * the streamed adapter's tests: the nine files (lookup in ISO-8859-1, the others UTF-8 with
 * accented names), ids with valid SNOMED CT check digits, GTINs with valid check digits, Drug
 * Tariff and list prices, and a few malformed records the adapter must report (an AMP with a
 * bad APID, an AMPP repeating the one before it, a price that is not whole pence).
 * The real release holds about 150 000 AMPs, 25 000 VMPs and 170 000 AMPPs.
 */
import { join } from 'node:path';
import { completeGtin, verhoeffCheckDigit } from '../vocabulary/check-digits.ts';
import { writeLines } from './write-file.ts';

/** A dm+d id of kind `kind` (1–9) and number `i`: item, the NHS namespace 1000001, partition 10 and a Verhoeff check digit. */
export function sctId(kind: number, i: number): string {
  const body = `${kind}${String(i).padStart(7, '0')}100000110`;
  return `${body}${verhoeffCheckDigit(body)}`;
}

/** Sizes of a release of `amps` AMPs, in the proportions of the real one. */
export function releaseSizes(amps: number): { amps: number; vmps: number; ingredients: number } {
  return { amps, vmps: Math.max(1, Math.ceil(amps / 6)), ingredients: Math.max(1, Math.ceil(amps / 50)) };
}

const FORMS = ['Tablet', 'Capsule', 'Solution for injection', 'Cream', 'Oral suspension'];
const ROUTES = ['Oral', 'Oral', 'Intravenous', 'Cutaneous', 'Oral'];
const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const field = (tag: string, value: string | number): string => `<${tag}>${esc(String(value))}</${tag}>`;
const record = (tag: string, fields: Record<string, string | number>): string =>
  `<${tag}>${Object.entries(fields).map(([k, v]) => field(k, v)).join('')}</${tag}>`;

function* lookup(): Generator<string> {
  yield '<?xml version="1.0" encoding="ISO-8859-1"?>';
  yield '<LOOKUP>';
  const tables: Record<string, string[]> = {
    SUPPLIER: ['Laboratoires Servier', 'Société Générique', 'Advanz Pharma'],
    UNIT_OF_MEASURE: ['tablet', 'capsule', 'ml', 'gram', 'mg'],
    FORM: FORMS, ROUTE: ROUTES,
    LEGAL_CATEGORY: ['POM - Prescription-only medicine', 'P - Pharmacy only', 'GSL - General Sales List'],
    AVAILABILITY_RESTRICTION: ['None', 'Special Order'],
    DT_PAYMENT_CATEGORY: ['Part VIIIA Category A', 'Part VIIIA Category C'],
    CONTROL_DRUG_CATEGORY: ['No Controlled Drug Status'],
    LICENSING_AUTHORITY: ['Medicines - MHRA/EMA'],
  };
  for (const [table, texts] of Object.entries(tables)) {
    yield `<${table}>${texts.map((text, i) => record('INFO', { CD: String(i + 1).padStart(4, '0'), DESC: text })).join('')}</${table}>`;
  }
  yield '</LOOKUP>';
}

function* ingredients(n: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<INGREDIENT_SUBSTANCES>';
  for (let i = 0; i < n; i += 1) yield record('ING', { ISID: sctId(1, i), NM: `Substancé ${i}` });
  yield '</INGREDIENT_SUBSTANCES>';
}

function* vtms(n: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<VIRTUAL_THERAPEUTIC_MOIETIES>';
  for (let i = 0; i < n; i += 1) yield record('VTM', { VTMID: sctId(2, i), NM: `Substancé ${i}` });
  yield '</VIRTUAL_THERAPEUTIC_MOIETIES>';
}

const vmpName = (i: number): string => `Substancé ${i} ${5 * (1 + (i % 40))}mg ${FORMS[i % FORMS.length]!.toLowerCase()}s`;

function* vmps(n: number, isids: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<VIRTUAL_MED_PRODUCTS>\n<VMPS>';
  for (let i = 0; i < n; i += 1) yield record('VMP', { VPID: sctId(3, i), VTMID: sctId(2, i % isids), NM: vmpName(i), VPIDDT: '2018-10-17', NMPREV: `Old ${i}`, NMDT: '2004-04-29' });
  yield '</VMPS>\n<VIRTUAL_PRODUCT_INGREDIENT>';
  for (let i = 0; i < n; i += 1) yield record('VPI', { VPID: sctId(3, i), ISID: sctId(1, i % isids), STRNT_NMRTR_VAL: 5 * (1 + (i % 40)), STRNT_NMRTR_UOMCD: '0005' });
  yield '</VIRTUAL_PRODUCT_INGREDIENT>\n<DRUG_FORM>';
  for (let i = 0; i < n; i += 1) yield record('DFORM', { VPID: sctId(3, i), FORMCD: String((i % FORMS.length) + 1).padStart(4, '0') });
  yield '</DRUG_FORM>\n<DRUG_ROUTE>';
  for (let i = 0; i < n; i += 1) yield record('DROUTE', { VPID: sctId(3, i), ROUTECD: String((i % ROUTES.length) + 1).padStart(4, '0') });
  yield '</DRUG_ROUTE>\n<CONTROL_DRUG_INFO>';
  for (let i = 0; i < n; i += 1) yield record('CONTROL_INFO', { VPID: sctId(3, i), CATCD: '0001' });
  yield '</CONTROL_DRUG_INFO>\n</VIRTUAL_MED_PRODUCTS>';
}

/** Two VMPPs per VMP: 28 and 84 units. */
function* vmpps(n: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<VIRTUAL_MED_PRODUCT_PACK>\n<VMPPS>';
  for (let i = 0; i < 2 * n; i += 1) {
    yield record('VMPP', { VPPID: sctId(4, i), VPID: sctId(3, i >> 1), NM: `${vmpName(i >> 1)} ${i % 2 ? 84 : 28}`, QTYVAL: i % 2 ? 84 : 28, QTY_UOMCD: '0001' });
  }
  yield '</VMPPS>\n<DRUG_TARIFF_INFO>';
  for (let i = 0; i < 2 * n; i += 1) yield record('DTINFO', { VPPID: sctId(4, i), PAY_CATCD: '0001', PRICE: 100 + (i % 900), DT: '2024-04-01', PREVPRICE: 99 });
  yield '</DRUG_TARIFF_INFO>\n</VIRTUAL_MED_PRODUCT_PACK>';
}

function* amps(n: number, vmpCount: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<ACTUAL_MEDICINAL_PRODUCTS>\n<AMPS>';
  for (let i = 0; i < n; i += 1) {
    const v = i % vmpCount;
    // Every 1000th AMP has an APID with a wrong check digit: reported and skipped.
    const apid = i % 1000 === 999 ? `${sctId(5, i).slice(0, -1)}${(Number(sctId(5, i).slice(-1)) + 1) % 10}` : sctId(5, i);
    yield record('AMP', {
      APID: apid, VPID: sctId(3, v), NM: i % 3 ? `Brandé ${i} ${5 * (1 + (v % 40))}mg` : vmpName(v), DESC: `${vmpName(v)} (Société ${i % 97})`,
      SUPPCD: String((i % 3) + 1).padStart(4, '0'), LIC_AUTHCD: '0001', AVAIL_RESTRICTCD: '0001',
    });
  }
  yield '</AMPS>\n</ACTUAL_MEDICINAL_PRODUCTS>';
}

/** The AMPP number `j` of AMP `i`: every AMP has one pack, every fifth a second. */
function* amppIds(n: number): Generator<{ i: number; j: number; k: number }> {
  let k = 0;
  for (let i = 0; i < n; i += 1) for (let j = 0; j < (i % 5 === 0 ? 2 : 1); j += 1) yield { i, j, k: k++ };
}

function* ampps(n: number, vmpCount: number): Generator<string> {
  yield '\ufeff<?xml version="1.0" encoding="utf-8"?>\n<ACTUAL_MEDICINAL_PROD_PACKS>\n<AMPPS>';
  for (const { i, j, k } of amppIds(n)) {
    const v = i % vmpCount;
    // Every 2000th AMPP repeats the one before it: the repeat is reported.
    const appid = k % 2000 === 1999 ? sctId(6, k - 1) : sctId(6, k);
    yield record('AMPP', { APPID: appid, VPPID: sctId(4, 2 * v + j), APID: sctId(5, i), NM: `Brandé ${i} pack ${j}`, LEGAL_CATCD: String((i % 3) + 1).padStart(4, '0') });
  }
  yield '</AMPPS>\n<MEDICINAL_PRODUCT_PRICE>';
  // Every 3000th list price is not whole pence: reported, the pack kept without it.
  for (const { k } of amppIds(n)) yield record('PRICE_INFO', { APPID: sctId(6, k), PRICE: k % 3000 === 7 ? '4,61' : 150 + (k % 800), PRICEDT: '2024-03-01', PRICE_PREV: 140 });
  yield '</MEDICINAL_PRODUCT_PRICE>\n</ACTUAL_MEDICINAL_PROD_PACKS>';
}

function* gtins(n: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<GTIN_DETAILS>\n<AMPPS>';
  for (const { k } of amppIds(n)) {
    yield `<AMPP>${field('AMPPID', sctId(6, k))}<GTINDATA>${field('GTIN', completeGtin(`50${String(k).padStart(10, '0')}`))}${field('STARTDT', '2010-01-01')}</GTINDATA></AMPP>`;
  }
  yield '</AMPPS>\n</GTIN_DETAILS>';
}

function* bnf(n: number): Generator<string> {
  yield '<?xml version="1.0" encoding="utf-8"?>\n<BNF_DETAILS>\n<VMPS>';
  for (let i = 0; i < n; i += 1) yield record('VMP', { VPID: sctId(3, i), BNF: '0203020U0', ATC: ['C01EB10', 'N02BE01', 'M01AE01'][i % 3]! });
  yield '</VMPS>\n</BNF_DETAILS>';
}

/** Writes a release of `n` AMPs into `dir`; returns the file paths. */
export async function writeDmdRelease(dir: string, n: number): Promise<string[]> {
  const { vmps: vmpCount, ingredients: isids } = releaseSizes(n);
  const files: Array<[string, Iterable<string>, BufferEncoding?]> = [
    ['f_lookup2_3240526.xml', lookup(), 'latin1'], ['f_ingredient2_3240526.xml', ingredients(isids)], ['f_vtm2_3240526.xml', vtms(isids)],
    ['f_vmp2_3240526.xml', vmps(vmpCount, isids)], ['f_vmpp2_3240526.xml', vmpps(vmpCount)], ['f_amp2_3240526.xml', amps(n, vmpCount)],
    ['f_ampp2_3240526.xml', ampps(n, vmpCount)], ['f_gtin2_0240526.xml', gtins(n)], ['f_bnf1_0240526.xml', bnf(vmpCount)],
  ];
  const paths: string[] = [];
  for (const [name, lines, encoding] of files) {
    paths.push(join(dir, name));
    await writeLines(paths.at(-1)!, lines, '\r\n', encoding);
  }
  return paths;
}
