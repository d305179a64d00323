/**
 * US FDA National Drug Code Directory: `product.txt` and `package.txt` (tab separated, header
 * line with the FDA's column names, joined on PRODUCTID).
 *
 * Keys: a product is keyed by PRODUCTID (the FDA's own join key), a package by its 11-digit
 * NDC. Packages carry `ndc` (the 10 digits as printed) and `ndc11` identifiers; products carry
 * `ndc` (padded 5-4 product code) and the application number as `national`.
 *
 * Substances: the directory names substances (SUBSTANCENAME) but gives no UNIIs, so each
 * substance is keyed provisionally by its upper-cased name (`name:ACETAMINOPHEN`) and flagged
 * `provisional`; a later source with UNIIs (FDA SRS) can map the key by the same name.
 * PHARM_CLASSES become ClassEntry rows keyed the same way (`name:<CLASS NAME>`), because the
 * file carries MED-RT class names but not their ids; they attach to the product, and also to
 * the substance when the product has a single one.
 */
import { ndc11FromDashed, normaliseIdentifier } from '../../../resolvers/catalogue/codes.ts';
import { SNAPSHOT_FORMAT } from '../snapshot.ts';
import type {
  AdapterResult, ClassEntry, Ingredient, PackEntry, ProductEntry, SourceInfo, SubstanceEntry,
} from '../snapshot.ts';
import {
  FileRejectedError, ProblemLog, decodeUtf8OrLatin, findFile, isoFromCompact, leadingQuantity, parseDecimal,
  parseHeaderedTsv, provisionalNameKey,
} from './common.ts';
import type { InputFile, TsvRow } from './common.ts';

export const FDA_PRODUCT_FILE = 'product.txt';
export const FDA_PACKAGE_FILE = 'package.txt';

export const FDA_NDC_SOURCE: SourceInfo = {
  id: 'fda-ndc',
  name: 'FDA National Drug Code Directory',
  country: 'US',
  // The FDA refreshes the directory every business day.
  refresh_interval_hours: 24 * 3,
  licence: 'Public domain (US government work)',
  url: 'https://www.fda.gov/drugs/drug-approvals-and-databases/national-drug-code-directory',
};

const PRODUCT_COLUMNS = [
  'PRODUCTID', 'PRODUCTNDC', 'PRODUCTTYPENAME', 'PROPRIETARYNAME', 'NONPROPRIETARYNAME', 'DOSAGEFORMNAME',
  'ROUTENAME', 'STARTMARKETINGDATE', 'MARKETINGCATEGORYNAME', 'LABELERNAME', 'SUBSTANCENAME',
  'ACTIVE_NUMERATOR_STRENGTH', 'ACTIVE_INGRED_UNIT', 'PHARM_CLASSES',
] as const;
const PACKAGE_COLUMNS = ['PRODUCTID', 'PRODUCTNDC', 'NDCPACKAGECODE', 'PACKAGEDESCRIPTION'] as const;

/** FDA pharmacologic class axes as tagged in PHARM_CLASSES; old files tag CS as Chemical/Ingredient. */
const CLASS_AXES: Record<string, ClassEntry['system']> = {
  EPC: 'epc', MoA: 'moa', PE: 'pe', CS: 'cs', 'Chemical/Ingredient': 'cs',
};
const CLASS_PATTERN = /\s*([^[\]]+?)\s*\[(EPC|MoA|PE|CS|Chemical\/Ingredient)\]\s*,?/g;

/** Marketing categories that denote generics (ANDA approvals and authorized generics). */
const GENERIC_CATEGORIES = new Set(['ANDA', 'NDA AUTHORIZED GENERIC']);
const BRAND_CATEGORIES = new Set(['NDA', 'BLA']);

export interface FdaNdcOptions {
  /** Date against which ENDMARKETINGDATE decides `withdrawn`; defaults to now. */
  asOf?: Date;
}

interface Collected {
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  classes: Map<string, ClassEntry>;
}

