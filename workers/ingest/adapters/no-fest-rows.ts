/**
 * Mapping of FEST entries (no-fest-xml.ts) to the snapshot: a LegemiddelMerkevare is a product
 * keyed by its FEST id (`no_merkevare_id`), a Legemiddelpakning a pack keyed by its varenummer
 * (`no_varenummer`, with its GTIN), its strengths come from VirkestoffMedStyrke → Virkestoff.
 * Coded values are FEST's `V` (code) / `DN` (display name) / `S` (code system OID) triples.
 */
import { normaliseFestId, normaliseGtin } from '../../../vocabulary/codes.ts';
import { parseDecimal, provisionalNameKey } from './common.ts';
import type { Ingredient, PackEntry, Price, ProductEntry, SubstanceEntry } from '../snapshot.ts';
import { attrOf, childOf, childrenOf, textOf } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';
import type { FestEntry } from './no-fest-xml.ts';

/**
 * Price types of FEST code system 2.16.578.1.12.4.1.1.7453. Trinnpris (5) is the stepped
 * maximum price of a generic, which is also what the blue prescription reimburses.
 */
const PRICE_KINDS: Record<string, string> = { 3: 'ex_factory', 4: 'public', 2: 'reimbursed', 5: 'reimbursed' };

const ATC = /^[A-Z](?:\d{2}(?:[A-Z](?:[A-Z](?:\d{2})?)?)?)?$/;

/** A malformed entry's message, thrown by the mappers and reported by the adapter. */
export class FestEntryError extends Error {}

/** The substance of a Virkestoff: keyed by the English name where FEST gives one, so registers link. */
export function substanceOf(virkestoff: XmlElement): SubstanceEntry {
  const norwegian = textOf(virkestoff, 'Navn');
  const english = textOf(virkestoff, 'NavnEngelsk');
  return {
    unii: provisionalNameKey(english || norwegian),
    name: english || norwegian,
    names: { no: norwegian, ...(english ? { en: english } : {}) },
    provisional: true,
  };
}

/**
 * `50 mg`, `100 E/ml`, `50 mg/5 ml`: the strength as FEST states it (text), and as a value per
 * one unit of the denominator (`10 mg/ml`), so strengths compare across registers.
 */
function strengthOf(styrke: XmlElement): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  const amount = childOf(styrke, 'Styrke');
  const value = parseDecimal(attrOf(amount, 'V'));
  const unit = attrOf(amount, 'U');
  if (value === null || unit === '') return {};
  const per = childOf(styrke, 'StyrkeNevner');
  const perUnit = attrOf(per, 'U');
  const perValue = parseDecimal(attrOf(per, 'V')) ?? 1;
  if (perUnit === '' || perValue <= 0) return { strength_value: value, strength_unit: unit, strength_text: `${attrOf(amount, 'V')} ${unit}` };
  const text = `${attrOf(amount, 'V')} ${unit}/${perValue === 1 ? '' : `${attrOf(per, 'V')} `}${perUnit}`;
  return { strength_value: Number((value / perValue).toPrecision(12)), strength_unit: `${unit}/${perUnit}`, strength_text: text };
}

/** An ingredient as a merkevare names it: a VirkestoffMedStyrke id, or a Virkestoff id without strength. */
export type IngredientRef = { styrke: string } | { virkestoff: string };

/** The ingredient references of a merkevare in FEST's order: those with strength, then those without. */
function ingredientRefs(merkevare: XmlElement): IngredientRef[] {
  const sorted = (name: string): XmlElement[] => childrenOf(merkevare, name).sort((a, b) => Number(textOf(a, 'Sortering')) - Number(textOf(b, 'Sortering')));
  return [
    ...sorted('SortertVirkestoffMedStyrke').map((s) => ({ styrke: textOf(s, 'RefVirkestoffMedStyrke') })),
    ...sorted('SortertVirkestoffUtenStyrke').map((s) => ({ virkestoff: textOf(s, 'RefVirkestoff') })),
  ];
}

/** Resolves ingredient references once the whole file is read (FEST lists substances after products). */
export function resolveIngredients(refs: readonly IngredientRef[], styrker: Map<string, XmlElement>, virkestoffer: Map<string, XmlElement>): Ingredient[] {
  const key = (id: string): string => {
    const v = virkestoffer.get(id);
    if (!v) throw new FestEntryError(`names Virkestoff ${id}, which the file does not list`);
    return substanceOf(v).unii;
  };
  return refs.map((ref) => {
    if ('virkestoff' in ref) return { unii: key(ref.virkestoff) };
    const styrke = styrker.get(ref.styrke);
    if (!styrke) throw new FestEntryError(`names VirkestoffMedStyrke ${ref.styrke}, which the file does not list`);
    return { unii: key(textOf(styrke, 'RefVirkestoff')), ...strengthOf(styrke) };
  });
}

