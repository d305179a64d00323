/**
 * Expands the curated brand lines of one country into snapshot products: one product per
 * brand, dose form and strength (the unit registers such as BDPM and dm+d use), each with
 * packs in the country's pack sizes, identifiers, prices and, in Switzerland, SL data and
 * monographs.
 */
import type { Ingredient, Jurisdiction, MonographEntry, PackEntry, ProductEntry } from '../../workers/ingest/snapshot.ts';
import type { Curated, CuratedBrand, CuratedCountry, CuratedDoseForm } from './curated.ts';
import { packCodes, productCodes, type CodeRegistry } from './identifiers.ts';
import { formatStrength, packDescription, productName } from './naming.ts';
import { BASE_PRICE_DATE, frenchRate, packPricing, slEntry } from './prices.ts';
import { rng } from './prng.ts';

/** A form of a substance or combination, normalised to strength vectors. */
interface Offer {
  form: string;
  unit: string;
  packs: number[];
  fixed: boolean;
  atc: string;
  strengths: number[][];
  ingredients: (values: number[]) => Ingredient[];
  ref: number;
}

function computeOffers(curated: Curated, id: string): Offer[] {
  const substance = curated.substances.find((s) => s.id === id);
  if (substance) {
    return substance.forms.map((f) => ({
      form: f.form, unit: f.unit, packs: f.packs, fixed: f.fixed === true,
      atc: f.atc ?? substance.atc[0] ?? '',
      strengths: f.strengths.map((v) => [v]),
      ingredients: ([v]) => [{ unii: f.salt ?? substance.unii, strength_value: v, strength_unit: f.unit }],
      ref: substance.ref ?? 0.5,
    }));
  }
  const combo = curated.combinations.find((c) => c.id === id);
  if (!combo) throw new Error(`demo brand refers to unknown substance ${id}`);
  const uniis = combo.components.map((c) => {
    const s = curated.substances.find((x) => x.id === c.s);
    if (!s) throw new Error(`combination ${id} refers to unknown substance ${c.s}`);
    return c.salt ?? s.unii;
  });
  return combo.forms.map((f) => ({
    form: f.form, unit: f.unit, packs: f.packs, fixed: f.fixed === true, atc: combo.atc,
    strengths: f.strengths,
    ingredients: (values) => uniis.map((unii, i) => ({ unii, strength_value: values[i], strength_unit: f.unit })),
    ref: combo.ref,
  }));
}

const offerCache = new WeakMap<Curated, Map<string, Offer[]>>();

function offersOf(curated: Curated, id: string): Offer[] {
  let byId = offerCache.get(curated);
  if (!byId) offerCache.set(curated, (byId = new Map()));
  let offers = byId.get(id);
  if (!offers) byId.set(id, (offers = computeOffers(curated, id)));
  return offers;
}

const sameStrength = (a: number[], b: number | number[]): boolean =>
  Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a.length === 1 && a[0] === b;

/** Price multiplier and validity date per brand line (the update build changes some). */
export type PriceRule = (brand: CuratedBrand) => { factor: number; validFrom: string } | undefined;

function monographsFor(curated: Curated, key: string | undefined): MonographEntry[] | undefined {
  if (!key) return undefined;
  const texts = curated.monographs[key];
  if (!texts) throw new Error(`unknown demo monograph ${key}`);
  return (['de', 'fr', 'it'] as const).map((lang) => ({ lang, title: texts[lang].title, sections: { ...texts[lang].sections } }));
}