/** `Nonsteroidal Anti-inflammatory Drug [EPC], Cyclooxygenase Inhibitors [MoA]` → class entries. */
export function parsePharmClasses(raw: string): ClassEntry[] {
  return [...raw.matchAll(CLASS_PATTERN)].map((m) => ({
    system: CLASS_AXES[m[2]!]!,
    code: provisionalNameKey(m[1]!),
    label: m[1]!,
  }));
}

function isEnded(endDate: string, asOf: Date): boolean {
  const iso = isoFromCompact(endDate);
  return iso !== null && iso <= asOf.toISOString().slice(0, 10);
}

/** Ingredients of a product row, or an error message when the three lists disagree. */
function rowIngredients(row: TsvRow, substances: Map<string, SubstanceEntry>): Ingredient[] | string {
  const split = (col: string): string[] => (row.get(col) === '' ? [] : row.get(col).split(';').map((s) => s.trim()));
  const [names, strengths, units] = [split('SUBSTANCENAME'), split('ACTIVE_NUMERATOR_STRENGTH'), split('ACTIVE_INGRED_UNIT')];
  if (strengths.length !== names.length || units.length !== names.length) {
    return `${names.length} substances but ${strengths.length} strengths and ${units.length} units`;
  }
  const out: Ingredient[] = [];
  for (const [i, name] of names.entries()) {
    const value = parseDecimal(strengths[i]!);
    if (value === null) return `strength "${strengths[i]}" of ${name} is not a number`;
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, provisional: true });
    out.push({ unii: key, strength_value: value, strength_unit: units[i]! });
  }
  return out;
}

function genericFlag(category: string): boolean | undefined {
  if (GENERIC_CATEGORIES.has(category)) return true;
  return BRAND_CATEGORIES.has(category) ? false : undefined;
}

function buildProduct(row: TsvRow, ingredients: Ingredient[], productNdc: string, asOf: Date): ProductEntry {
  const brand = [row.get('PROPRIETARYNAME'), row.get('PROPRIETARYNAMESUFFIX')].filter(Boolean).join(' ');
  const product: ProductEntry = {
    key: row.get('PRODUCTID'),
    country: 'US',
    product_name: brand || row.get('NONPROPRIETARYNAME'),
    identifiers: [{ system: 'ndc', code: productNdc }],
    ingredients,
    packs: [],
    marketing_status: isEnded(row.get('ENDMARKETINGDATE'), asOf) ? 'withdrawn' : 'active',
  };
  if (brand) product.brand = brand;
  const generic = genericFlag(row.get('MARKETINGCATEGORYNAME').toUpperCase());
  if (generic !== undefined) product.generic = generic;
  if (row.get('DOSAGEFORMNAME')) product.dose_form = row.get('DOSAGEFORMNAME');
  if (row.get('ROUTENAME')) product.route = row.get('ROUTENAME');
  if (row.get('LABELERNAME')) product.holder = row.get('LABELERNAME');
  // The directory has no approval date; the marketing start date is the closest it offers.
  const started = isoFromCompact(row.get('STARTMARKETINGDATE'));
  if (started) product.authorised_on = started;
  const application = normaliseIdentifier('national', row.get('APPLICATIONNUMBER'));
  if (application) product.identifiers.push({ system: 'national', code: application });
  return product;
}

function attachClasses(product: ProductEntry, row: TsvRow, collected: Collected): void {
  const classes = parsePharmClasses(row.get('PHARM_CLASSES'));
  if (classes.length === 0) return;
  for (const c of classes) collected.classes.set(`${c.system}|${c.code}`, c);
  product.classes = classes.map(({ system, code }) => ({ system, code }));
  // A single-substance product's classes describe that substance as well.
  const only = product.ingredients.length === 1 ? collected.substances.get(product.ingredients[0]!.unii) : undefined;
  if (!only) return;
  const known = new Set((only.classes ?? []).map((c) => `${c.system}|${c.code}`));
  only.classes = [...(only.classes ?? []), ...product.classes.filter((c) => !known.has(`${c.system}|${c.code}`))];
}

