/**
 * Row mapping of the Danish takst (dk-lms-layout.ts): an lms01 drug becomes a product keyed by
 * its 11-digit Drug ID, an lms02 package a pack keyed by its 6-digit varenummer, lms03 gives
 * the pack's prices (øre → DKK), lms09 the holder's name, lms30 the substances.
 */
import { isoFromCompact, leadingQuantity, provisionalNameKey } from './common.ts';
import type { Ingredient, PackEntry, Price, ProductEntry } from '../snapshot.ts';
import type { LmsRecord } from './dk-lms-layout.ts';

/** `ååååmmdd` to ISO; blank or zeros (the takst's "none") to undefined. */
export function dateOf(raw: string): string | undefined {
  return /^0*$/.test(raw) ? undefined : isoFromCompact(raw) ?? undefined;
}

/**
 * Strength units of the takst (LMS15, enhedstype 3: `MG`, `MGM` mg/ml, `RGD` mikg/dosis …) as
 * drugref writes them. A unit code with no denominator may still have one in the text
 * (`2 MIE/ml` is coded `MIU`). `W/V` ratios (`1:20 W/V`, allergen extracts) are no amount.
 */
const STRENGTH_UNITS: Record<string, string> = {
  MG: 'mg', G: 'g', RG: 'µg', IU: 'IU', UN: 'U', MIU: 'MIU', MIL: 'MU', MMO: 'mmol', MOL: 'mol', PC: '%',
  MGM: 'mg/ml', MGD: 'mg/dose', MGG: 'mg/g', MGL: 'mg/l', MGT: 'mg/h', MGH: 'mg/24 h', MGF: 'mg/72 h', MGS: 'mg/16 h',
  GDO: 'g/dose', GL: 'g/l', GML: 'g/ml', RGD: 'µg/dose', RGG: 'µg/g', RGH: 'µg/24 h', RGM: 'µg/ml', RGT: 'µg/h',
  IUD: 'IU/dose', IUG: 'IU/g', IUM: 'IU/ml', MIM: 'MIU/ml', XAM: 'IU/ml', UDO: 'U/dose', UML: 'U/ml', MML: 'mmol/l', MOM: 'mmol/ml',
  // Not LMS15 codes but the Danish words some exports write in their place.
  IE: 'IU', E: 'U',
};

/** Pack size units of the takst (LMS15, enhedstype 4) as their short text gives them. */
const PACK_UNITS: Record<string, string> = {
  ST: 'stk.', ML: 'ml', G: 'g', KG: 'kg', LT: 'l', DO: 'doser', SE: 'sæt', HT: 'htgl', HS: 'htgl+solv',
};

/** The product of one lms01 record; holder and ingredients are filled in from lms09/lms30. */
export function productOf(r: LmsRecord): ProductEntry {
  const name = r.get('navn');
  const strength = r.get('styrkeTekst');
  const form = r.get('formTekst');
  const product: ProductEntry = {
    key: r.get('drugId'),
    country: 'DK',
    product_name: [name, form, strength].filter((s) => s !== '').join(' '),
    brand: name,
    identifiers: [{ system: 'dk_drug_id', code: r.get('drugId') }],
    ingredients: [],
    packs: [],
    marketing_status: dateOf(r.get('afregistreret')) ? 'withdrawn' : 'active',
  };
  const atc = r.get('atc');
  if (/^[A-Z]\d{2}[A-Z]{2}\d{2}$|^[A-Z]\d{2}[A-Z]{0,2}$/.test(atc)) product.atc_code = atc;
  // The takst lists medicines for animals too, classed by ATCvet (`QJ01…`): kept, findable by
  // code, out of human search, the ATCvet code as an attribute.
  if (/^Q[A-Z]\d{2}/.test(atc)) product.veterinary = true;
  if (form !== '') product.dose_form = form;
  if (r.get('administrationsvej') !== '') product.route = r.get('administrationsvej');
  product.attributes = attributesOf(r);
  return product;
}

function attributesOf(r: LmsRecord): Record<string, string | boolean> {
  const attributes: Record<string, string | boolean> = { varetype: r.get('varetype'), varedeltype: r.get('varedeltype') };
  const optional: Array<[string, string]> = [
    ['form_code', 'formKode'], ['substitution_group', 'substitutionsgruppe'], ['holder_code', 'mtIndehaver'],
  ];
  for (const [attribute, field] of optional) if (r.get(field) !== '') attributes[attribute] = r.get(field);
  if (/^Q[A-Z]\d{2}/.test(r.get('atc'))) attributes.atcvet_code = r.get('atc');
  if (r.get('trafikadvarsel') === 'J') attributes.traffic_warning = true;
  if (r.get('dosisdispensering') === 'D') attributes.dose_dispensing = true;
  const deregistered = dateOf(r.get('afregistreret'));
  if (deregistered) attributes.deregistered_on = deregistered;
  const quarantine = dateOf(r.get('karantaene'));
  if (quarantine) attributes.quarantine_from = quarantine;
  return attributes;
}

