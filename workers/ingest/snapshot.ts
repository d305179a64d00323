/**
 * The normalised snapshot format ("drugref-snapshot/1"): what every source adapter
 * produces and what the ingest engine diffs against the stored catalogue. Any register
 * can be converted to this JSON shape and loaded with `drugref ingest snapshot <file>`.
 * Documented for users in docs/snapshot-format.md; keep both in step.
 */

import type { ClassSystem, IdentifierSystem, Jurisdiction, SlEntry } from '../../vocabulary/systems.ts';
import type { FileReport, RowProblem } from './row-outcome.ts';

export const SNAPSHOT_FORMAT = 'drugref-snapshot/1';

export { CLASS_SYSTEMS, EXTRA_SYSTEMS, JURISDICTIONS, LOOKUP_SYSTEMS } from '../../vocabulary/systems.ts';
export type {
  ClassSystem, IdentifierSystem, Jurisdiction, LookupSystem, SlEntry, SlLimitation,
} from '../../vocabulary/systems.ts';

export interface Identifier {
  system: IdentifierSystem;
  /** Normalised code: digits only for numeric systems, upper case otherwise. */
  code: string;
  /** Validity where the register dates an identifier (dm+d GTINs): ISO dates. */
  valid_from?: string;
  valid_to?: string;
  /** True for an identifier the register has replaced (dm+d previous ids); still resolves. */
  previous?: boolean;
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

/**
 * One ATC code. WHO publishes the code list (names) and the DDD table apart, so an entry may
 * carry either fact: a snapshot in which any entry has a `name` states the whole tree of its
 * source (codes it leaves out lose their node), and one in which any entry has `ddd` states all
 * the source's DDDs (`ddd` absent or empty: none). The fact a snapshot does not carry stays as
 * stored, so the two files can be loaded together or one after the other in either order.
 */
export interface AtcEntry {
  /** Level 1..5 code, e.g. `N`, `N02`, `N02B`, `N02BE`, `N02BE01`. */
  code: string;
  /** WHO's English label; absent in a DDD-only snapshot (a DDD table without the code list). */
  name?: string;
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
  /** Strength as the register writes it ("500 mg", "1 000 UI"), kept for display and audit. */
  strength_text?: string;
  /**
   * The therapeutic moiety and its strength where the register states it beside the salt
   * (BDPM "FT" line beside the "SA" line: `chlorhydrate de metformine 1000 mg` ≙ metformine 780 mg).
   */
  moiety?: { unii: string; strength_value?: number; strength_unit?: string; strength_text?: string };
}

export interface Price {
  amount: number;
  /** ISO 4217: CHF, EUR, GBP, USD, DKK, SEK, NOK. */
  currency: string;
  /**
   * `public` (pharmacy retail), `ex_factory`, `reimbursed`, `list`, `tariff` (UK Drug Tariff
   * basic price), `group` (Swiss SL group price); `list_previous` and `tariff_previous` are the
   * prices those replaced on their `valid_from` (dm+d keeps one earlier price).
   */
  kind: string;
  valid_from?: string;
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
  /** Dispensing category as the register names it (Swissmedic A/B/C/D/E; UK POM/P/GSL ...). */
  dispensing_category?: string;
  /** Narcotics list of the pack (Swiss BetmVV-EDI lists `a`, `b`, `c`, `d`, `e`, `f`), when it is on one. */
  narcotic_list?: string;
  /** Availability restriction as the register states it (dm+d: `special_order`, `not_available` ...). */
  availability?: string;
  /** Drug Tariff payment category of the pack (dm+d `PAY_CATCD` as its lookup text: `Part VIIIA Category A` ...). */
  tariff_category?: string;
  /** Total quantity of the pack where the register gives it apart from the units (`10 ml` of a vial pack). */
  quantity?: { value: number; unit: string };
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
  /**
   * The market of the product; `EU` for a centrally authorised product of the EMA report, valid
   * in every member state (it is linked to national products through a shared `eu_number`).
   */
  country: Jurisdiction | 'EU';
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
  /** Dispensing category of the product as a whole (Swissmedic Abgabekategorie of the preparation). */
  dispensing_category?: string;
  /** Generic groups the product belongs to (BDPM GENER), with its role in each. */
  generic_groups?: Array<{ code: string; label?: string; role: 'princeps' | 'generic' | 'complementary' | 'substitutable' }>;
  /** Earlier names of the product with the date each stopped applying (dm+d NMPREV/NMDT). */
  previous_names?: Array<{ name: string; until?: string }>;
  /** Under additional monitoring (EU black triangle; BDPM "surveillance renforcée"). */
  additional_monitoring?: boolean;
  /** Authorisation status as the register states it (EMA: authorised, refused, withdrawn, suspended, expired ...). */
  authorisation_status?: string;
  /** True for veterinary products: kept and findable by code, but out of human search. */
  veterinary?: boolean;
  /**
   * Health-technology assessments the register publishes (HAS SMR / ASMR), with the
   * assessor's dossier code (`CT-12345`), the reason (`Inscription (CT)`) and the page URL.
   */
  assessments?: Array<{ kind: 'smr' | 'asmr'; value: string; date?: string; text?: string; code?: string; reason?: string; url?: string }>;
  /** Other register facts worth keeping that have no field of their own, by documented name. */
  attributes?: Record<string, string | number | boolean>;
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
  /**
   * A partial snapshot: it states some of the source's records (one web-service answer, one
   * catalogue of a release) and updates those; every record it does not state stays as stored.
   * Without it, a snapshot states the whole source and what it leaves out is deleted.
   */
  partial?: boolean;
}

export type { FileReport, RowProblem } from './row-outcome.ts';

export interface AdapterResult {
  snapshot: Snapshot;
  problems: RowProblem[];
  /** One entry per input file, in the order given; the CLI prints them. */
  files?: FileReport[];
}