/** Parses one product row into the collection; returns an error message for a malformed row. */
function addProduct(row: TsvRow, collected: Collected, asOf: Date): string | null {
  if (!row.complete) return 'wrong number of tab-separated fields';
  if (row.get('PRODUCTID') === '') return 'PRODUCTID is empty';
  const productNdc = normaliseIdentifier('ndc', row.get('PRODUCTNDC'));
  if (!productNdc || !row.get('PRODUCTNDC').includes('-')) return `PRODUCTNDC "${row.get('PRODUCTNDC')}" is not a labeler-product NDC`;
  if (!row.get('PROPRIETARYNAME') && !row.get('NONPROPRIETARYNAME')) return 'product has neither a proprietary nor a nonproprietary name';
  if (collected.products.has(row.get('PRODUCTID'))) return `duplicate PRODUCTID ${row.get('PRODUCTID')}`;
  const ingredients = rowIngredients(row, collected.substances);
  if (typeof ingredients === 'string') return ingredients;
  const product = buildProduct(row, ingredients, productNdc, asOf);
  attachClasses(product, row, collected);
  collected.products.set(product.key, product);
  return null;
}

/** Parses one package row onto its product; returns an error message for a malformed row. */
function addPackage(row: TsvRow, products: Map<string, ProductEntry>, asOf: Date): string | null {
  if (!row.complete) return 'wrong number of tab-separated fields';
  const product = products.get(row.get('PRODUCTID'));
  if (!product) return `PRODUCTID ${row.get('PRODUCTID')} is not a product of product.txt (or was skipped)`;
  const printed = row.get('NDCPACKAGECODE');
  const ndc11 = ndc11FromDashed(printed);
  if (!ndc11) return `NDCPACKAGECODE "${printed}" is not a 4-4-2, 5-3-2 or 5-4-1 NDC`;
  const description = row.get('PACKAGEDESCRIPTION');
  const pack: PackEntry = {
    key: ndc11,
    description,
    identifiers: [{ system: 'ndc', code: printed.replace(/-/g, '') }, { system: 'ndc11', code: ndc11 }],
    marketing_status: isEnded(row.get('ENDMARKETINGDATE'), asOf) ? 'withdrawn' : 'active',
  };
  // Nested packages read `1 BOTTLE in 1 CARTON > 100 TABLET in 1 BOTTLE`: the last level counts units.
  const quantity = leadingQuantity(description.split('>').pop() ?? '');
  if (quantity) Object.assign(pack, quantity);
  product.packs.push(pack);
  return null;
}

/** Parses the FDA NDC directory's product.txt and package.txt; malformed rows are reported and skipped. */
export function parseFdaNdc(files: InputFile[], options: FdaNdcOptions = {}): AdapterResult {
  const asOf = options.asOf ?? new Date();
  const productFile = findFile(files, FDA_PRODUCT_FILE);
  const packageFile = findFile(files, FDA_PACKAGE_FILE);
  if (!productFile || !packageFile) {
    throw new FileRejectedError(productFile ? FDA_PACKAGE_FILE : FDA_PRODUCT_FILE, 'file missing: the FDA NDC adapter needs product.txt and package.txt');
  }
  const productRows = parseHeaderedTsv(productFile.name, decodeUtf8OrLatin(productFile.content), PRODUCT_COLUMNS);
  const packageRows = parseHeaderedTsv(packageFile.name, decodeUtf8OrLatin(packageFile.content), PACKAGE_COLUMNS);
  const log = new ProblemLog();
  const collected: Collected = { products: new Map(), substances: new Map(), classes: new Map() };
  for (const row of productRows) {
    const problem = addProduct(row, collected, asOf);
    if (problem) log.add(productFile.name, row.line, problem);
  }
  for (const row of packageRows) {
    const problem = addPackage(row, collected.products, asOf);
    if (problem) log.add(packageFile.name, row.line, problem);
  }
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      source: FDA_NDC_SOURCE,
      classes: [...collected.classes.values()],
      substances: [...collected.substances.values()],
      products: [...collected.products.values()],
    },
    problems: log.problems,
  };
}
