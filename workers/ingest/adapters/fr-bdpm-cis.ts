/**
 * The two core BDPM files: `CIS_bdpm.txt` (one row per medicine, keyed by its 8-digit CIS)
 * and `CIS_CIP_bdpm.txt` (one row per presentation, keyed by its CIP13).
 *
 * CIS_bdpm columns: CIS, denomination, dose form, routes (`;`-separated), AMM status, AMM
 * procedure type, marketing state, AMM date (DD/MM/YYYY), BdM status (`Alerte`, `Warning
 * disponibilité`), EU authorisation number, holders (`;`-separated), enhanced monitoring
 * (`Oui`/`Non`). CIS_CIP columns: CIS, CIP7, presentation, administrative status, marketing
 * state, declaration date, CIP13, approval for hospital use, reimbursement rate(s), price of
 * the medicine, price including the dispensing fee, dispensing fee, reimbursement indications.
 */
import { isValidCip13 } from '../../../vocabulary/check-digits.ts';
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { PackEntry, Price, ProductEntry } from '../snapshot.ts';
import { leadingQuantity, parseFrenchNumber } from './common.ts';
import type { InputFile } from './common.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { RowTally } from '../row-outcome.ts';
import { CIS, NO_PRODUCT, bdpmDate, checkFirstRow, fileLines, rowFields } from './fr-bdpm-rows.ts';

const CIS_COLUMNS = 12;
/** 13 columns; the last (indications) is often missing altogether. */
const CIP_COLUMNS = 13;

function holders(raw: string): string {
  return raw.split(';').map((h) => h.trim()).filter(Boolean).join('; ');
}

/** `Oui`/`Non` of the enhanced-monitoring column; undefined when empty, null when neither. */
function monitoring(raw: string): boolean | undefined | null {
  if (raw === '') return undefined;
  if (/^oui$/i.test(raw)) return true;
  return /^non$/i.test(raw) ? false : null;
}

/** The register's facts without a field of their own, under documented names. */
function productAttributes(procedure: string, state: string, bdm: string, euText: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (procedure) out.procedure = procedure;
  if (state) out.commercialisation = state;
  if (bdm) out.bdm_status = bdm;
  if (euText) out.eu_number_text = euText;
  return out;
}

function readProduct(fields: string[]): ProductEntry | string {
  if (fields.length !== CIS_COLUMNS) return `expected ${CIS_COLUMNS} tab-separated fields, got ${fields.length}`;
  const [cis, name, form, routes, status, procedure, state, date, bdm, euNumber, holder, watch] = fields as [
    string, string, string, string, string, string, string, string, string, string, string, string];
  if (!CIS.test(cis)) return `CIS code "${cis}" is not 8 digits`;
  if (!name) return 'denomination is empty';
  const authorised = date ? bdpmDate(date) : null;
  if (date && !authorised) return `AMM date "${date}" is not DD/MM/YYYY`;
  const monitored = monitoring(watch);
  if (monitored === null) return `enhanced monitoring "${watch}" is neither Oui nor Non`;
  const eu = euNumber ? normaliseIdentifier('eu_number', euNumber) : null;
  const product: ProductEntry = {
    key: cis,
    country: 'FR',
    product_name: name,
    identifiers: [{ system: 'cis', code: cis }, ...(eu ? [{ system: 'eu_number' as const, code: eu }] : [])],
    ingredients: [],
    packs: [],
    marketing_status: /^commercialisée$/i.test(state) ? 'active' : 'withdrawn',
  };
  if (form) product.dose_form = form;
  if (routes) product.route = routes;
  if (holders(holder)) product.holder = holders(holder);
  if (authorised) product.authorised_on = authorised;
  if (status) product.authorisation_status = status;
  if (monitored !== undefined) product.additional_monitoring = monitored;
  // An EU number the normaliser refuses is kept as text rather than lost or guessed at.
  const attributes = productAttributes(procedure, state, bdm, euNumber && !eu ? euNumber : null);
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return product;
}

/** Reads CIS_bdpm.txt into products keyed by CIS. */
export function readProducts(file: InputFile, tally: RowTally): Map<string, ProductEntry> {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, 'CIS_bdpm', (f) => f.length === CIS_COLUMNS && CIS.test(f[0]!), CIS_COLUMNS);
  const products = new Map<string, ProductEntry>();
  for (const { line, text } of lines) {
    const product = readProduct(rowFields(text, CIS_COLUMNS));
    if (typeof product === 'string') tally.malformedRow(line, product);
    else if (products.has(product.key)) tally.exclude(EXCLUDED.duplicate);
    else {
      products.set(product.key, product);
      tally.keep();
    }
  }
  return products;
}

