/**
 * The code systems /fhir serves, each under the URI its FHIR implementation guide publishes
 * (docs/fhir-terminology.md lists them with their origin). A national code whose register
 * publishes no FHIR URI keeps drugref's stable URN (`urn:drugref:identifier:<system>`, as
 * the Medication output already names it), because inventing an authority's URL would mislead.
 */

// Spelled here (not imported from the Medication mapping, which reads this table) so the
// modules do not import each other.
const ATC_SYSTEM = 'http://www.whocc.no/atc';
const UNII_SYSTEM = 'http://fdasis.nlm.nih.gov';

/** How a system's concepts are read: the ATC tree, the substance table or stored identifiers. */
export type ConceptKind = 'atc' | 'unii' | 'identifier';

export interface TerminologySystem {
  uri: string;
  /** Short name (CodeSystem.name style). */
  name: string;
  title: string;
  kind: ConceptKind;
  /** Stored identifier systems read, the first being the /v1 lookup system where there is one. */
  stored: string[];
  /** Register country, null for international systems. */
  country: string | null;
  /** Whether the URI is published by an implementation guide or the code's authority. */
  published: boolean;
  /** Sources whose sync dates the system's version; default every source of its country (all national ones when international). */
  sourceIds?: string[];
}

/** Languages of each register's country (BCP 47), the first one the language of its names. */
export const COUNTRY_LANGUAGES: Record<string, string[]> = {
  CH: ['de', 'fr', 'it'], GB: ['en'], FR: ['fr'], DE: ['de'], IT: ['it'], AT: ['de'], ES: ['es'], DK: ['da'],
  SE: ['sv'], FI: ['fi', 'sv'], NO: ['nb'], NL: ['nl'], BE: ['nl', 'fr'], IE: ['en'], PT: ['pt'], US: ['en'], CZ: ['cs'],
};

const published = (uri: string, name: string, title: string, stored: string[], country: string | null): TerminologySystem =>
  ({ uri, name, title, kind: 'identifier', stored, country, published: true });
const ours = (system: string, title: string, country: string, stored: string[] = [system]): TerminologySystem =>
  ({ uri: `urn:drugref:identifier:${system}`, name: system, title, kind: 'identifier', stored, country, published: false });

/** Every served system; one URI per entry. */
export const TERMINOLOGY_SYSTEMS: readonly TerminologySystem[] = [
  { uri: ATC_SYSTEM, name: 'ATC', title: 'WHO Anatomical Therapeutic Chemical classification with DDDs', kind: 'atc', stored: [], country: null, published: true, sourceIds: ['who-atc'] },
  { uri: UNII_SYSTEM, name: 'UNII', title: 'FDA Unique Ingredient Identifier', kind: 'unii', stored: [], country: null, published: true, sourceIds: ['us-unii'] },
  published('https://www.gs1.org/gtin', 'GTIN', 'GS1 Global Trade Item Number of a pack', ['gtin', 'ean'], null),
  published('http://hl7.org/fhir/sid/ndc', 'NDC', 'US National Drug Code (11-digit package code)', ['ndc11', 'ndc'], 'US'),
  { ...published('http://www.nlm.nih.gov/research/umls/rxnorm', 'RxNorm', 'RxNorm concept (RxCUI)', ['rxcui'], 'US'), sourceIds: ['us-rxnorm'] },
  published('https://dmd.nhs.uk', 'dmd', 'NHS Dictionary of medicines and devices', ['dmd_amppid', 'dmd_vmppid', 'dmd_apid', 'dmd_vmpid', 'dmd_vtmid'], 'GB'),
  published('http://fhir.de/CodeSystem/ifa/pzn', 'PZN', 'German Pharmazentralnummer', ['pzn'], 'DE'),
  published('urn:oid:1.2.250.1.213.2.3.2', 'CIP', 'French Code Identifiant de Présentation (CIP13)', ['cip13', 'cip7'], 'FR'),
  published('urn:oid:1.2.250.1.213.2.3.1', 'CIS', 'French Code Identifiant de Spécialité', ['cis'], 'FR'),
  published('http://electronichealth.se/identifier/varunr', 'varunr', 'Swedish Varunummer (pack)', ['se_varunummer'], 'SE'),
  published('http://electronichealth.se/identifier/nplpackid', 'nplpackid', 'Swedish NPL pack id', ['se_npl_pack_id'], 'SE'),
  published('https://laegemiddelstyrelsen.dk/LMS01/DrugID', 'DrugID', 'Danish Drug ID (LMS01)', ['dk_drug_id'], 'DK'),
  published('http://hl7.no/fhir/NamingSystem/festLegemiddelmerkevare', 'festLegemiddelmerkevare', 'Norwegian FEST brand medicine id', ['no_merkevare_id'], 'NO'),
  ours('pharmacode', 'Swiss Pharmacode', 'CH'),
  ours('swissmedic_no', 'Swissmedic authorisation number', 'CH'),
  ours('aic', 'Italian AIC pack code', 'IT'),
  ours('it_aic6', 'Italian AIC medicine code (AIC6)', 'IT'),
  ours('at_pzn', 'Austrian Pharmazentralnummer', 'AT'),
  ours('at_zulassungsnummer', 'Austrian authorisation number', 'AT'),
  ours('cima_codigo', 'Spanish CIMA national code', 'ES'),
  ours('es_nregistro', 'Spanish registration number', 'ES'),
  ours('dk_varenummer', 'Danish Varenummer', 'DK'),
  ours('se_npl_id', 'Swedish NPL id', 'SE'),
  ours('fi_vnr', 'Finnish Vnr pack number', 'FI'),
  ours('fi_myyntilupa', 'Finnish marketing authorisation number', 'FI'),
  ours('no_varenummer', 'Norwegian Varenummer', 'NO'),
  ours('cbg_meb_id', 'Dutch RVG/EU registration number', 'NL'),
  ours('be_apb', 'Belgian CNK code', 'BE'),
  ours('be_amp_code', 'Belgian SAM AMP code', 'BE'),
  ours('be_ampp_code', 'Belgian SAM AMPP code', 'BE'),
  ours('ie_pa_number', 'Irish PA number', 'IE'),
  ours('pt_registo', 'Portuguese registration number', 'PT'),
  ours('pt_cnpem', 'Portuguese CNPEM', 'PT'),
  ours('cz_kod_sukl', 'Czech SÚKL code', 'CZ'),
];

const BY_URI = new Map(TERMINOLOGY_SYSTEMS.map((s) => [s.uri, s]));
const BY_STORED = new Map(TERMINOLOGY_SYSTEMS.flatMap((s) => s.stored.map((stored) => [stored, s] as const)));

/** The served system of a URI (a trailing `|version` is ignored); undefined when not served. */
export function systemOfUri(uri: string): TerminologySystem | undefined {
  return BY_URI.get(uri.split('|')[0] ?? uri);
}

/** The served system a stored identifier system belongs to. */
export function systemOfStored(stored: string): TerminologySystem | undefined {
  return BY_STORED.get(stored);
}

/** The register languages of a country (English for international systems). */
export function languagesOf(country: string | null): string[] {
  return (country && COUNTRY_LANGUAGES[country]) || ['en'];
}
