/**
 * The large synthetic catalogue as snapshot entries: N products spread evenly over the 16
 * jurisdictions, each in product lines (one brand or generic, one dose form, every curated
 * strength) of a curated substance or combination picked uniformly, so each of the 219
 * marketed substances and combinations gets about N / 219 products (4,600 at a million). Names, pack sizes, prices,
 * SL entries and reimbursement rates reuse the demo's rules (data/demo); identifiers come
 * from data/large/codes.ts. Deterministic for a seed. Synthetic data, not for clinical use.
 */
import { JURISDICTIONS } from '../../workers/ingest/snapshot.ts';
import type { Ingredient, Jurisdiction, PackEntry, ProductEntry } from '../../workers/ingest/snapshot.ts';
import { loadCurated } from '../demo/curated.ts';
import type { Curated, CuratedCountry, CuratedDoseForm } from '../demo/curated.ts';
import { formatStrength, packDescription, productName } from '../demo/naming.ts';
import { frenchRate, packPricing, slEntry } from '../demo/prices.ts';
import { Rng } from '../demo/prng.ts';
import { packCodes, productCodes } from './codes.ts';
import type { ProductOrdinal } from './codes.ts';
import { lineName, localSubstanceName } from './names.ts';

/** Source id of a country's generated register, e.g. `synthetic-ch`. */
export function syntheticSourceId(country: Jurisdiction): string {
  return `synthetic-${country.toLowerCase()}`;
}

export interface GenerateOptions {
  products: number;
  packsPerProduct: number;
  seed: string;
}

/** A marketable form of a substance or combination. */
interface Offer {
  name: string;
  names: Record<string, string> | undefined;
  atc: string;
  ref: number;
  form: string;
  unit: string;
  packs: number[];
  fixed: boolean;
  strengths: number[][];
  ingredients: (values: number[]) => Ingredient[];
}

function offersOf(curated: Curated): Offer[][] {
  const bySubstance = new Map(curated.substances.map((s) => [s.id, s]));
  const single = curated.substances.map((s) => s.forms.map((f): Offer => ({
    name: s.name, names: s.names, atc: f.atc ?? s.atc[0] ?? '', ref: s.ref ?? 0.5, form: f.form, unit: f.unit, packs: f.packs,
    fixed: f.fixed === true, strengths: f.strengths.map((v) => [v]),
    ingredients: ([v]) => [{ unii: f.salt ?? s.unii, strength_value: v, strength_unit: f.unit }],
  })));
  const combined = curated.combinations.map((c) => {
    const uniis = c.components.map((x) => x.salt ?? bySubstance.get(x.s)!.unii);
    return c.forms.map((f): Offer => ({
      name: c.name, names: c.names, atc: c.atc, ref: c.ref, form: f.form, unit: f.unit, packs: f.packs, fixed: f.fixed === true,
      strengths: f.strengths, ingredients: (values) => uniis.map((unii, i) => ({ unii, strength_value: values[i], strength_unit: f.unit })),
    }));
  });
  // Substances marketed only in combinations (clavulanic acid, carbidopa …) have no forms of their own.
  return [...single, ...combined].filter((forms) => forms.length > 0);
}

/** Every ingredient key the generated products can use (for the signature identities). */
export function generatedIngredientKeys(): string[] {
  return [...new Set(offersOf(loadCurated()).flat().flatMap((o) => o.ingredients(o.strengths[0]!).map((i) => i.unii)))];
}

/** Products per country: N / 16, the remainder to the first countries. */
export function countryShares(products: number): Array<{ country: Jurisdiction; products: number }> {
  const base = Math.floor(products / JURISDICTIONS.length);
  const extra = products % JURISDICTIONS.length;
  return JURISDICTIONS.map((country, i) => ({ country, products: base + (i < extra ? 1 : 0) }));
}

/** Pack sizes: the form's fixed sizes or the country's usual ones, doubled until there are `count`. */
function packSizes(cc: CuratedCountry, offer: Offer, count: number): number[] {
  const sizes = [...new Set(offer.fixed ? offer.packs : cc.packs)];
  while (sizes.length < count) sizes.push(sizes.at(-1)! * 2);
  return sizes.slice(0, count);
}

