/**
 * Row builders of the FDA NDC directory adapter (fda-ndc.ts): a product row (finished
 * `product.txt` or unfinished `unfinished_product.txt` layout) into a ProductEntry with its
 * provisional substances and PHARM_CLASSES, a package row onto its product.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { ClassEntry, Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { EXCLUDED } from '../row-outcome.ts';
import type { ExclusionReason, RowTally } from '../row-outcome.ts';
import { isoFromCompact, leadingQuantity, parseDecimal, provisionalNameKey } from './common.ts';
import type { TsvRow } from './common.ts';
import { ndc11Of, ndcPackIdentifiers, packageLayoutOf, productNdcCode } from './us-ndc.ts';

/** FDA pharmacologic class axes as tagged in PHARM_CLASSES; old files tag CS as Chemical/Ingredient. */
const CLASS_AXES: Record<string, ClassEntry['system']> = {
  EPC: 'epc', MoA: 'moa', PE: 'pe', CS: 'cs', 'Chemical/Ingredient': 'cs',
};
const CLASS_PATTERN = /\s*([^[\]]+?)\s*\[(EPC|MoA|PE|CS|Chemical\/Ingredient)\]\s*,?/g;

/** Marketing categories that denote generics (ANDA approvals and authorized generics). */
const GENERIC_CATEGORIES = new Set(['ANDA', 'NDA AUTHORIZED GENERIC']);
const BRAND_CATEGORIES = new Set(['NDA', 'BLA']);

/** What the rows of one ingest collect. */
export interface Collected {
  products: Map<string, ProductEntry>;
  substances: Map<string, SubstanceEntry>;
  classes: Map<string, ClassEntry>;
}

/** The substances and classes product rows name (a streamed read keeps these, not the products). */
export type Vocabulary = Omit<Collected, 'products'>;

/** A row the directory publishes on purpose that drugref leaves out (not malformed): why. */
export interface Excluded { excluded: ExclusionReason }

/** A repeated key: the first row with it is kept, this one is excluded as a duplicate. */
const DUPLICATE: Excluded = { excluded: EXCLUDED.duplicate };

/** True for the outcome of a row left out on purpose. */
export const isExcluded = (outcome: unknown): outcome is Excluded =>
  typeof outcome === 'object' && outcome !== null && 'excluded' in outcome;

/** Counts one row's outcome: a string is malformed (reported at `line`), an exclusion excluded, anything else kept. */
export function tallyRow(tally: RowTally, line: number, outcome: unknown): boolean {
  if (typeof outcome === 'string') tally.malformedRow(line, outcome);
  else if (isExcluded(outcome)) tally.exclude(outcome.excluded);
  else { tally.keep(); return true; }
  return false;
}

/** `Nonsteroidal Anti-inflammatory Drug [EPC], Cyclooxygenase Inhibitors [MoA]` → class entries. */
export function parsePharmClasses(raw: string): ClassEntry[] {
  return [...raw.matchAll(CLASS_PATTERN)].map((m) => ({
    system: CLASS_AXES[m[2]!]!,
    code: provisionalNameKey(m[1]!),
    label: m[1]!,
  }));
}

/** True when a `YYYYMMDD` end date lies on or before `asOf`. */
export function isEnded(endDate: string, asOf: Date): boolean {
  const iso = isoFromCompact(endDate);
  return iso !== null && iso <= asOf.toISOString().slice(0, 10);
}

/** Ingredients of a product row, or an error message when the three lists disagree. */
function rowIngredients(row: TsvRow, substances: Map<string, SubstanceEntry>): Ingredient[] | string {
  const split = (col: string): string[] => (row.get(col) === '' ? [] : row.get(col).split(';').map((s) => s.trim()));
  const [names, strengths, units] = [split('SUBSTANCENAME'), split('ACTIVE_NUMERATOR_STRENGTH'), split('ACTIVE_INGRED_UNIT')];
  // Some bulk ingredient listings state no strength at all: the substances alone are kept.
  const unstated = strengths.length === 0 && units.length === 0;
  if (!unstated && (strengths.length !== names.length || units.length !== names.length)) {
    return `${names.length} substances but ${strengths.length} strengths and ${units.length} units`;
  }
  const out: Ingredient[] = [];
  for (const [i, name] of names.entries()) {
    const key = provisionalNameKey(name);
    if (!substances.has(key)) substances.set(key, { unii: key, name, provisional: true });
    if (unstated) { out.push({ unii: key }); continue; }
    // The directory prints fractions without a leading zero (Dulaglutide `.75` mg/.5mL).
    const value = parseDecimal(strengths[i]!.replace(/^\./, '0.'));
    if (value === null) return `strength "${strengths[i]}" of ${name} is not a number`;
    out.push({ unii: key, strength_value: value, strength_unit: units[i]! });
  }
  return out;
}

function genericFlag(category: string): boolean | undefined {
  if (GENERIC_CATEGORIES.has(category)) return true;
  return BRAND_CATEGORIES.has(category) ? false : undefined;
}

/** Register facts without a field of their own: product type, marketing category, DEA schedule. */
function attributesOf(row: TsvRow, unfinished: boolean): Record<string, string | boolean> {
  const attributes: Record<string, string | boolean> = {};
  // Bulk ingredients are never marketed products: kept findable by code, out of human search.
  if (unfinished) attributes.unfinished = true;
  for (const [column, name] of [['PRODUCTTYPENAME', 'product_type'], ['MARKETINGCATEGORYNAME', 'marketing_category'], ['DEASCHEDULE', 'dea_schedule']] as const) {
    if (row.get(column)) attributes[name] = row.get(column);
  }
  return attributes;
}