/** The product of a LegemiddelMerkevare entry, ingredients still as references; packs are added by the adapter. */
export function productOf(entry: FestEntry): { product: ProductEntry; refs: IngredientRef[] } {
  const m = entry.element;
  const id = normaliseFestId(textOf(m, 'Id'));
  if (!id) throw new FestEntryError(`LegemiddelMerkevare Id "${textOf(m, 'Id')}" is not a FEST id`);
  const name = textOf(m, 'NavnFormStyrke') || textOf(m, 'Varenavn');
  if (name === '') throw new FestEntryError(`LegemiddelMerkevare ${id} has no name`);
  const product: ProductEntry = {
    key: id, country: 'NO', product_name: name, identifiers: [{ system: 'no_merkevare_id', code: id }],
    ingredients: [], packs: [],
    marketing_status: entry.status === 'A' ? 'active' : 'withdrawn',
  };
  if (textOf(m, 'Varenavn') !== '') product.brand = textOf(m, 'Varenavn');
  const atc = attrOf(childOf(m, 'Atc'), 'V');
  if (ATC.test(atc)) product.atc_code = atc;
  const form = textOf(m, 'LegemiddelformLang') || attrOf(childOf(m, 'LegemiddelformKort'), 'DN');
  if (form !== '') product.dose_form = form;
  const route = attrOf(childOf(childOf(m, 'AdministreringLegemiddel'), 'Administrasjonsvei'), 'DN');
  if (route !== '') product.route = route;
  // Newer files nest the manufacturer in ProduktInfo; older ones give it directly.
  const holder = textOf(childOf(m, 'ProduktInfo'), 'Produsent') || textOf(m, 'Produsent');
  if (holder !== '') product.holder = holder;
  const group = attrOf(childOf(m, 'Reseptgruppe'), 'V');
  if (group !== '') product.dispensing_category = group;
  // The black triangle of EU additional monitoring, present (coded) only where it applies.
  if (attrOf(childOf(m, 'SvartTrekant'), 'V') !== '') product.additional_monitoring = true;
  const attributes: Record<string, string> = {};
  const type = attrOf(childOf(m, 'Preparattype'), 'DN');
  if (type !== '') attributes.preparation_type = type;
  if (Object.keys(attributes).length > 0) product.attributes = attributes;
  return { product, refs: ingredientRefs(m) };
}

/** The prices of a pack, every dated entry kept (FEST lists past and coming prices), oldest first. */
function pricesOf(pakning: XmlElement): Price[] {
  const all = childrenOf(pakning, 'PrisVare').flatMap((p): Price[] => {
    const types = new Set(childrenOf(pakning, 'PrisVare').map((q) => attrOf(childOf(q, 'Type'), 'V')));
    const type = attrOf(childOf(p, 'Type'), 'V');
    // Trinnpris stands for the reimbursed price only where FEST gives no Refusjonspris.
    if (type === '5' && types.has('2')) return [];
    const kind = PRICE_KINDS[type];
    const amount = parseDecimal(attrOf(childOf(p, 'Pris'), 'V'));
    if (!kind || amount === null) return [];
    const from = textOf(p, 'GyldigFraDato');
    return [{ amount, currency: attrOf(childOf(p, 'Pris'), 'U') || 'NOK', kind, ...(from ? { valid_from: from } : {}) }];
  });
  return all.sort((a, b) => (a.valid_from ?? '').localeCompare(b.valid_from ?? ''));
}

/** The merkevare a pack belongs to (`Pakningsinfo/RefLegemiddelMerkevare`, older files `Merkevareid`). */
export function merkevareOf(pakning: XmlElement): string | null {
  const info = childOf(pakning, 'Pakningsinfo');
  return normaliseFestId(textOf(info, 'RefLegemiddelMerkevare') || textOf(info, 'Merkevareid'));
}

/** The pack of a Legemiddelpakning entry. */
export function packOf(entry: FestEntry): PackEntry {
  const p = entry.element;
  const varenr = textOf(p, 'Varenr');
  if (!/^\d{6}$/.test(varenr)) throw new FestEntryError(`Varenr "${varenr}" is not 6 digits`);
  const info = childOf(p, 'Pakningsinfo');
  const size = parseDecimal(textOf(info, 'Pakningsstr'));
  const unit = attrOf(childOf(info, 'EnhetPakning'), 'V');
  const packaging = attrOf(childOf(info, 'Pakningstype'), 'DN');
  const description = [size !== null ? `${textOf(info, 'Pakningsstr')} ${unit}`.trim() : '', packaging ? `(${packaging})` : ''].filter(Boolean).join(' ');
  const pack: PackEntry = {
    key: varenr,
    description: description || textOf(p, 'NavnFormStyrke'),
    identifiers: [{ system: 'no_varenummer', code: varenr }],
    marketing_status: entry.status === 'A' ? 'active' : 'withdrawn',
  };
  for (const ean of childrenOf(p, 'Ean')) {
    const gtin = normaliseGtin(ean.text.trim());
    if (gtin) pack.identifiers.push({ system: 'gtin', code: gtin });
  }
  if (size !== null && size > 0) Object.assign(pack, { units: size, unit });
  const prices = pricesOf(p);
  if (prices.length > 0) pack.prices = prices;
  const group = attrOf(childOf(p, 'Reseptgruppe'), 'V');
  if (group !== '') pack.dispensing_category = group;
  const marketing = childOf(p, 'Markedsforingsinfo');
  if (textOf(marketing, 'AvregDato') !== '') pack.marketing_status = 'withdrawn';
  else if (textOf(marketing, 'MidlUtgattDato') !== '') pack.availability = 'temporarily_unavailable';
  return pack;
}

/** True when the pack is on the blue-prescription list (it names a reimbursement group). */
export function isReimbursed(entry: FestEntry): boolean {
  return childrenOf(entry.element, 'Refusjon').some((r) => textOf(r, 'RefRefusjonsgruppe') !== '');
}

/** The date the pack was first marketed, where FEST gives it. */
export function marketedOn(entry: FestEntry): string | undefined {
  return textOf(childOf(entry.element, 'Markedsforingsinfo'), 'Markedsforingsdato') || undefined;
}
