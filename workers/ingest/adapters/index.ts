/**
 * Registry of source adapters, so the CLI can run `drugref ingest <adapter> <file...>`: each
 * entry names the files it reads and parses them into a normalised snapshot plus row problems.
 * A structurally wrong or missing file throws FileRejectedError and nothing is ingested.
 */
import type { StreamedAdapterResult } from '../input.ts';
import type { AdapterResult } from '../snapshot.ts';
import type { Queryable } from '../../../platform/db.ts';
import { CH_ARTIKELSTAMM_FILE, parseChArtikelstamm } from './ch-artikelstamm.ts';
import { openChArtikelstamm } from './ch-artikelstamm-open.ts';
import { CH_SL_FILE, parseChSl } from './ch-sl.ts';
import { CH_SL_GROUPS_FILE, parseChSlGroups } from './ch-sl-groups.ts';
import { heldGroupProducts } from './ch-sl-groups-held.ts';
import { CH_REFDATA_FILE, parseChRefdataFiles } from './ch-refdata.ts';
import { openChRefdataFiles } from './ch-refdata-open.ts';
import { CH_SWISSMEDIC_FILE, parseChSwissmedic } from './ch-swissmedic.ts';
import { CH_ZURROSE_FILE, parseChZurrose } from './ch-zurrose.ts';
import { FileRejectedError, findFile } from './common.ts';
import type { InputFile } from './common.ts';
import {
  FDA_PACKAGE_FILE, FDA_PRODUCT_FILE, FDA_UNFINISHED_PACKAGE_FILE, FDA_UNFINISHED_PRODUCT_FILE, parseFdaNdc,
} from './fda-ndc.ts';
import { openFdaNdc } from './fda-ndc-stream.ts';
import { GB_DMD_FILES, parseGbDmd } from './gb-dmd.ts';
import { openGbDmd } from './gb-dmd-open.ts';
import { BDPM_CIP_FILE, BDPM_CIS_FILE, BDPM_OPTIONAL_FILES, parseFrBdpm } from './fr-bdpm.ts';
import { parseJsonSnapshot } from './json-snapshot.ts';
import { WHO_ATC_FILE, parseWhoAtcFiles } from './who-atc.ts';
import { EU_EMA_FILE, parseEuEma } from './eu-ema.ts';
import { parseDePzn } from './de-pzn.ts';
import { DK_LMS_FILES, DK_LMS_OPTIONAL_FILES, parseDkLms } from './dk-lms.ts';
import { NO_FEST_FILE, openNoFest, parseNoFestFiles } from './no-fest.ts';
import { OPENFDA_NDC_FILE, parseOpenFdaNdc } from './us-openfda-ndc.ts';
import { openOpenFdaNdc } from './us-openfda-open.ts';
import { areDirectoryFiles, openOpenFdaDirectory, parseOpenFdaDirectory } from './us-openfda-directory.ts';
import { RXNCONSO_FILE, RXNSAT_FILE, parseUsRxnorm } from './us-rxnorm.ts';
import { openUsRxnorm } from './us-rxnorm-open.ts';
import { SPL_FILE, parseUsSpl } from './us-spl.ts';
import { openUsSpl } from './us-spl-open.ts';
import { UNII_NAMES_FILE, UNII_RECORDS_FILE, parseUsUnii } from './us-unii.ts';
import { ES_CIMA_DICTIONARY_FILES, ES_CIMA_FILE, parseEsCima } from './es-cima.ts';
import { AT_EKO_FILE, AT_EKO_OPTIONAL_FILES, parseAtEko } from './at-eko.ts';
import { FI_KELA_FILE, FI_LAAKEAINE_FILE, FI_PAKKAUS_FILE, parseFiFimea } from './fi-fimea.ts';
import { SE_TLV_FILE, parseSeTlvFiles } from './se-tlv.ts';
import { IT_AIFA_FILE, IT_AIFA_OPTIONAL_FILES, parseItAifa } from './it-aifa.ts';
import { openItAifa } from './it-aifa-stream.ts';
import { PT_INFOMED_FILE, parsePtInfomed } from './pt-infomed.ts';
import { NL_CBG_FILE, openNlCbg, parseNlCbg } from './nl-cbg.ts';
import { BE_SAM_FILE, BE_SAM_RMB_FILE, openBeSam, parseBeSam } from './be-sam.ts';
import { IE_HPRA_FILE, IE_HPRA_WITHDRAWN_FILE, parseIeHpra } from './ie-hpra.ts';
import { AT_BASG_SUPPLY_FILE, parseAtBasgSupply } from './at-basg-supply.ts';
import { ES_CIMA_SUPPLY_FILE, parseEsCimaSupply } from './es-cima-supply.ts';
import { FR_ANSM_SUPPLY_FILE, parseFrAnsmSupply } from './fr-ansm-supply.ts';
import { US_FDA_SHORTAGES_FILE, parseUsFdaShortages } from './us-fda-shortages.ts';
import type { SupplyParse } from './supply-rows.ts';

