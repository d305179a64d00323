/**
 * One `Amp` record of the SAM v2 actual-medicines export as a product: names in the four
 * languages, holder, status and black triangle, dose form and route of the first component,
 * active ingredients with their strengths, and each `Ampp` as a pack keyed by its
 * CTI-extended code with its CNKs (`Dmpp`, code type CNK), GTIN (FMD product code), ATC,
 * delivery modus, ex-factory price and pharmacy price. Facts come from the `Data` slice valid
 * on the reading day; earlier slices give the names the product had before.
 */
import { normaliseGtin, normaliseIdentifier } from '../../../vocabulary/codes.ts';
import type { Identifier, Ingredient, PackEntry, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { leadingQuantity, provisionalNameKey } from './common.ts';
import { attr, childOf, childrenOf, currentSlice, euro, firstText, flag, slices, textOf, texts } from './be-sam-read.ts';
import type { Slice } from './be-sam-read.ts';
import type { SamReimbursement } from './be-sam-rmb.ts';
import type { XmlElement } from './xml-records.ts';

/** A problem inside a record that costs only the part it names (one pack). */
export interface PartProblem {
  line: number;
  message: string;
}

/** What the builder shares across records: the reading day and the substances named so far. */
export interface SamContext {
  day: string;
  substances: Map<string, SubstanceEntry>;
  /** CNKs given to a pack so far: a CNK names one pack, a second pack claiming it is a problem. */
  cnks: Set<string>;
  /** Reimbursement of public-pharmacy CNKs, from the RMB export when it was given. */
  reimbursements: Map<string, SamReimbursement>;
  /** Companies by actor number, from FindCompany answers: a DICS AMP names its holder by number only. */
  companies?: Map<string, string>;
  /** VMP names by VMP code, from FindVmp answers. */
  vmps?: Map<string, string>;
}

/** An ingredient of the current slice, its substance registered in the context. */
function ingredient(element: XmlElement, ctx: SamContext): Ingredient | null {
  const data = currentSlice(element, ctx.day)?.data;
  if (!data || textOf(data, 'Type') !== 'ACTIVE_SUBSTANCE') return null;
  const names = texts(childOf(childOf(data, 'Substance'), 'Name'));
  // English first: it is the name other registers' substances are matched on.
  const name = names.en ?? names.nl ?? names.fr ?? names.de;
  if (!name) return null;
  const key = provisionalNameKey(name);
  if (!ctx.substances.has(key)) ctx.substances.set(key, { unii: key, name, names: { ...names }, provisional: true });
  const out: Ingredient = { unii: key };
  const strength = childOf(data, 'Strength');
  const value = Number(strength?.text.trim());
  if (strength && strength.text.trim() !== '' && Number.isFinite(value)) {
    out.strength_value = value;
    if (attr(strength, 'unit') !== '') out.strength_unit = attr(strength, 'unit');
  }
  const text = textOf(data, 'StrengthDescription') || (out.strength_value !== undefined ? `${out.strength_value} ${out.strength_unit ?? ''}`.trim() : '');
  if (text !== '') out.strength_text = text;
  return out;
}

/** Dose form, route and ingredients of the components (form and route of the first that names them). */
function components(amp: XmlElement, product: ProductEntry, ctx: SamContext): void {
  for (const component of childrenOf(amp, 'AmpComponent')) {
    const data = currentSlice(component, ctx.day)?.data;
    product.dose_form ??= firstText(childOf(childOf(data, 'PharmaceuticalForm'), 'Name')) || undefined;
    product.route ??= firstText(childOf(childOf(data, 'RouteOfAdministration'), 'Name')) || undefined;
    for (const element of childrenOf(component, 'RealActualIngredient')) {
      const found = ingredient(element, ctx);
      if (found) product.ingredients.push(found);
    }
  }
  if (product.dose_form === undefined) delete product.dose_form;
  if (product.route === undefined) delete product.route;
}

/** A CNK as stored (7 digits); null when the code is not one. */
function cnkOf(raw: string): string | null {
  return /^\d{1,7}$/.test(raw.trim()) ? normaliseIdentifier('be_apb', raw.trim()) : null;
}

/** The statutory rate and reimbursement base price of a public-pharmacy CNK, once per pack. */
function reimbursement(found: SamReimbursement | undefined, pack: PackEntry): void {
  if (!found || pack.prices!.some((p) => p.kind === 'reimbursed')) return;
  if (found.rate !== undefined) pack.reimbursement_rate_percent = found.rate;
  if (found.basePrice !== undefined) pack.prices!.push({ amount: found.basePrice, currency: 'EUR', kind: 'reimbursed', ...(found.validFrom ? { valid_from: found.validFrom } : {}) });
}

/** CNKs and pharmacy price of the pack's DMPPs; the public price is the one of delivery environment P. */
function dmpps(ampp: XmlElement, pack: PackEntry, ctx: SamContext, problems: PartProblem[]): void {
  for (const dmpp of childrenOf(ampp, 'Dmpp')) {
    if (attr(dmpp, 'codeType') !== 'CNK') continue;
    const cnk = cnkOf(attr(dmpp, 'code'));
    if (!cnk) { problems.push({ line: dmpp.line, message: `AMPP ${pack.key}: CNK "${attr(dmpp, 'code')}" is not a 7-digit code` }); continue; }
    if (!pack.identifiers.some((i) => i.system === 'be_apb' && i.code === cnk)) {
      if (ctx.cnks.has(cnk)) { problems.push({ line: dmpp.line, message: `AMPP ${pack.key}: CNK ${cnk} already names another pack (the first is kept)` }); continue; }
      ctx.cnks.add(cnk);
      pack.identifiers.push({ system: 'be_apb', code: cnk });
    }
    if (attr(dmpp, 'deliveryEnvironment') !== 'P') continue;
    reimbursement(ctx.reimbursements.get(cnk), pack);
    const slice = currentSlice(dmpp, ctx.day);
    if (!slice) continue;
    const price = euro(slice.data, 'Price');
    // SAM writes 0.0000 for a pack sold in no public pharmacy (a hospital infusion): no price, not a free one.
    if (price !== null && price > 0) pack.prices!.push({ amount: price, currency: 'EUR', kind: 'public', ...(slice.from ? { valid_from: slice.from } : {}) });
  }
}

/** Identifiers of the pack's current slice: GTIN, EU or national authorisation number. */
function packIdentifiers(data: XmlElement, ids: Identifier[]): void {
  const gtin = normaliseGtin(textOf(data, 'FMDProductCode').replace(/\s/g, ''));
  if (gtin) ids.push({ system: 'gtin', code: gtin });
  const auth = textOf(data, 'AuthorisationNr');
  const eu = normaliseIdentifier('eu_number', auth);
  if (eu) ids.push({ system: 'eu_number', code: eu });
  else if (auth !== '') ids.push({ system: 'national', code: normaliseIdentifier('national', auth)! });
}

/** One AMPP as a pack; its ATC code is handed back for the product. */
function pack(ampp: XmlElement, ctx: SamContext, problems: PartProblem[]): { pack: PackEntry; atc?: string } | null {
  const cti = normaliseIdentifier('be_ampp_code', attr(ampp, 'ctiExtended'));
  if (!cti) { problems.push({ line: ampp.line, message: `AMPP without a valid ctiExtended ("${attr(ampp, 'ctiExtended')}")` }); return null; }
  const slice: Slice | undefined = currentSlice(ampp, ctx.day);
  if (!slice) { problems.push({ line: ampp.line, message: `AMPP ${cti}: no Data` }); return null; }
  const { data } = slice;
  const description = firstText(childOf(data, 'PackDisplayValue')) || firstText(childOf(data, 'PrescriptionNameFamhp')) || firstText(childOf(data, 'PrescriptionName')) || cti;
  const out: PackEntry = { key: cti, description, identifiers: [{ system: 'be_ampp_code', code: cti }], prices: [] };
  packIdentifiers(data, out.identifiers);
  const quantity = leadingQuantity(description);
  if (quantity) { out.units = quantity.units; out.unit = quantity.unit; }
  const exFactory = euro(data, 'ExFactoryPrice') ?? euro(data, 'RealExFactoryPrice') ?? euro(data, 'OfficialExFactoryPrice');
  if (exFactory !== null) out.prices!.push({ amount: exFactory, currency: 'EUR', kind: 'ex_factory', ...(slice.from ? { valid_from: slice.from } : {}) });
  dmpps(ampp, out, ctx, problems);
  const status = textOf(data, 'Status');
  if (status !== '') out.marketing_status = status === 'AUTHORIZED' ? 'active' : 'withdrawn';
  const modus = attr(childOf(data, 'DeliveryModus'), 'code');
  if (modus !== '') out.dispensing_category = modus;
  if (out.prices!.length === 0) delete out.prices;
  const atc = attr(childOf(data, 'Atc'), 'code').toUpperCase();
  return { pack: out, ...(/^[A-Z]\d{2}[A-Z]{2}\d{2}$/.test(atc) ? { atc } : {}) };
}

/** Names the product had in earlier slices, with the day each stopped applying. */
function previousNames(all: Slice[], current: string): ProductEntry['previous_names'] {
  const out: NonNullable<ProductEntry['previous_names']> = [];
  for (const s of all) {
    const name = firstText(childOf(s.data, 'Name'));
    if (name !== '' && name !== current && !out.some((p) => p.name === name)) out.push({ name, ...(s.to ? { until: s.to } : {}) });
  }
  return out.length > 0 ? out : undefined;
}

/** Facts without a field of their own: the names in the other languages, official name, medicine type, holder number. */
function attributes(data: XmlElement, amp: XmlElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lang, name] of Object.entries(texts(childOf(data, 'Name')))) out[`name_${lang}`] = name;
  const keep = (key: string, value: string): void => { if (value !== '') out[key] = value; };
  keep('official_name', textOf(data, 'OfficialName'));
  keep('medicine_type', textOf(data, 'MedicineType'));
  keep('company_actor_nr', attr(childOf(data, 'Company'), 'actorNr') || textOf(data, 'CompanyActorNr'));
  keep('vmp_code', attr(amp, 'vmpCode'));
  return out;
}