/** The strength of a single-substance drug as lms01 states it (numerisk has three decimals). */
export function strengthOf(r: LmsRecord): Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> {
  const out: Pick<Ingredient, 'strength_value' | 'strength_unit' | 'strength_text'> = {};
  if (r.get('styrkeTekst') !== '') out.strength_text = r.get('styrkeTekst');
  const numeric = r.get('styrkeNumerisk');
  const unit = STRENGTH_UNITS[r.get('styrkeEnhed').toUpperCase()];
  if (/^\d+$/.test(numeric) && Number(numeric) > 0 && unit) {
    out.strength_value = Number(numeric) / 1000;
    // A code naming the amount only may have its denominator in the text (`2 MIE/ml` coded MIU).
    const per = unit.includes('/') ? undefined : /\/\s*(ml|g|dosis)\s*$/i.exec(r.get('styrkeTekst'))?.[1]?.toLowerCase();
    out.strength_unit = per ? `${unit}/${per === 'dosis' ? 'dose' : per}` : unit;
  }
  return out;
}

/** Ingredients of a drug from its lms30 substances, in file order; the strength only when there is one. */
export function ingredientsOf(substances: readonly string[], drug: LmsRecord | undefined): Ingredient[] {
  return substances.map((name) => ({
    unii: provisionalNameKey(name),
    ...(substances.length === 1 && drug ? strengthOf(drug) : {}),
  }));
}

/**
 * The pack of one lms02 record. `udgået` is the date the package leaves the takst: on or
 * before the takst's own date (system.txt) it is withdrawn, after it still sold until then;
 * without the takst date any `udgået` date counts as withdrawn. The date is the varenummer's
 * `valid_to` either way.
 */
export function packOf(r: LmsRecord, takstDate?: string): PackEntry {
  const text = r.get('pakningTekst');
  const until = dateOf(r.get('udgaaet'));
  const pack: PackEntry = {
    key: r.get('varenummer'),
    description: text,
    identifiers: [{ system: 'dk_varenummer', code: r.get('varenummer'), ...(until ? { valid_to: until } : {}) }],
    marketing_status: until && (takstDate === undefined || until <= takstDate) ? 'withdrawn' : 'active',
  };
  const quantity = leadingQuantity(text);
  const numeric = r.get('pakningNumerisk');
  const unit = PACK_UNITS[r.get('pakningEnhed').toUpperCase()];
  if (quantity) Object.assign(pack, quantity);
  else if (/^\d+$/.test(numeric) && Number(numeric) > 0 && unit) Object.assign(pack, { units: Number(numeric) / 100, unit });
  if (r.get('udlevering') !== '') pack.dispensing_category = r.get('udlevering');
  return pack;
}

/**
 * Product attributes from its packages (a pack has no attribute map): the medicintilskud codes
 * (LMS16) and reimbursement clauses in pack order, distinct, comma separated.
 */
export function packAttributes(packages: readonly LmsRecord[]): Record<string, string> {
  const out: Record<string, string> = {};
  const distinct = (field: string): string => [...new Set(packages.map((p) => p.get(field)).filter((v) => v !== ''))].join(',');
  if (distinct('tilskud') !== '') out.reimbursement_code = distinct('tilskud');
  if (distinct('klausul') !== '') out.reimbursement_clause = distinct('klausul');
  return out;
}

/** The prices of one lms03 record; a zero amount is the takst's "no such price" (HF/HX packs carry none). */
export function pricesOf(r: LmsRecord, validFrom: string | undefined): Price[] {
  // AUP is the registerpris (pharmacy retail incl. margin and VAT, without the prescription
  // fee), as medicinpriser.dk shows it; ESP adds that fee per dispensing and is left unread.
  const kinds: Array<[string, string]> = [['aip', 'ex_factory'], ['registerpris', 'public'], ['tsp', 'reimbursed']];
  const out: Price[] = [];
  for (const [field, kind] of kinds) {
    const ore = Number(r.get(field) || '0');
    if (ore > 0) out.push({ amount: ore / 100, currency: 'DKK', kind, ...(validFrom ? { valid_from: validFrom } : {}) });
  }
  return out;
}

/** The date of the pack's latest price change (lms02), the prices' `valid_from`. */
export function priceDateOf(r: LmsRecord): string | undefined {
  return dateOf(r.get('prisaendring'));
}