function buildProduct(row: TsvRow, ingredients: Ingredient[], productNdc: string, asOf: Date, unfinished: boolean): ProductEntry {
  const brand = [row.get('PROPRIETARYNAME'), row.get('PROPRIETARYNAMESUFFIX')].filter(Boolean).join(' ');
  const product: ProductEntry = {
    key: row.get('PRODUCTID'),
    country: 'US',
    product_name: brand || row.get('NONPROPRIETARYNAME'),
    identifiers: [{ system: 'ndc', code: productNdc }],
    ingredients,
    packs: [],
    marketing_status: isEnded(row.get('ENDMARKETINGDATE'), asOf) ? 'withdrawn' : 'active',
    attributes: attributesOf(row, unfinished),
  };
  if (brand) product.brand = brand;
  const category = row.get('MARKETINGCATEGORYNAME').toUpperCase();
  const generic = genericFlag(category);
  if (generic !== undefined) product.generic = generic;
  if (category.includes('ANIMAL')) product.veterinary = true;
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

function attachClasses(product: ProductEntry, row: TsvRow, collected: Vocabulary): void {
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

/**
 * Parses one product row, adding the substances and classes it names to `collected`; returns
 * the product, an error message for a malformed row, or the exclusion of a PRODUCTID already
 * read (`taken`): the directory repeats no PRODUCTID, so the first row is the one kept.
 */
export function readProduct(row: TsvRow, collected: Vocabulary, asOf: Date, unfinished: boolean, taken: (id: string) => boolean): ProductEntry | string | Excluded {
  if (!row.complete) return 'wrong number of tab-separated fields';
  if (row.get('PRODUCTID') === '') return 'PRODUCTID is empty';
  const productNdc = productNdcCode(row.get('PRODUCTNDC'));
  if (!productNdc) return `PRODUCTNDC "${row.get('PRODUCTNDC')}" is not a labeler-product NDC`;
  if (!row.get('PROPRIETARYNAME') && !row.get('NONPROPRIETARYNAME')) return 'product has neither a proprietary nor a nonproprietary name';
  if (taken(row.get('PRODUCTID'))) return DUPLICATE;
  const ingredients = rowIngredients(row, collected.substances);
  if (typeof ingredients === 'string') return ingredients;
  const product = buildProduct(row, ingredients, productNdc, asOf, unfinished);
  attachClasses(product, row, collected);
  return product;
}

/** Parses one product row into the collection; returns an error message or exclusion for a row not kept. */
export function addProduct(row: TsvRow, collected: Collected, asOf: Date, unfinished: boolean): string | Excluded | null {
  const product = readProduct(row, collected, asOf, unfinished, (id) => collected.products.has(id));
  if (typeof product === 'string' || isExcluded(product)) return product;
  collected.products.set(product.key, product);
  return null;
}

/** How package rows are checked against what was read before them. */
export interface PackageContext {
  /** True when the row's PRODUCTID is a product read (and kept) from the product file. */
  hasProduct(id: string): boolean;
  /** Claims a package NDC; false when an earlier row holds it. */
  claim(ndc11: string): boolean;
  productFile: string;
}

/**
 * Checks one package row; returns its 11-digit NDC, an error message for a malformed row, or
 * the exclusion of a package NDC an earlier row holds (the first is kept).
 */
export function checkPackage(row: TsvRow, context: PackageContext): { ndc11: string } | string | Excluded {
  if (!row.complete) return 'wrong number of tab-separated fields';
  if (!context.hasProduct(row.get('PRODUCTID'))) return `PRODUCTID ${row.get('PRODUCTID')} is not a product of ${context.productFile} (or was skipped)`;
  const printed = row.get('NDCPACKAGECODE');
  // An undashed code can be split only with the layout its product NDC shows.
  const ndc11 = ndc11Of(printed, packageLayoutOf(row.get('PRODUCTNDC')));
  if (!ndc11) return `NDCPACKAGECODE "${printed}" is not a 4-4-2, 5-3-2 or 5-4-1 NDC`;
  if (!context.claim(ndc11)) return DUPLICATE;
  return { ndc11 };
}

/** Parses one package row; returns the pack, or an error message or exclusion for a row not kept. */
export function readPackage(row: TsvRow, asOf: Date, context: PackageContext): PackEntry | string | Excluded {
  const checked = checkPackage(row, context);
  if (typeof checked === 'string' || isExcluded(checked)) return checked;
  const description = row.get('PACKAGEDESCRIPTION');
  const pack: PackEntry = {
    key: checked.ndc11,
    description,
    identifiers: ndcPackIdentifiers(row.get('NDCPACKAGECODE'), checked.ndc11),
    marketing_status: isEnded(row.get('ENDMARKETINGDATE'), asOf) ? 'withdrawn' : 'active',
  };
  // Nested packages read `1 BOTTLE in 1 CARTON > 100 TABLET in 1 BOTTLE`: the last level counts units.
  const quantity = leadingQuantity(description.split('>').pop() ?? '');
  if (quantity) Object.assign(pack, quantity);
  return pack;
}

/** A package context that remembers the package NDCs it has seen. */
export function packageContext(hasProduct: (id: string) => boolean, productFile: string): PackageContext {
  const seen = new Set<string>();
  return {
    hasProduct,
    productFile,
    claim: (ndc11) => !seen.has(ndc11) && Boolean(seen.add(ndc11)),
  };
}