/** The holder's name: inline or in the company's current slice (export), else by actor number from a FindCompany answer (DICS). */
function holderOf(data: XmlElement, ctx: SamContext): string {
  const company = childOf(data, 'Company');
  return textOf(company, 'Denomination') || textOf(currentSlice(company, ctx.day)?.data, 'Denomination')
    || (ctx.companies?.get(textOf(data, 'CompanyActorNr')) ?? '');
}

/** The product of one `Amp` record, or why the whole record cannot be used. */
export function buildSamProduct(amp: XmlElement, ctx: SamContext, problems: PartProblem[]): ProductEntry | string {
  const code = normaliseIdentifier('be_amp_code', attr(amp, 'code'));
  if (!code) return `AMP code "${attr(amp, 'code')}" is not a SAM code (SAM######-##)`;
  const slice = currentSlice(amp, ctx.day);
  const name = firstText(childOf(slice?.data, 'Name'));
  if (!slice || name === '') return `AMP ${code}: no current name`;
  const { data } = slice;
  const product: ProductEntry = { key: code, country: 'BE', product_name: name, identifiers: [{ system: 'be_amp_code', code }], ingredients: [], packs: [] };
  const holder = holderOf(data, ctx);
  if (holder !== '') product.holder = holder;
  const status = textOf(data, 'Status');
  if (status !== '') { product.authorisation_status = status.toLowerCase(); product.marketing_status = status === 'AUTHORIZED' ? 'active' : 'withdrawn'; }
  if (flag(data, 'BlackTriangle') !== undefined) product.additional_monitoring = flag(data, 'BlackTriangle')!;
  components(amp, product, ctx);
  for (const element of childrenOf(amp, 'Ampp')) {
    const built = pack(element, ctx, problems);
    if (!built) continue;
    product.packs.push(built.pack);
    product.atc_code ??= built.atc;
    for (const id of built.pack.identifiers.filter((i) => i.system === 'eu_number')) {
      const base = /^EU\/[12]\/\d{2}\/\d{3,4}/.exec(id.code)![0];
      if (!product.identifiers.some((i) => i.code === base)) product.identifiers.push({ system: 'eu_number', code: base });
    }
  }
  if (product.atc_code === undefined) delete product.atc_code;
  // A DICS answer gives no status for the AMP itself: it is on the market while one of its packs is.
  if (product.marketing_status === undefined && product.packs.length > 0) {
    product.marketing_status = product.packs.some((p) => p.marketing_status === 'active') ? 'active' : 'withdrawn';
  }
  const previous = previousNames(slices(amp), name);
  if (previous) product.previous_names = previous;
  product.attributes = attributes(data, amp);
  const vmp = ctx.vmps?.get(attr(amp, 'vmpCode'));
  if (vmp) product.attributes.vmp_name = vmp;
  const categories = [...new Set(product.packs.flatMap((p) => p.identifiers)
    .map((i) => (i.system === 'be_apb' ? ctx.reimbursements.get(i.code)?.category : undefined)).filter((c): c is string => c !== undefined))];
  if (categories.length > 0) product.attributes.reimbursement_category = categories.join(';');
  return product;
}
