/**
 * French Base de données publique des médicaments (BDPM): `CIS_bdpm.txt` (one row per
 * medicine, keyed by its 8-digit CIS code) and `CIS_CIP_bdpm.txt` (one row per presentation,
 * keyed by its CIP13), optionally `CIS_COMPO_bdpm.txt` and `CIS_MITM.txt` (see fr-bdpm-compo).
 * The files are tab separated, have no header line and are Windows-1252 encoded; prices use
 * the French decimal comma.
 *
 * CIS_bdpm columns: CIS, denomination, dose form, routes (`;`-separated), AMM status, procedure
 * type, marketing state, AMM date (DD/MM/YYYY), BDM status, EU number, holders, enhanced
 * monitoring. CIS_CIP columns: CIS, CIP7, presentation, administrative status, marketing state,
 * declaration date, CIP13, hospital approval, reimbursement rate, price, price including the
 * dispensing fee, dispensing fee, reimbursement indications.
 */
import { isValidCip13 } from '../../../resolvers/catalogue/check-digits.ts';
import { normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type { AdapterResult, PackEntry, Price, ProductEntry, SourceInfo } from '../snapshot.ts';
import {
  FileRejectedError, ProblemLog, decodeText, findFile, isoFromDayFirst, numberedLines, parseFrenchNumber, tabFields,
} from './common.ts';
import type { InputFile, NumberedLine } from './common.ts';
import { applyAtcCodes, applyComposition } from './fr-bdpm-compo.ts';

export const BDPM_CIS_FILE = 'CIS_bdpm.txt';
export const BDPM_CIP_FILE = 'CIS_CIP_bdpm.txt';
export const BDPM_COMPO_FILE = 'CIS_COMPO_bdpm.txt';
export const BDPM_MITM_FILE = 'CIS_MITM.txt';

export const FR_BDPM_SOURCE: SourceInfo = {
  id: 'fr-bdpm',
  name: 'Base de données publique des médicaments (ANSM, HAS, UNCAM)',
  country: 'FR',
  // The BDPM export is regenerated at least weekly.
  refresh_interval_hours: 24 * 8,
  url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement',
};

/** Current layouts: 12 columns in CIS_bdpm, 13 in CIS_CIP (the last, indications, may be cut). */
const CIS_COLUMNS = 12;
const CIP_COLUMNS = [12, 13];

const CIS = /^\d{8}$/;

/** Fields of a row, without empty trailing fields beyond `max` (some exports end rows with a tab). */
function rowFields(text: string, max: number): string[] {
  const fields = tabFields(text);
  while (fields.length > max && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

function decode(file: InputFile): NumberedLine[] {
  return numberedLines(decodeText(file.content, 'windows-1252'));
}

/** The first row's shape identifies the layout; if it does not fit, the whole file is rejected. */
function checkFirstRow(file: string, rows: NumberedLine[], fits: (first: string) => boolean, what: string): void {
  const first = rows[0];
  if (!first || !fits(first.text)) throw new FileRejectedError(file, `line ${first?.line ?? 1} is not a ${what} row`);
}

function holders(raw: string): string {
  return raw.split(';').map((h) => h.trim()).filter(Boolean).join('; ');
}

function readProduct(fields: string[]): ProductEntry | string {
  if (fields.length !== CIS_COLUMNS) return `expected ${CIS_COLUMNS} tab-separated fields, got ${fields.length}`;
  const [cis, name, form, routes, , , state, date, , euNumber, holder] = fields as string[];
  if (!CIS.test(cis!)) return `CIS code "${cis}" is not 8 digits`;
  if (!name) return 'denomination is empty';
  const authorised = date ? isoFromDayFirst(date) : null;
  if (date && !authorised) return `AMM date "${date}" is not DD/MM/YYYY`;
  const product: ProductEntry = {
    key: cis!,
    country: 'FR',
    product_name: name,
    identifiers: [{ system: 'national', code: cis! }],
    ingredients: [],
    packs: [],
    marketing_status: state === 'Commercialisée' ? 'active' : 'withdrawn',
  };
  if (form) product.dose_form = form;
  if (routes) product.route = routes;
  if (holders(holder!)) product.holder = holders(holder!);
  if (authorised) product.authorised_on = authorised;
  const eu = normaliseIdentifier('national', euNumber!);
  if (eu) product.identifiers.push({ system: 'national', code: eu });
  return product;
}

/** Pack size from `de 30 comprimé(s)`, multiplied by a leading count (`2 plaquette(s) ... de 14`). */
export function bdpmUnits(label: string): { units: number; unit: string } | null {
  const inner = [...label.matchAll(/\bde (\d+(?:,\d+)?) ([\p{L}()-]+)/gu)].pop();
  if (!inner) return null;
  const outer = /^(\d+) /.exec(label);
  const units = parseFrenchNumber(inner[1]!)! * (outer ? Number(outer[1]) : 1);
  return { units, unit: inner[2]! };
}

/** Prices of a presentation, or an error message when a price cell is not a number. */
function readPrices(medicine: string, withFee: string): Price[] | string {
  const out: Price[] = [];
  // Column 10 is the price of the medicine; column 11 adds the pharmacist's dispensing fee.
  for (const [raw, kind] of [[medicine, 'list'], [withFee, 'public']] as const) {
    if (raw === '') continue;
    const amount = parseFrenchNumber(raw);
    if (amount === null) return `price "${raw}" is not a French decimal number`;
    out.push({ amount, currency: 'EUR', kind });
  }
  return out;
}

function readPack(fields: string[]): { cis: string; pack: PackEntry } | string {
  if (!CIP_COLUMNS.includes(fields.length)) return `expected 13 tab-separated fields, got ${fields.length}`;
  const [cis, cip7, label, status, state, , cip13, , rate, price, priceWithFee] = fields as string[];
  if (!CIS.test(cis!)) return `CIS code "${cis}" is not 8 digits`;
  if (!isValidCip13(cip13!)) return `CIP13 "${cip13}" is not a valid 34009 GTIN-13`;
  if (!/^\d{7}$/.test(cip7!)) return `CIP7 "${cip7}" is not 7 digits`;
  const prices = readPrices(price!, priceWithFee!);
  if (typeof prices === 'string') return prices;
  const withdrawn = /arrêt/i.test(state!) || /abrog/i.test(status!);
  const pack: PackEntry = {
    key: cip13!,
    description: label!,
    identifiers: [{ system: 'cip13', code: cip13! }, { system: 'gtin', code: cip13! }, { system: 'cip7', code: cip7! }],
    marketing_status: withdrawn ? 'withdrawn' : 'active',
  };
  if (prices.length > 0) pack.prices = prices;
  const percent = /^(\d+)\s*%/.exec(rate!);
  if (percent) pack.reimbursement_rate_percent = Number(percent[1]);
  const units = bdpmUnits(label!);
  if (units) Object.assign(pack, units);
  return { cis: cis!, pack };
}

function readProducts(file: InputFile, log: ProblemLog): Map<string, ProductEntry> {
  const rows = decode(file);
  checkFirstRow(file.name, rows, (text) => {
    const f = rowFields(text, CIS_COLUMNS);
    return f.length === CIS_COLUMNS && CIS.test(f[0]!);
  }, 'CIS_bdpm');
  const products = new Map<string, ProductEntry>();
  for (const { line, text } of rows) {
    const product = readProduct(rowFields(text, CIS_COLUMNS));
    if (typeof product === 'string') log.add(file.name, line, product);
    else if (products.has(product.key)) log.add(file.name, line, `duplicate CIS ${product.key}`);
    else products.set(product.key, product);
  }
  return products;
}

function readPacks(file: InputFile, products: Map<string, ProductEntry>, log: ProblemLog): void {
  const rows = decode(file);
  checkFirstRow(file.name, rows, (text) => {
    const f = rowFields(text, 13);
    return CIP_COLUMNS.includes(f.length) && CIS.test(f[0]!) && /^\d{13}$/.test(f[6]!);
  }, 'CIS_CIP_bdpm');
  for (const { line, text } of rows) {
    const read = readPack(rowFields(text, 13));
    if (typeof read === 'string') { log.add(file.name, line, read); continue; }
    const product = products.get(read.cis);
    if (!product) log.add(file.name, line, `CIS ${read.cis} is not a product of CIS_bdpm.txt (or was skipped)`);
    else product.packs.push(read.pack);
  }
}

/** Parses the BDPM export files; malformed rows are reported with their line and skipped. */
export function parseFrBdpm(files: InputFile[]): AdapterResult {
  const cisFile = findFile(files, BDPM_CIS_FILE);
  const cipFile = findFile(files, BDPM_CIP_FILE);
  if (!cisFile || !cipFile) {
    throw new FileRejectedError(cisFile ? BDPM_CIP_FILE : BDPM_CIS_FILE, 'file missing: the BDPM adapter needs CIS_bdpm.txt and CIS_CIP_bdpm.txt');
  }
  const log = new ProblemLog();
  const products = readProducts(cisFile, log);
  readPacks(cipFile, products, log);
  const compo = findFile(files, BDPM_COMPO_FILE);
  const substances = compo ? applyComposition(compo.name, decodeText(compo.content, 'windows-1252'), products, log) : [];
  const mitm = findFile(files, BDPM_MITM_FILE);
  if (mitm) applyAtcCodes(mitm.name, decodeText(mitm.content, 'windows-1252'), products, log);
  return {
    snapshot: { format: SNAPSHOT_FORMAT, source: FR_BDPM_SOURCE, substances, products: [...products.values()] },
    problems: log.problems,
  };
}
