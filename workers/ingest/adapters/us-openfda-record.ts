/**
 * One openFDA drug/ndc record (an element of `results`) → a ProductEntry with its packages,
 * classes and ingredient names; the ingredients' substance keys are settled afterwards by
 * us-openfda-ndc.ts, once the whole file has shown which name goes with which UNII.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { ClassEntry, Ingredient, PackEntry, ProductEntry } from '../snapshot.ts';
import { RowError, isoFromCompact, leadingQuantity } from './common.ts';
import { isEnded, parsePharmClasses } from './fda-ndc-rows.ts';
import { ndc11Of, ndcPackIdentifiers, packageLayoutOf, productNdcCode } from './us-ndc.ts';

type Json = Record<string, unknown>;

/** A product read from a record, with what the UNII resolution needs. */
export interface OpenFdaProduct {
  product: ProductEntry;
  /** Ingredient names in register order (upper case), parallel to `product.ingredients`. */
  names: string[];
  /** Valid UNIIs of the record's openfda block (unordered, per openFDA). */
  uniis: string[];
  /** UNIIs the block lists that fail their check character. */
  invalidUniis: string[];
  classes: ClassEntry[];
}

const GENERIC_CATEGORIES = new Set(['ANDA', 'NDA AUTHORIZED GENERIC']);
const BRAND_CATEGORIES = new Set(['NDA', 'BLA']);
const CLASS_LISTS = ['pharm_class_epc', 'pharm_class_moa', 'pharm_class_pe', 'pharm_class_cs'] as const;

const str = (record: Json | undefined, key: string): string => {
  const value = record?.[key];
  return typeof value === 'string' ? value.trim() : '';
};
const list = (record: Json | undefined, key: string): unknown[] => {
  const value = record?.[key];
  return Array.isArray(value) ? value : [];
};
const strings = (record: Json | undefined, key: string): string[] =>
  list(record, key).filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `200 mg/1` → value and unit; the text is kept as written. */
export function parseStrength(raw: string): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s+(\S.*)$/.exec(raw.trim());
  if (!m) return raw.trim() ? { strength_text: raw.trim() } : {};
  return { strength_value: Number(m[1]), strength_unit: m[2]!, strength_text: raw.trim() };
}

/** Every `[EPC]`/`[MoA]`/`[PE]`/`[CS]` entry of the openfda lists (and the record's own `pharm_class`). */
function recordClasses(record: Json, openfda: Json | undefined): ClassEntry[] {
  const entries = [...CLASS_LISTS.flatMap((k) => strings(openfda, k)), ...strings(record, 'pharm_class')];
  const byKey = new Map<string, ClassEntry>();
  for (const c of entries.flatMap((e) => parsePharmClasses(e))) byKey.set(`${c.system}|${c.code}`, c);
  return [...byKey.values()];
}

function attributesOf(record: Json, openfda: Json | undefined): ProductEntry['attributes'] {
  const attributes: Record<string, string | boolean> = {};
  // `finished: false` marks bulk ingredients and drugs for further processing: never marketed products.
  if (record.finished === false) attributes.unfinished = true;
  for (const [key, name] of [['product_type', 'product_type'], ['marketing_category', 'marketing_category'], ['dea_schedule', 'dea_schedule'], ['spl_id', 'spl_id']] as const) {
    if (str(record, key)) attributes[name] = str(record, key);
  }
  const setId = strings(openfda, 'spl_set_id')[0];
  if (setId) attributes.spl_set_id = setId;
  return attributes;
}

function ingredientsOf(record: Json): { ingredients: Ingredient[]; names: string[] } {
  const ingredients: Ingredient[] = [];
  const names: string[] = [];
  for (const item of list(record, 'active_ingredients')) {
    if (!isObject(item) || !str(item, 'name')) throw new RowError('an active_ingredients entry has no name');
    names.push(str(item, 'name').toUpperCase());
    ingredients.push({ unii: '', ...parseStrength(str(item, 'strength')) });
  }
  return { ingredients, names };
}

