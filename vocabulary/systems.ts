/**
 * The register vocabulary: jurisdictions, identifier (lookup) systems, class systems and
 * the Swiss reimbursement entry shape. It sits in vocabulary/, below resolvers and workers,
 * so that the ingest worker, the resolvers and the facades all read it from one place and
 * imports keep running one way (platform, vocabulary ← resolvers ← facades and workers).
 */

/** Code systems of identifiers (the 19 lookup systems of the spec plus search-only ones). */
export const LOOKUP_SYSTEMS = [
  'gtin', 'pharmacode', 'cip13', 'pzn', 'swissmedic_no', 'ean', 'ndc11', 'dmd_amppid', 'aic',
  'be_apb', 'cbg_meb_id', 'cima_codigo', 'cz_kod_sukl', 'dk_varenummer', 'fi_myyntilupa',
  'ie_pa_number', 'no_merkevare_id', 'no_varenummer', 'se_varunummer',
] as const;
export type LookupSystem = (typeof LOOKUP_SYSTEMS)[number];

/**
 * Identifier systems that are searchable but not offered by /v1/drugs/lookup: the FDA's
 * dashed NDC, the French 7-digit CIP and CIS, UNII and RxCUI, the EU authorisation number
 * (`EU/1/yy/nnn/ppp`, the link between the EMA report and national registers), the dm+d
 * concept ids of the other dm+d levels, the EMA procedure number and any other national number.
 */
export const EXTRA_SYSTEMS = [
  'ndc', 'cip7', 'cis', 'unii', 'rxcui', 'eu_number', 'ema_procedure', 'dmd_vmpid', 'dmd_vmppid', 'dmd_apid', 'dmd_vtmid', 'national',
  'es_nregistro',
  'at_pzn',
  'at_zulassungsnummer',
  'se_npl_id',
  'se_npl_pack_id',
  'fi_vnr',
  'it_aic6',
  'pt_registo',
  'pt_cnpem',
  'be_amp_code',
  'be_ampp_code',
  'dk_drug_id',
] as const;
export type IdentifierSystem = LookupSystem | (typeof EXTRA_SYSTEMS)[number];

export const CLASS_SYSTEMS = ['atc', 'epc', 'moa', 'pe', 'cs', 'mesh_pa'] as const;
export type ClassSystem = (typeof CLASS_SYSTEMS)[number];

export const JURISDICTIONS = [
  'CH', 'GB', 'FR', 'DE', 'IT', 'AT', 'ES', 'DK', 'SE', 'FI', 'NO', 'NL', 'BE', 'IE', 'PT', 'US',
] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/**
 * One reimbursement condition of the Swiss SL (a `Limitation` element), kept with its code,
 * type and value, not only its text. Types as the BAG writes them: `DIA` (diagnosis),
 * `PKT` (limitation points), `KOM` (cost approval by the insurer's medical adviser) ...
 */
export interface SlLimitation {
  /** `LimitationCode` of the BAG, e.g. `ALFACALCIDOL.01`. */
  code?: string;
  type?: string;
  /** `LimitationValue`: points for PKT limitations, a count or amount for others. */
  value?: number;
  /** `LimitationNiveau` (IP, IA, ...) where given. */
  niveau?: string;
  text: string;
  /** Where the register attached it: the whole preparation or this pack. */
  level: 'preparation' | 'pack';
  valid_from?: string;
}

/** Swiss Spezialitätenliste data of a pack (ch-sl and demo CH sources fill it). */
export interface SlEntry {
  listed: boolean;
  /** Capped public price in CHF. */
  public_price?: number;
  ex_factory_price?: number;
  /** Co-insurance share in percent: 10 or 40. */
  coinsurance_percent?: number;
  /** All limitation texts (and the pack's limitation points), for readers that want one text. */
  limitation?: { text: string; points?: number } | null;
  /** Every limitation with its code, type and value, preparation level first. */
  limitations?: SlLimitation[];
  /** Generic (`G`) or original (`O`) flag of the SL. */
  flag?: 'G' | 'O';
  listed_since?: string;
  /** Pharma group code of the SL group prices (`Preisvergleich`), where the group CSV lists the pack. */
  group_code?: string;
  /** Price of that group (CHF) as the group CSV states it. */
  group_price?: number;
}
