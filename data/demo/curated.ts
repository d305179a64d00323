/**
 * Typed access to the hand-curated demo facts in `curated/*.json`. The JSON files are the
 * reviewable source of truth; this module only reads and types them (once per process).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AtcEntry, Jurisdiction } from '../../workers/ingest/snapshot.ts';

/** One dose form of a substance as marketed: strengths in `unit`, typical pack sizes. */
export interface CuratedForm {
  form: string;
  /** Salt UNII the products declare as ingredient (strength is expressed as the moiety). */
  salt?: string;
  strengths: number[];
  unit: string;
  packs: number[];
  /** Use `packs` as given instead of the country's usual pack sizes (courses, devices). */
  fixed?: boolean;
  /** ATC code of this form when the substance has several (e.g. aspirin 100 mg vs 500 mg). */
  atc?: string;
}

export interface CuratedSalt {
  unii: string;
  name: string;
  names?: Record<string, string>;
}

export interface CuratedSubstance {
  id: string;
  unii: string;
  name: string;
  names?: Record<string, string>;
  rxcui?: string;
  atc: string[];
  /** `system:Label` pairs, e.g. `epc:Vitamin K Antagonist`, `mesh:Anticoagulants`. */
  classes: string[];
  salts?: CuratedSalt[];
  forms: CuratedForm[];
  /** Reference public price in EUR of one unit of the first strength (originator, DE level). */
  ref?: number;
}

export interface CuratedCombinationForm extends Omit<CuratedForm, 'strengths'> {
  strengths: number[][];
}

export interface CuratedCombination {
  id: string;
  name: string;
  names?: Record<string, string>;
  atc: string;
  components: Array<{ s: string; salt?: string }>;
  forms: CuratedCombinationForm[];
  ref: number;
}

/** One marketed product line of a country (brand or generic), expanded per form and strength. */
export interface CuratedBrand {
  /** Substance or combination id. */
  s: string;
  /** Brand name, or the generic's product name. */
  n: string;
  /** Marketing-authorisation holder. */
  h: string;
  g?: boolean;
  /** Form keys to market (default: the substance's first form). */
  f?: string[];
  /** Strength subset (numbers, or arrays for combinations). */
  st?: Array<number | number[]>;
  /** Year of first authorisation. */
  y?: number;
  otc?: boolean;
  /** CH: not on the Spezialitätenliste. */
  nosl?: boolean;
  /** CH: original with cheaper generics, 40 % co-insurance. */
  co40?: boolean;
  /** CH: key of an SL limitation text. */
  lim?: string;
  /** CH: key of a monograph in monographs.json. */
  mono?: string;
  /** US: NDC labeler code. */
  ndc?: string;
}

export interface CuratedCountry {
  name: string;
  lang: string;
  currency: string;
  /** Units of local currency per EUR. */
  fx: number;
  /** Price level relative to Germany (originators). */
  level: number;
  /** Generic price as a share of the originator. */
  generic: number;
  packs: number[];
  gs1: string;
  price_kinds: string[];
}

export interface CuratedDoseForm {
  /** EDQM standard term (English). */
  edqm: string;
  route: string;
  unit: string;
  names: Record<string, string>;
}

export interface CuratedMonograph {
  title: string;
  sections: Record<string, string>;
}

export interface Curated {
  substances: CuratedSubstance[];
  combinations: CuratedCombination[];
  atc: AtcEntry[];
  brands: Record<Jurisdiction, CuratedBrand[]>;
  countries: Record<Jurisdiction, CuratedCountry>;
  forms: Record<string, CuratedDoseForm>;
  monographs: Record<string, Record<'de' | 'fr' | 'it', CuratedMonograph>>;
  limitations: Record<string, { text: string; points?: number }>;
}

function readJson<T>(name: string): T {
  const path = fileURLToPath(new URL(`./curated/${name}`, import.meta.url));
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

let cache: Curated | undefined;

/** The curated facts, read once. Callers must not mutate the returned objects. */
export function loadCurated(): Curated {
  cache ??= {
    substances: readJson('substances.json'),
    combinations: readJson('combinations.json'),
    atc: readJson('atc.json'),
    brands: readJson('brands.json'),
    countries: readJson('countries.json'),
    forms: readJson('forms.json'),
    monographs: readJson('monographs.json'),
    limitations: readJson('limitations.json'),
  };
  return cache;
}