function packOf(item: unknown, productNdc: string, asOf: Date): PackEntry {
  if (!isObject(item)) throw new RowError('a packaging entry is not an object');
  const printed = str(item, 'package_ndc');
  const ndc11 = ndc11Of(printed, packageLayoutOf(productNdc));
  if (!ndc11) throw new RowError(`package_ndc "${printed}" is not a 4-4-2, 5-3-2 or 5-4-1 NDC`);
  const description = str(item, 'description');
  const pack: PackEntry = {
    key: ndc11, description, identifiers: ndcPackIdentifiers(printed, ndc11),
    marketing_status: isEnded(str(item, 'marketing_end_date'), asOf) ? 'withdrawn' : 'active',
  };
  // openFDA joins package levels with ` / ` (the directory's text files with ` > `): the last counts units.
  const quantity = leadingQuantity(description.split(/\s+[>/]\s+/).pop() ?? '');
  if (quantity) Object.assign(pack, quantity);
  return pack;
}

function baseProduct(record: Json, productNdc: string, asOf: Date, openfda: Json | undefined): ProductEntry {
  const brand = [str(record, 'brand_name'), str(record, 'brand_name_suffix')].filter(Boolean).join(' ');
  const name = brand || str(record, 'generic_name');
  if (!name) throw new RowError('record has neither a brand_name nor a generic_name');
  const product: ProductEntry = {
    key: str(record, 'product_id') || str(record, 'product_ndc'), country: 'US', product_name: name,
    identifiers: [{ system: 'ndc', code: productNdc }], ingredients: [], packs: [],
    marketing_status: isEnded(str(record, 'marketing_end_date'), asOf) ? 'withdrawn' : 'active',
    attributes: attributesOf(record, openfda),
  };
  if (brand) product.brand = brand;
  const category = str(record, 'marketing_category').toUpperCase();
  if (GENERIC_CATEGORIES.has(category)) product.generic = true;
  else if (BRAND_CATEGORIES.has(category)) product.generic = false;
  if (str(record, 'dosage_form')) product.dose_form = str(record, 'dosage_form');
  // The text files join several routes with `; `; openFDA lists them.
  if (strings(record, 'route').length > 0) product.route = strings(record, 'route').join('; ');
  if (str(record, 'labeler_name')) product.holder = str(record, 'labeler_name');
  const started = isoFromCompact(str(record, 'marketing_start_date'));
  if (started) product.authorised_on = started;
  const application = normaliseIdentifier('national', str(record, 'application_number'));
  if (application) product.identifiers.push({ system: 'national', code: application });
  for (const rxcui of strings(openfda, 'rxcui')) {
    const code = normaliseIdentifier('rxcui', rxcui);
    if (code) product.identifiers.push({ system: 'rxcui', code });
  }
  return product;
}

/** Reads one record; throws RowError for a malformed one (reported and skipped by the caller). */
export function readOpenFdaRecord(value: unknown, asOf: Date): OpenFdaProduct {
  if (!isObject(value)) throw new RowError('results element is not an object');
  const productNdc = productNdcCode(str(value, 'product_ndc'));
  if (!productNdc) throw new RowError(`product_ndc "${str(value, 'product_ndc')}" is not a labeler-product NDC`);
  const openfda = isObject(value.openfda) ? value.openfda : undefined;
  const product = baseProduct(value, productNdc, asOf, openfda);
  const { ingredients, names } = ingredientsOf(value);
  product.ingredients = ingredients;
  product.packs = list(value, 'packaging').map((item) => packOf(item, str(value, 'product_ndc'), asOf));
  const listed = strings(openfda, 'unii').map((u) => u.toUpperCase());
  const uniis = listed.filter((u) => normaliseIdentifier('unii', u) !== null);
  const classes = recordClasses(value, openfda);
  if (classes.length > 0) product.classes = classes.map(({ system, code }) => ({ system, code }));
  return { product, names, uniis, invalidUniis: listed.filter((u) => !uniis.includes(u)), classes };
}