/** Units of measure (not of count) that follow `de` in a presentation: the content of one container. */
const MEASURE = /^(?:ml|l|g|mg|kg|µg|microgrammes?)$/i;

type PackSize = { units: number; unit: string; quantity?: { value: number; unit: string } };

/**
 * Pack size of a presentation text: `plaquette(s) ... de 30 comprimé(s)` → 30 comprimé(s),
 * times a leading count (`2 plaquette(s) ... de 14` → 28); a volume or mass per container
 * (`1 seringue(s) préremplie(s) en verre de 0,5 ml`) → 1 seringue(s) holding 0.5 ml in all.
 */
export function bdpmUnits(label: string): PackSize | null {
  const inner = /\bde (\d+(?:,\d+)?) ([\p{L}µ()-]+)/u.exec(label);
  if (!inner) return null;
  const value = parseFrenchNumber(inner[1]!)!;
  const outer = /^(\d+) ([\p{L}()-]+)/u.exec(label);
  const count = outer ? Number(outer[1]) : 1;
  if (outer && MEASURE.test(inner[2]!)) {
    return { units: count, unit: outer[2]!, quantity: { value: Number((count * value).toPrecision(12)), unit: inner[2]! } };
  }
  return { units: value * count, unit: inner[2]! };
}

function packUnits(label: string): PackSize | null {
  return bdpmUnits(label) ?? leadingQuantity(label);
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

/**
 * Reimbursement rate: `65%`, `65 %`, `65 % ` → 65; several rates (`100%;65%`, each for the
 * indications of the last column) → the highest; undefined when empty, null when not a rate.
 */
export function reimbursementRate(raw: string): number | undefined | null {
  const parts = raw.split(';').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return undefined;
  const rates = parts.map((p) => /^(\d{1,3})(?:[.,]0+)?\s*%$/.exec(p)?.[1]);
  if (rates.some((r) => r === undefined)) return null;
  return Math.max(...rates.map(Number));
}

function readPack(fields: string[]): { cis: string; pack: PackEntry } | string {
  if (fields.length !== CIP_COLUMNS && fields.length !== CIP_COLUMNS - 1) return `expected 13 tab-separated fields, got ${fields.length}`;
  const [cis, cip7, label, status, state, , cip13, , rateText, price, priceWithFee] = fields as string[];
  if (!CIS.test(cis!)) return `CIS code "${cis}" is not 8 digits`;
  if (!isValidCip13(cip13!)) return `CIP13 "${cip13}" is not a valid 34009 GTIN-13`;
  if (!/^\d{7}$/.test(cip7!)) return `CIP7 "${cip7}" is not 7 digits`;
  const prices = readPrices(price!, priceWithFee!);
  if (typeof prices === 'string') return prices;
  const rate = reimbursementRate(rateText!);
  if (rate === null) return `reimbursement rate "${rateText}" is not a percentage`;
  // Stopped, suspended or revoked presentations are no longer on the market.
  const withdrawn = /arrêt|suspension/i.test(state!) || /abrog/i.test(status!);
  const pack: PackEntry = {
    key: cip13!,
    description: label!,
    identifiers: [{ system: 'cip13', code: cip13! }, { system: 'gtin', code: cip13! }, { system: 'cip7', code: cip7! }],
    marketing_status: withdrawn ? 'withdrawn' : 'active',
  };
  if (prices.length > 0) pack.prices = prices;
  if (rate !== undefined) pack.reimbursement_rate_percent = rate;
  const units = packUnits(label!);
  if (units) Object.assign(pack, units);
  return { cis: cis!, pack };
}

/** Reads CIS_CIP_bdpm.txt into the packs of the products. */
export function readPacks(file: InputFile, products: Map<string, ProductEntry>, tally: RowTally): void {
  const lines = fileLines(file);
  checkFirstRow(file.name, lines, 'CIS_CIP_bdpm', (f) => f.length >= CIP_COLUMNS - 1 && f.length <= CIP_COLUMNS
    && CIS.test(f[0]!) && /^\d{13}$/.test(f[6]!), CIP_COLUMNS);
  const seen = new Set<string>();
  for (const { line, text } of lines) {
    const read = readPack(rowFields(text, CIP_COLUMNS, true));
    const product = typeof read === 'string' ? undefined : products.get(read.cis);
    if (typeof read === 'string') tally.malformedRow(line, read);
    else if (seen.has(read.pack.key)) tally.exclude(EXCLUDED.duplicate);
    else if (!product) tally.exclude(NO_PRODUCT);
    else {
      product.packs.push(read.pack);
      seen.add(read.pack.key);
      tally.keep();
    }
  }
}
