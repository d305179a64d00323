/**
 * One product of an SPL document (a `subject/manufacturedProduct` record, us-spl.ts) → a
 * ProductEntry: the inner `manufacturedProduct` (SPL R5) or `manufacturedMedicine` (older SPL)
 * gives the product NDC, name, form and ingredients; its `asContent` chain gives the packages
 * with their NDCs, from the innermost container outwards.
 */
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { RowError, isoFromCompact, leadingQuantity, provisionalNameKey } from './common.ts';
import { attrOf as attr, childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';
import { ndc11Of, ndcPackIdentifiers, packageLayoutOf, productNdcCode } from './us-ndc.ts';

/** Ingredient classes that are active: basis of strength, moiety basis, reference drug basis. */
const ACTIVE_CLASSES = new Set(['ACTIB', 'ACTIM', 'ACTIR']);
const GENERIC_APPROVALS = new Set(['ANDA', 'NDA AUTHORIZED GENERIC']);
const BRAND_APPROVALS = new Set(['NDA', 'BLA']);

/** What reading a product needs besides its element. */
export interface SplContext {
  asOf: Date;
  substances: Map<string, SubstanceEntry>;
  /** Non-fatal findings (a bad UNII) for the problem log. */
  warn(message: string): void;
}

const path = (element: XmlElement | undefined, ...names: string[]): XmlElement | undefined =>
  names.reduce<XmlElement | undefined>((at, name) => childOf(at, name), element);
/** The first child of any of the names (SPL R5 and older spellings). */
const either = (element: XmlElement | undefined, ...names: string[]): XmlElement | undefined =>
  names.map((n) => childOf(element, n)).find((c) => c !== undefined);

interface Marketing { status?: 'active' | 'withdrawn'; start?: string }

/** `subjectOf/marketingAct`: completed with an end date on or before asOf → withdrawn. */
function marketingOf(element: XmlElement | undefined, asOf: Date): Marketing {
  const act = childrenOf(element, 'subjectOf').map((s) => childOf(s, 'marketingAct')).find((a) => a);
  if (!act) return {};
  const time = childOf(act, 'effectiveTime');
  const end = isoFromCompact(attr(childOf(time, 'high'), 'value').slice(0, 8));
  const status = attr(childOf(act, 'statusCode'), 'code') === 'completed' && end !== null && end <= asOf.toISOString().slice(0, 10) ? 'withdrawn' : 'active';
  const start = isoFromCompact(attr(childOf(time, 'low'), 'value').slice(0, 8));
  return { status, ...(start ? { start } : {}) };
}

function substanceKey(substance: XmlElement | undefined, context: SplContext): string {
  const name = textOf(substance, 'name');
  const code = attr(childOf(substance, 'code'), 'code');
  const unii = normaliseIdentifier('unii', code);
  if (unii) return unii;
  if (code) context.warn(`ingredient ${name} has code "${code}", not a valid UNII; keyed by name`);
  if (!name) throw new RowError('an active ingredient has neither a UNII nor a name');
  return provisionalNameKey(name);
}

function addSubstance(context: SplContext, key: string, name: string, moiety?: string): void {
  if (context.substances.has(key)) return;
  const entry: SubstanceEntry = { unii: key, name, ...(key.startsWith('name:') ? { provisional: true } : {}) };
  if (moiety && moiety !== key) entry.moiety_unii = moiety;
  context.substances.set(key, entry);
}

/** `numerator 200 mg / denominator 1 1` → 200 `mg/1`; `5 mL` denominators → `mg/5mL` (the directory's units). */
function strengthOf(quantity: XmlElement | undefined): Partial<Ingredient> {
  const [num, den] = [childOf(quantity, 'numerator'), childOf(quantity, 'denominator')];
  const value = Number(attr(num, 'value'));
  if (!num || attr(num, 'value') === '' || !Number.isFinite(value)) return {};
  const denValue = attr(den, 'value') || '1';
  const unit = `${attr(num, 'unit')}/${denValue === '1' ? '' : denValue}${attr(den, 'unit') || '1'}`;
  return { strength_value: value, strength_unit: unit, strength_text: `${attr(num, 'value')} ${unit}` };
}

function ingredientsOf(medicine: XmlElement, context: SplContext): Ingredient[] {
  const out: Ingredient[] = [];
  for (const ingredient of childrenOf(medicine, 'ingredient').concat(childrenOf(medicine, 'activeIngredient'))) {
    const classCode = attr(ingredient, 'classCode');
    if (ingredient.name === 'ingredient' && !ACTIVE_CLASSES.has(classCode)) continue;
    const substance = either(ingredient, 'ingredientSubstance', 'activeIngredientSubstance');
    const key = substanceKey(substance, context);
    const moietyElement = path(substance, 'activeMoiety', 'activeMoiety');
    const moiety = normaliseIdentifier('unii', attr(childOf(moietyElement, 'code'), 'code')) ?? undefined;
    if (moiety && moiety !== key) addSubstance(context, moiety, textOf(moietyElement, 'name') || moiety);
    addSubstance(context, key, textOf(substance, 'name'), moiety);
    const entry: Ingredient = { unii: key, ...strengthOf(childOf(ingredient, 'quantity')) };
    if (moiety && moiety !== key && classCode === 'ACTIM') entry.moiety = { unii: moiety };
    out.push(entry);
  }
  return out;
}

interface PackWalk { productNdc: string; asOf: Date; packs: PackEntry[] }

/** Walks `asContent` levels outwards; every container with an NDC code is a pack. */
function walkPackages(holder: XmlElement, innerForm: string, below: string[], walk: PackWalk): void {
  for (const content of childrenOf(holder, 'asContent')) {
    const container = either(content, 'containerPackagedProduct', 'containerPackagedMedicine');
    const form = attr(childOf(container, 'formCode'), 'displayName') || 'PACKAGE';
    const num = childOf(childOf(content, 'quantity'), 'numerator');
    const den = childOf(childOf(content, 'quantity'), 'denominator');
    const unit = attr(num, 'unit');
    const level = `${attr(num, 'value')} ${unit === '1' || unit === '' ? innerForm : unit} in ${attr(den, 'value') || '1'} ${form}`;
    const chain = [level, ...below];
    const code = attr(childOf(container, 'code'), 'code');
    if (code) {
      const ndc11 = ndc11Of(code, packageLayoutOf(walk.productNdc));
      if (!ndc11) throw new RowError(`package code "${code}" is not a 4-4-2, 5-3-2 or 5-4-1 NDC`);
      const description = chain.join(' > ');
      const pack: PackEntry = { key: ndc11, description, identifiers: ndcPackIdentifiers(code, ndc11) };
      const status = marketingOf(content, walk.asOf).status;
      if (status) pack.marketing_status = status;
      const quantity = leadingQuantity(chain[chain.length - 1]!);
      if (quantity) Object.assign(pack, quantity);
      walk.packs.push(pack);
    }
    if (container) walkPackages(container, form, chain, walk);
  }
}

function approvalOf(record: XmlElement, product: ProductEntry): void {
  const approval = childrenOf(record, 'subjectOf').map((s) => childOf(s, 'approval')).find((a) => a);
  const application = normaliseIdentifier('national', attr(childOf(approval, 'id'), 'extension'));
  if (application) product.identifiers.push({ system: 'national', code: application });
  const category = attr(childOf(approval, 'code'), 'displayName').toUpperCase();
  if (category) product.attributes = { ...product.attributes, marketing_category: category };
  if (GENERIC_APPROVALS.has(category)) product.generic = true;
  else if (BRAND_APPROVALS.has(category)) product.generic = false;
}

/** Reads one `subject/manufacturedProduct` record; throws RowError for a malformed one. */
export function readSplProduct(record: XmlElement, context: SplContext, labeler: string): ProductEntry {
  const medicine = either(record, 'manufacturedProduct', 'manufacturedMedicine');
  if (!medicine) throw new RowError('manufacturedProduct has no inner manufacturedProduct or manufacturedMedicine');
  const printed = attr(childOf(medicine, 'code'), 'code');
  const productNdc = productNdcCode(printed);
  if (!productNdc) throw new RowError(`product code "${printed}" is not a labeler-product NDC`);
  const name = textOf(medicine, 'name');
  const genericName = textOf(path(medicine, 'asEntityWithGeneric', 'genericMedicine'), 'name');
  if (!name && !genericName) throw new RowError(`product ${printed} has no name`);
  const marketing = marketingOf(record, context.asOf);
  const product: ProductEntry = {
    key: printed, country: 'US', product_name: name || genericName, identifiers: [{ system: 'ndc', code: productNdc }],
    ingredients: ingredientsOf(medicine, context), packs: [], marketing_status: marketing.status ?? 'active',
  };
  // A generic's SPL name is its generic name: only a different name is a brand.
  if (name && name.toUpperCase() !== genericName.toUpperCase()) product.brand = name;
  const form = attr(childOf(medicine, 'formCode'), 'displayName');
  if (form) product.dose_form = form;
  const route = attr(childOf(path(record, 'consumedIn', 'substanceAdministration'), 'routeCode'), 'displayName');
  if (route) product.route = route;
  if (labeler) product.holder = labeler;
  if (marketing.start) product.authorised_on = marketing.start;
  approvalOf(record, product);
  const walk: PackWalk = { productNdc: printed, asOf: context.asOf, packs: [] };
  walkPackages(medicine, form || 'UNIT', [], walk);
  // A package without a marketing act of its own follows the product's.
  product.packs = walk.packs.map((pack) => ({ ...pack, marketing_status: pack.marketing_status ?? product.marketing_status! }));
  return product;
}