interface Line {
  offer: Offer;
  doseForm: CuratedDoseForm;
  name: string;
  holder: string;
  generic: boolean;
  otc: boolean;
  withdrawn: boolean;
  authorisedOn: string;
}

function makeLine(curated: Curated, offers: Offer[][], country: Jurisdiction, line: number, seed: string): Line {
  const r = new Rng(`${seed}|${country}|${line}`);
  const forms = offers[r.int(0, offers.length - 1)]!;
  const offer = forms[r.int(0, forms.length - 1)]!;
  const doseForm = curated.forms[offer.form];
  if (!doseForm) throw new Error(`unknown dose form ${offer.form}`);
  const cc = curated.countries[country];
  const named = lineName(r, country, localSubstanceName(offer.name, offer.names, cc.lang));
  const date = `${r.int(1975, 2024)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
  return { offer, doseForm, ...named, otc: r.next() < 0.15, withdrawn: r.next() < 0.04, authorisedOn: date };
}

function makePacks(country: Jurisdiction, cc: CuratedCountry, line: Line, o: ProductOrdinal, name: string, values: number[], options: GenerateOptions): PackEntry[] {
  const { offer, doseForm } = line;
  const ratio = (values[0] ?? 1) / (offer.strengths[0]?.[0] ?? values[0] ?? 1);
  return packSizes(cc, offer, options.packsPerProduct).map((units, j) => {
    const codes = packCodes(o, j, o.product * options.packsPerProduct + j);
    const pricing = packPricing({ country, cc, ref: offer.ref, strengthRatio: ratio, units, generic: line.generic, otc: line.otc, seed: `${options.seed}|${codes.key}` });
    const pack: PackEntry = {
      key: codes.key,
      description: packDescription(name, units, doseForm.unit, cc.lang),
      units,
      unit: doseForm.unit,
      identifiers: codes.identifiers,
      prices: pricing.prices,
      marketing_status: line.withdrawn ? 'withdrawn' : 'active',
    };
    if (country === 'CH') {
      pack.sl = slEntry(pricing, { listed: !line.otc, generic: line.generic, co40: false, limitation: null, year: Number(line.authorisedOn.slice(0, 4)) });
    }
    if (country === 'FR' && !line.otc) pack.reimbursement_rate_percent = frenchRate(offer.atc, offer.ref);
    return pack;
  });
}

/**
 * The products of one country, lazily: line after line, each line's strengths in order,
 * until `count` products. At most 9 strengths a line (the Italian AIC and Swiss pack codes
 * number strengths in one digit).
 */
export function* countryProducts(country: Jurisdiction, count: number, options: GenerateOptions): Generator<ProductEntry> {
  if (!Number.isInteger(options.packsPerProduct) || options.packsPerProduct < 1 || options.packsPerProduct > 9) {
    throw new RangeError('packs per product must be an integer from 1 to 9');
  }
  const curated = loadCurated();
  const offers = offersOf(curated);
  const cc = curated.countries[country];
  let product = 0;
  for (let lineNo = 0; product < count; lineNo += 1) {
    const line = makeLine(curated, offers, country, lineNo, options.seed);
    for (const [index, values] of line.offer.strengths.slice(0, 9).entries()) {
      if (product >= count) return;
      const o: ProductOrdinal = { country, product, line: lineNo, seq: index + 1 };
      const codes = productCodes(o);
      const strength = formatStrength(values, line.offer.unit, cc.lang, country);
      const name = productName(country, cc.lang, line.name, strength, line.doseForm, line.generic);
      const entry: ProductEntry = {
        key: codes.key,
        country,
        product_name: name,
        generic: line.generic,
        atc_code: line.offer.atc,
        dose_form: line.doseForm.edqm,
        route: line.doseForm.route,
        holder: line.holder,
        marketing_status: line.withdrawn ? 'withdrawn' : 'active',
        authorised_on: line.authorisedOn,
        identifiers: codes.identifiers,
        ingredients: line.offer.ingredients(values),
        packs: makePacks(country, cc, line, o, name, values, options),
      };
      if (!line.generic) entry.brand = line.name;
      yield entry;
      product += 1;
    }
  }
}