export { FileRejectedError } from './common.ts';
export type { InputFile } from './common.ts';

/**
 * What an ingest offers an adapter besides its files: the catalogue it writes to, for a file
 * that updates what the catalogue holds (SL group prices given without their article lists).
 */
export interface AdapterContext {
  catalogue?: Queryable;
}

export interface SourceAdapter {
  /** Name used on the command line and as the source id where the adapter fixes one. */
  id: string;
  description: string;
  /** File names the adapter expects (base names); single-file adapters accept any name. */
  files: string[];
  /** Optional extra files the adapter reads when given. */
  optionalFiles?: string[];
  /** Parses the files; asynchronous because some formats (xlsx) are read by asynchronous libraries. */
  parse(files: InputFile[], context?: AdapterContext): Promise<AdapterResult>;
  /**
   * Opens the files for a streamed ingest, where the format allows it (national registers):
   * the same snapshot, problems and file reports as `parse`, but products and packs are read
   * from disk while the engine writes them, so memory stays flat. `drugref ingest` and the
   * sync worker use it when present.
   */
  open?(files: InputFile[], context?: AdapterContext): Promise<StreamedAdapterResult>;
  /**
   * The files may update what the catalogue holds, read from `context.catalogue`: the ingest
   * then parses them inside its transaction, after its lock (apply.ts), so the held records
   * cannot change between the read and the write.
   */
  readsCatalogue?: true;
  /**
   * A shortage publication rather than a register: parsed into supply rows, which the supply
   * writer (workers/ingest/supply.ts) diffs against the stored ones; `parse` then refuses.
   */
  supply?(files: InputFile[]): Promise<SupplyParse>;
}

/** A shortage publication's entry: `parse` refuses, since it holds no catalogue. */
function supplyAdapter(id: string, description: string, file: string, supply: (files: InputFile[]) => Promise<SupplyParse>): SourceAdapter {
  return {
    id, description, files: [file], supply,
    parse: async () => { throw new FileRejectedError(file, `${id} is a supply publication: it updates pack supply, not the catalogue`); },
  };
}

/** The only file of a single-file adapter, whatever it is called. */
function single(files: InputFile[], expected: string): InputFile {
  const file = findFile(files, expected) ?? (files.length === 1 ? files[0] : undefined);
  if (!file) throw new FileRejectedError(expected, `expected exactly one file (${expected}), got ${files.length}`);
  return file;
}

/** The `parse` of a single-file adapter: hands the one file's name and bytes to `parse`. */
function parseSingle(expected: string, parse: (file: string, content: Buffer) => AdapterResult | Promise<AdapterResult>): SourceAdapter['parse'] {
  return async (files) => {
    const file = single(files, expected);
    return parse(file.name, file.content);
  };
}