function authorisedOn(line: string, year: number | undefined): string {
  const r = rng(`authorised|${line}`);
  const y = year ?? 2000 + r.int(0, 20);
  return `${y}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
}

/** Pack sizes: fixed ones as curated, else the country's usual counts (US 500s only for generics). */
function packSizes(country: Jurisdiction, cc: CuratedCountry, offer: Offer, generic: boolean): number[] {
  if (offer.fixed) return offer.packs;
  return cc.packs.slice(0, country === 'US' && generic ? 3 : 2);
}

function buildPacks(
  curated: Curated, country: Jurisdiction, brand: CuratedBrand, offer: Offer, doseForm: CuratedDoseForm,
  codes: ReturnType<typeof productCodes>, seq: number, name: string, ratio: number, reg: CodeRegistry, rule: PriceRule,
): PackEntry[] {
  const cc = curated.countries[country];
  const change = rule(brand);
  return packSizes(country, cc, offer, brand.g === true).map((units, i) => {
    const pc = packCodes(country, codes, seq, i, reg);
    const pricing = packPricing({
      country, cc, ref: offer.ref, strengthRatio: ratio, units, generic: brand.g === true,
      otc: brand.otc === true, seed: pc.key,
    }, change?.factor ?? 1, change?.validFrom ?? BASE_PRICE_DATE);
    const pack: PackEntry = {
      key: pc.key,
      description: packDescription(name, units, doseForm.unit, cc.lang),
      units,
      unit: doseForm.unit,
      identifiers: pc.identifiers,
      prices: pricing.prices,
      marketing_status: 'active',
    };
    if (country === 'CH') {
      const limitation = brand.lim ? curated.limitations[brand.lim] ?? null : null;
      pack.sl = slEntry(pricing, {
        listed: brand.otc !== true && brand.nosl !== true, generic: brand.g === true, co40: brand.co40 === true,
        limitation, year: brand.y ?? 2000,
      });
    }
    if (country === 'FR' && brand.otc !== true) pack.reimbursement_rate_percent = frenchRate(offer.atc, offer.ref);
    return pack;
  });
}

/** All products of one country, in curated order (stable, so natural keys are stable). */
export function buildCountryProducts(
  curated: Curated, country: Jurisdiction, brands: CuratedBrand[], reg: CodeRegistry, rule: PriceRule = () => undefined,
): ProductEntry[] {
  const cc = curated.countries[country];
  const products: ProductEntry[] = [];
  for (const brand of brands) {
    const offers = offersOf(curated, brand.s);
    const chosen = brand.f ? brand.f.map((f) => offers.find((o) => o.form === f)) : [offers[0]];
    for (const offer of chosen) {
      if (!offer) throw new Error(`${country} ${brand.n}: form not offered for ${brand.s}`);
      const doseForm = curated.forms[offer.form];
      if (!doseForm) throw new Error(`unknown dose form ${offer.form}`);
      const strengths = offer.strengths.filter((s) => !brand.st || brand.st.some((x) => sameStrength(s, x)));
      const line = `${country}|${brand.n}|${brand.h}|${offer.form}`;
      strengths.forEach((values, index) => {
        const seq = index + 1;
        const generic = brand.g === true;
        const codes = productCodes({ country, line, holder: brand.h, seq, generic, labeler: brand.ndc }, reg);
        const strength = formatStrength(values, offer.unit, cc.lang, country);
        const name = productName(country, cc.lang, brand.n, strength, doseForm, generic);
        const ratio = (values[0] ?? 1) / (offer.strengths[0]?.[0] ?? values[0] ?? 1);
        const product: ProductEntry = {
          key: codes.key,
          country,
          product_name: name,
          generic,
          atc_code: offer.atc,
          dose_form: doseForm.edqm,
          route: doseForm.route,
          holder: brand.h,
          marketing_status: 'active',
          authorised_on: authorisedOn(line, brand.y),
          identifiers: codes.identifiers,
          ingredients: offer.ingredients(values),
          packs: buildPacks(curated, country, brand, offer, doseForm, codes, seq, name, ratio, reg, rule),
        };
        if (!generic) product.brand = brand.n;
        const monographs = country === 'CH' ? monographsFor(curated, brand.mono) : undefined;
        if (monographs) product.monographs = monographs;
        products.push(product);
      });
    }
  }
  return products;
}
