/**
 * The normalised snapshot format ("drugref-snapshot/1"): what every source adapter
 * produces and what the ingest engine diffs against the stored catalogue. Any register
 * can be converted to this JSON shape and loaded with `drugref ingest snapshot <file>`.
 * Documented for users in docs/snapshot-format.md; keep both in step.
 */

export const SNAPSHOT_FORMAT = 'drugref-snapshot/1';

/** Code systems of identifiers (the 19 lookup systems of the spec plus search-only ones). */
export const LOOKUP_SYSTEMS = [
  'gtin', 'pharmacode', 'cip13', 'pzn', 'swissmedic_no', 'ean', 'ndc11', 'dmd_amppid', 'aic',
  'be_apb', 'cbg_meb_id', 'cima_codigo', 'cz_kod_sukl', 'dk_varenummer', 'fi_myyntilupa',
  'ie_pa_number', 'no_merkevare_id', 'no_varenummer', 'se_varunummer',
] as const;
export type LookupSystem = (typeof LOOKUP_SYSTEMS)[number];

/** Identifier systems that are searchable but not offered by /v1/drugs/lookup. */
export const EXTRA_SYSTEMS = ['ndc', 'cip7', 'unii', 'rxcui', 'national'] as const;
export type IdentifierSystem = LookupSystem | (typeof EXTRA_SYSTEMS)[number];

export const CLASS_SYSTEMS = ['atc', 'epc', 'moa', 'pe', 'cs', 'mesh_pa'] as const;
export type ClassSystem = (typeof CLASS_SYSTEMS)[number];

export const JURISDICTIONS = [
  'CH', 'GB', 'FR', 'DE', 'IT', 'AT', 'ES', 'DK', 'SE', 'FI', 'NO', 'NL', 'BE', 'IE', 'PT', 'US',
] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export interface Identifier {
  system: IdentifierSystem;
  /** Normalised code: digits only for numeric systems, upper case otherwise. */
  code: string;
}

export interface SourceInfo {
  /** Stable id, e.g. `who-atc`, `fda-ndc`, `fr-bdpm`, `ch-sl`, `demo-ch`. */
  id: string;
  name: string;
  /** Jurisdiction the register covers; null for global sources such as the ATC index. */
  country: Jurisdiction | null;
  /** After this many hours without a sync the source's schema_state becomes `stale`. */
  refresh_interval_hours: number;
  licence?: string;
  url?: string;
  /** True for the bundled demonstration data (not for clinical use). */
  demo?: boolean;
}

export interface DddEntry {
  value: number;
  /** WHO unit: g, mg, mcg, U, TU, MU, mmol, ml, tablet ... */
  unit: string;
  /** WHO administration route code: O, P, R, N, SL, TD, V, Inhal ... */
  route: string;
  note?: string;
}

export interface AtcEntry {
  /** Level 1..5 code, e.g. `N`, `N02`, `N02B`, `N02BE`, `N02BE01`. */
  code: string;
  name: string;
  /** ATC level 1..5; follows from the code length (1, 3, 4, 5, 7 characters). */
  level?: number;
  ddd?: DddEntry[];
}

export interface ClassEntry {
  system: Exclude<ClassSystem, 'atc'>;
  /** Opaque id, e.g. an NDF-RT/MeSH id, or `name:<label>` when the register gives names only. */
  code: string;
  label: string;
}

/** Prefix of provisional substance and class keys derived from a name (`name:ACETAMINOPHEN`). */
export const PROVISIONAL_NAME_PREFIX = 'name:';

export interface SubstanceEntry {
  /**
   * UNII, or a provisional key `<scheme>:<id>` (`name:<UPPER NAME>`, `bdpm:<code>`) when the
   * register carries no UNII; such entries set `provisional` and can be mapped to a UNII later.
   */
  unii: string;
  /** Preferred (INN) name. */
  name: string;
  /** Names in other vocabularies: inn, usan, ban, jan, rxnorm, mesh, de, fr, it ... */
  names?: Record<string, string>;
  /** UNII of the active moiety when this substance is a salt or ester (salts fold to it). */
  moiety_unii?: string;
  formula?: string;
  smiles?: string;
  inchikey?: string;
  rxcui?: string;
  atc_codes?: string[];
  classes?: Array<{ system: ClassEntry['system']; code: string }>;
  /** True when `unii` is a provisional key rather than an FDA UNII. */
  provisional?: boolean;
}

export interface Ingredient {
  /** UNII or provisional key of a SubstanceEntry. */
  unii: string;
  strength_value?: number;
  strength_unit?: string;
}

export interface Price {
  amount: number;
  /** ISO 4217: CHF, EUR, GBP, USD, DKK, SEK, NOK. */
  currency: string;
  /** `public` (pharmacy retail), `ex_factory`, `reimbursed`, `list`. */
  kind: string;
  valid_from?: string;
}

/** Swiss Spezialitätenliste data of a pack (only ch-sl and demo CH sources fill it). */
export interface SlEntry {
  listed: boolean;
  /** Capped public price in CHF. */
  public_price?: number;
  ex_factory_price?: number;
  /** Co-insurance share in percent: 10 or 40. */
  coinsurance_percent?: number;
  limitation?: { text: string; points?: number } | null;
  /** Generic (`G`) or original (`O`) flag of the SL. */
  flag?: 'G' | 'O';
  listed_since?: string;
}

export interface PackEntry {
  /** Natural key within the source, e.g. the GTIN or CIP13. */
  key: string;
  description: string;
  /** Number of units in the pack (tablets, ml, ...). */
  units?: number;
  unit?: string;
  identifiers: Identifier[];
  prices?: Price[];
  sl?: SlEntry;
  marketing_status?: 'active' | 'withdrawn';
  /** Statutory reimbursement rate in percent where the register states one (FR: 15, 30, 65, 100). */
  reimbursement_rate_percent?: number;
}

export interface MonographEntry {
  lang: 'de' | 'fr' | 'it' | 'en';
  title: string;
  /** Section name (indications, contraindications, warnings, boxed_warning, adverse_reactions, interactions, dosage ...) to text. */
  sections: Record<string, string>;
}

export interface ProductEntry {
  /** Natural key within the source, e.g. the Swissmedic number or the CIS code. */
  key: string;
  country: Jurisdiction;
  product_name: string;
  brand?: string;
  generic?: boolean;
  atc_code?: string;
  dose_form?: string;
  route?: string;
  holder?: string;
  marketing_status?: 'active' | 'withdrawn';
  authorised_on?: string;
  /** Registration-level identifiers (swissmedic_no, cis, aic, pl number, application no ...). */
  identifiers: Identifier[];
  ingredients: Ingredient[];
  packs: PackEntry[];
  monographs?: MonographEntry[];
  /** Therapeutic classes the register assigns to the product as a whole (US: FDA PHARM_CLASSES). */
  classes?: Array<{ system: ClassEntry['system']; code: string }>;
}

export interface RecallEntry {
  /** Natural key of the recall notice within the source. */
  key: string;
  product_key: string;
  country: Jurisdiction;
  published_on: string;
  reason: string;
  level?: string;
  pack_keys?: string[];
}

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  source: SourceInfo;
  atc?: AtcEntry[];
  classes?: ClassEntry[];
  substances?: SubstanceEntry[];
  products?: ProductEntry[];
  recalls?: RecallEntry[];
}

/** A row an adapter could not parse: reported with its file and line, then skipped. */
export interface RowProblem {
  file: string;
  line: number;
  message: string;
}

export interface AdapterResult {
  snapshot: Snapshot;
  problems: RowProblem[];
}