export const ADAPTERS: readonly SourceAdapter[] = [
  {
    id: 'who-atc',
    description: 'WHO ATC/DDD index: the code list, the DDD table, or both (CSV or WHOCC XML; role read from the header)',
    files: [WHO_ATC_FILE],
    parse: async (files) => parseWhoAtcFiles(files),
  },
  {
    id: 'fda-ndc',
    description: 'US FDA NDC directory: finished (product.txt, package.txt → source fda-ndc) or unfinished drugs (unfinished_product.txt, unfinished_package.txt → source fda-ndc-unfinished); layout read from the header',
    files: [FDA_PRODUCT_FILE, FDA_PACKAGE_FILE],
    optionalFiles: [FDA_UNFINISHED_PRODUCT_FILE, FDA_UNFINISHED_PACKAGE_FILE],
    parse: async (files) => parseFdaNdc(files),
    open: (files) => openFdaNdc(files),
  },
  {
    id: 'us-openfda-ndc',
    description: 'openFDA drug/ndc bulk JSON (drug-ndc-0001-of-0001.json; read record by record), or the NDC Directory text files it is built from (told apart by content)',
    files: [OPENFDA_NDC_FILE],
    parse: async (files) => ((await areDirectoryFiles(files)) ? parseOpenFdaDirectory(files) : parseOpenFdaNdc(files)),
    open: async (files) => ((await areDirectoryFiles(files)) ? openOpenFdaDirectory(files) : openOpenFdaNdc(files)),
  },
  {
    id: 'us-unii',
    description: 'FDA GSRS UNII lists (UNII_Records_*.txt and/or UNII_Names_*.txt; substances only)',
    files: [UNII_RECORDS_FILE],
    optionalFiles: [UNII_NAMES_FILE],
    parse: async (files) => parseUsUnii(files),
  },
  {
    id: 'us-rxnorm',
    description: 'RxNorm RRF (RXNCONSO.RRF and RXNSAT.RRF): ingredients, clinical drugs and their NDCs',
    files: [RXNCONSO_FILE],
    optionalFiles: [RXNSAT_FILE],
    parse: async (files) => parseUsRxnorm(files),
    open: (files) => openUsRxnorm(files),
  },
  {
    id: 'us-spl',
    description: 'FDA SPL documents (HL7 v3 XML, one or more): products, active ingredients (UNII), NDC packages',
    files: [SPL_FILE],
    parse: async (files) => parseUsSpl(files),
    open: (files) => openUsSpl(files),
  },
  {
    id: 'fr-bdpm',
    description: 'French BDPM export (CIS_bdpm.txt, CIS_CIP_bdpm.txt and optionally COMPO, GENER, CPD, HAS SMR/ASMR/LiensPageCT, MITM, InfoImportantes, Dispo_Spec; tab separated)',
    files: [BDPM_CIS_FILE, BDPM_CIP_FILE],
    optionalFiles: BDPM_OPTIONAL_FILES,
    parse: async (files) => parseFrBdpm(files),
  },
  {
    id: 'ch-sl',
    description: 'Swiss Spezialitätenliste (BAG) Preparations.xml',
    files: [CH_SL_FILE],
    parse: parseSingle(CH_SL_FILE, parseChSl),
  },
  {
    id: 'ch-sl-groups',
    description: 'SL pharma group prices (bag_sl_group_prices.csv) with the article lists mapping GTINs to group codes (weleda_arzneimittel.csv ...); alone, re-prices the packs the catalogue holds',
    files: [CH_SL_GROUPS_FILE],
    optionalFiles: ['weleda_arzneimittel.csv', 'wala_arzneimittel.csv'],
    parse: async (files, context) => parseChSlGroups(files, context?.catalogue ? await heldGroupProducts(context.catalogue) : undefined),
    readsCatalogue: true,
  },
  {
    id: 'ch-artikelstamm',
    description: 'Elexis Artikelstamm v5 XML (ARTIKELSTAMM: PRODUCTS, LIMITATIONS, ITEMS)',
    files: [CH_ARTIKELSTAMM_FILE],
    parse: parseSingle(CH_ARTIKELSTAMM_FILE, parseChArtikelstamm),
    open: (files) => openChArtikelstamm(files),
  },
  {
    id: 'ch-refdata',
    description: 'Swiss Refdata article XML (Refdata.Articles.xml: Article/MedicinalProduct/PackagedProduct, or the older ARTICLE/ITEM; pharma and non-pharma files together)',
    files: [CH_REFDATA_FILE],
    parse: async (files) => parseChRefdataFiles(files),
    open: (files) => openChRefdataFiles(files),
  },
  {
    id: 'ch-swissmedic',
    description: 'Swissmedic "Zugelassene Packungen" (Packungen.xlsx as published)',
    files: [CH_SWISSMEDIC_FILE],
    parse: parseSingle(CH_SWISSMEDIC_FILE, parseChSwissmedic),
  },
  {
    id: 'ch-zurrose',
    description: 'Zur Rose article master transfer.dat (fixed width, ISO-8859-1)',
    files: [CH_ZURROSE_FILE],
    parse: parseSingle(CH_ZURROSE_FILE, parseChZurrose),
  },
  {
    id: 'gb-dmd',
    description: 'NHS dm+d weekly release XML (lookup, ingredient, VMP, VMPP, AMP, AMPP and optionally VTM, GTIN, BNF/ATC; role read from the root element)',
    files: [GB_DMD_FILES.lookup, GB_DMD_FILES.ingredient, GB_DMD_FILES.VMP, GB_DMD_FILES.VMPP, GB_DMD_FILES.AMP, GB_DMD_FILES.AMPP],
    optionalFiles: [GB_DMD_FILES.VTM, GB_DMD_FILES.GTIN, GB_DMD_FILES.BNF],
    parse: async (files) => parseGbDmd(files),
    open: (files) => openGbDmd(files),
  },
  {
    id: 'eu-ema',
    description: 'EMA European public assessment reports (Medicines output xlsx): centrally authorised medicines, country EU',
    files: [EU_EMA_FILE],
    parse: parseSingle(EU_EMA_FILE, parseEuEma),
  },
  {
    id: 'de-pzn',
    description: 'German PZN list: BfArM/GKV Festbetragsarzneimittel or an AVP price list (CSV or xlsx; PZN, Arzneimittelname, Festbetrag/Preis)',
    files: ['festbetraege.csv'],
    parse: async (files) => parseDePzn(single(files, 'festbetraege.csv')),
  },
  {
    id: 'nl-cbg',
    description: 'Dutch CBG-MEB Geneesmiddeleninformatiebank export (metadata.csv, pipe separated): registrations (RVG/RVH or EU number), substances, ATC, afleverstatus',
    files: [NL_CBG_FILE],
    parse: async (files) => parseNlCbg(single(files, NL_CBG_FILE)),
    open: async (files) => openNlCbg(single(files, NL_CBG_FILE)),
  },
  {
    id: 'be-sam',
    description: 'Belgian FAMHP SAM v2 export: AMP-<version>.xml (actual medicines: AMPs, AMPPs with CNKs, prices, ATC) and optionally RMB-<version>.xml (reimbursement category and base price); role from the root element; streamed',
    files: [BE_SAM_FILE],
    optionalFiles: [BE_SAM_RMB_FILE],
    parse: async (files) => parseBeSam(files),
    open: async (files) => openBeSam(files),
  },
  {
    id: 'ie-hpra',
    description: 'Irish HPRA lists of human medicines: authorised (latestHumanlist.xml, formerly latestHMlist.xml) and withdrawn (withdrawnHumanlist.xml), told apart by content; PA/PPA/TR/EU licences, substances, ATC, licence, marketing and dispensing status, withdrawal dates. One list alone deletes nothing',
    files: [IE_HPRA_FILE],
    optionalFiles: [IE_HPRA_WITHDRAWN_FILE],
    parse: async (files) => parseIeHpra(files),
  },
  {
    id: 'dk-lms',
    description: 'Danish medicine price list (Lægemiddelstyrelsen takst release folder, fixed width, CP850/ISO-8859-1; role by record layout, dated names accepted): lms01 drugs, lms02 packages and optionally lms03 prices, lms09 firms, lms12 ATC texts, lms30 substances, system.txt takst date; other members named unused',
    files: DK_LMS_FILES,
    optionalFiles: DK_LMS_OPTIONAL_FILES,
    parse: async (files) => parseDkLms(files),
  },
  {
    id: 'no-fest',
    description: 'Norwegian FEST M30 XML (fest251.xml from fest251.zip, or documents holding some of its catalogues, read together): LegemiddelMerkevare, Legemiddelpakning with prices and refusjon, VirkestoffMedStyrke, Virkestoff; a partial document updates what it holds',
    files: [NO_FEST_FILE],
    parse: (files, context) => parseNoFestFiles(files, context?.catalogue),
    open: (files, context) => openNoFest(files, context?.catalogue),
    readsCatalogue: true,
  },
  {
    id: 'es-cima',
    description: 'Spanish AEMPS nomenclátor de prescripción (Prescripcion.xml from prescripcion.zip) with its code tables (DICCIONARIO_PRINCIPIOS_ACTIVOS.xml required; LABORATORIOS, FORMA_FARMACEUTICA, VIAS_ADMINISTRACION, SITUACION_REGISTRO, UNIDAD_CONTENIDO optional) and optionally the Ministry of Health nomenclátor de facturación CSV (*Nomenclator_de_Facturacion.csv: prices, financing)',
    files: [ES_CIMA_FILE, ES_CIMA_DICTIONARY_FILES[0]!],
    optionalFiles: ES_CIMA_DICTIONARY_FILES.slice(1),
    parse: async (files) => parseEsCima(files),
  },
  {
    id: 'at-eko',
    description: 'Austrian Erstattungskodex data carrier of the Dachverband (ehmvMM_YY_teil1.zip: medikament.txt required; wirkstoff.txt, atccode.txt, rezeptpflicht.txt, regeltext.txt, medikament_zusatz.txt optional; fixed width, Windows-1252)',
    files: [AT_EKO_FILE],
    optionalFiles: AT_EKO_OPTIONAL_FILES,
    parse: async (files) => parseAtEko(files),
  },
  {
    id: 'fi-fimea',
    description: 'Finnish Fimea basic register release folder (perusrekisteri pack files, LAAKEAINE, the ATC and dose form tables; ; separated Windows ANSI), Fimea\'s substitution list (GS-ladattava) and Kela\'s price list by Vnr (xlsx or UTF-16/Windows-1252 text); roles read from the headers, other members named unused',
    files: [FI_PAKKAUS_FILE],
    optionalFiles: [FI_LAAKEAINE_FILE, FI_KELA_FILE, 'atc.txt', 'laakemuoto.txt', 'GS-ladattava.txt'],
    parse: async (files) => parseFiFimea(files),
  },
  {
    id: 'se-tlv',
    description: 'Swedish TLV medicine price list by Varunummer (xlsx, or ; separated Windows-1252/UTF-8 text): AIP, AUP in SEK, förmånsstatus, NPL-id and NPL pack id; optionally Läkemedelsverket NPL product files (<NPL-id>.xml) beside it',
    files: [SE_TLV_FILE],
    optionalFiles: ['<NPL-id>.xml'],
    parse: async (files) => parseSeTlvFiles(files),
  },
  {
    id: 'it-aifa',
    description: 'Italian AIFA open data: confezioni_fornitura.csv (or the older confezioni.csv) or a BDFN extract as the register, optionally PA_confezioni.csv, the Classe A / Classe H lists per principio attivo and Lista_farmaci_equivalenti.csv (role read from the header); the price lists alone become source it-aifa-prezzi',
    files: [IT_AIFA_FILE],
    optionalFiles: IT_AIFA_OPTIONAL_FILES,
    parse: async (files) => parseItAifa(files),
    open: (files) => openItAifa(files),
  },
  {
    id: 'pt-infomed',
    description: 'Portuguese Infarmed Infomed export with presentations (lista_infomed.csv `;` Windows-1252, or xlsx): Nº Registo, CNPEM, DCI, dosagem, PVP, preço de referência, escalão; or the medicines list Infomed exports (UTF-8, `,`, no Nº Registo) as products without packs',
    files: [PT_INFOMED_FILE],
    parse: parseSingle(PT_INFOMED_FILE, (name, content) => parsePtInfomed({ name, content })),
  },
  supplyAdapter('at-basg-supply', 'Austrian BASG register of distribution restrictions (VertriebseinschraenkungenASP.xml, root VEASP): supply status per PZN, or per Zulassungsnummer where the PZN is empty',
    AT_BASG_SUPPLY_FILE, parseAtBasgSupply),
  supplyAdapter('es-cima-supply', 'Spanish AEMPS CIMA supply problems (the /psuministro JSON answer, one or more pages): supply status per national code (CN)',
    ES_CIMA_SUPPLY_FILE, parseEsCimaSupply),
  supplyAdapter('fr-ansm-supply', 'French ANSM availability list as the BDPM publishes it (CIS_CIP_Dispo_Spec.txt, tab separated): supply status per CIP13, or per CIS where the notice names no pack',
    FR_ANSM_SUPPLY_FILE, parseFrAnsmSupply),
  supplyAdapter('us-fda-shortages', 'US FDA drug shortages as openFDA publishes them (drug/shortages JSON, API answer or bulk download): supply status per package NDC',
    US_FDA_SHORTAGES_FILE, parseUsFdaShortages),
  {
    id: 'snapshot',
    description: 'A JSON file in the normalised drugref-snapshot/1 format (docs/snapshot-format.md)',
    files: ['snapshot.json'],
    parse: parseSingle('snapshot.json', parseJsonSnapshot),
  },
];

/** The adapter registered under `id`, or undefined. */
export function findAdapter(id: string): SourceAdapter | undefined {
  return ADAPTERS.find((a) => a.id === id);
}
