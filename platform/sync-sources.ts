/**
 * The one documented place for the registers the sync worker downloads: which adapter reads
 * each, which files it needs, where the publisher puts them and how often to look. Defaults
 * are the publishers' documented download locations; `SYNC_<SOURCE>_URL` overrides a URL,
 * `SYNC_<SOURCE>_ENABLED=false` switches a source off (platform/config.ts reads both).
 *
 * A source's URL names ONE location. A source with several downloads (the BDPM text files)
 * has a `{file}` placeholder that each download's `file` fills. This module imports nothing,
 * so the config loader can read it without pulling in the worker.
 */

/** One file fetched from the publisher. */
export interface SyncDownload {
  /** Replaces `{file}` in the source URL, and names the file handed to the adapter (unless unpacked). */
  file: string;
  /** A missing optional download (404) is skipped instead of failing the sync. */
  optional?: boolean;
  /**
   * The download is a zip archive: the entries whose base name matches one of these patterns
   * are handed to the adapter under their base name. `nested` also opens zips found inside
   * (one level; dm+d ships its GTIN file as a zip within the release zip).
   */
  unzip?: { entries: readonly RegExp[]; nested?: boolean };
}

/** A register the sync worker can keep current. */
export interface SyncSourceDefinition {
  /** Sync source id; by convention the catalogue source id the adapter writes. */
  id: string;
  /** Adapter id in workers/ingest/adapters/index.ts. */
  adapter: string;
  /** Shown by `drugref sync status` and, until the first success, in `_meta.sources` (never_run). */
  name: string;
  country: string | null;
  /** Default download location, or null where the publisher needs an account or licence. */
  url: string | null;
  downloads: readonly SyncDownload[];
  /** How often to look for a new file. Conditional requests make an unchanged look almost free. */
  intervalHours: number;
  /** What an operator must know to switch the source on (credentials, licences). */
  note?: string;
}

/** Publishers that update daily or more: look every 6 h, so a missed look never makes the source stale. */
const SIX_HOURS = 6;
/** Weekly and monthly publishers: one look a day is ample, far inside their refresh interval. */
const DAILY = 24;

const BDPM_FILES = ['CIS_bdpm.txt', 'CIS_CIP_bdpm.txt'];
const BDPM_OPTIONAL = ['CIS_COMPO_bdpm.txt', 'CIS_GENER_bdpm.txt', 'CIS_CPD_bdpm.txt', 'CIS_HAS_SMR_bdpm.txt',
  'CIS_HAS_ASMR_bdpm.txt', 'HAS_LiensPageCT_bdpm.txt', 'CIS_MITM.txt', 'CIS_InfoImportantes.txt', 'CIS_CIP_Dispo_Spec.txt'];

/** DailyMed numbers the parts of a full release from 1; parts past the last published answer 404 and are skipped. */
const DAILYMED_RX_PARTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Every register the sync worker knows. Sources whose adapter is not registered are skipped with a warning. */
export const SYNC_SOURCES: readonly SyncSourceDefinition[] = [
  {
    // oddb2xml BagXmlDownloader; the BAG redirects this to sl.bag.admin.ch.
    id: 'ch-sl', adapter: 'ch-sl', name: 'BAG Spezialitätenliste (SL)', country: 'CH',
    url: 'https://www.spezialitaetenliste.ch/File.axd?file=XMLPublications.zip',
    downloads: [{ file: 'XMLPublications.zip', unzip: { entries: [/^Preparations\.xml$/i] } }],
    intervalHours: DAILY,
  },
  {
    // oddb2xml RefdataDownloader (the public zip that replaced the SOAP service).
    id: 'ch-refdata', adapter: 'ch-refdata', name: 'Refdata articles', country: 'CH',
    url: 'https://files.refdata.ch/simis-public-prod/Articles/1.0/Refdata.Articles.zip',
    downloads: [{ file: 'Refdata.Articles.zip', unzip: { entries: [/^Refdata\.Articles\.xml$/i] } }],
    intervalHours: SIX_HOURS,
  },
  {
    // Swissmedic "Listen und Verzeichnisse": the stable DAM link of "Zugelassene Packungen".
    id: 'ch-swissmedic', adapter: 'ch-swissmedic', name: 'Swissmedic authorised packages', country: 'CH',
    url: 'https://www.swissmedic.ch/dam/swissmedic/de/dokumente/internetlisten/zugelassene_packungen_human.xlsx.download.xlsx/zugelassene_packungen_ham.xlsx',
    downloads: [{ file: 'Packungen.xlsx' }],
    intervalHours: DAILY,
    note: 'Swissmedic renames the file now and then; if the default answers 404, copy the current link from swissmedic.ch/…/listen_neu.html into SYNC_CH_SWISSMEDIC_URL.',
  },
  {
    // oddb2xml ZurroseDownloader (ywesee's mirror of Zur Rose's IGM-11 full file).
    id: 'ch-zurrose', adapter: 'ch-zurrose', name: 'Zur Rose article master', country: 'CH',
    url: 'http://pillbox.oddb.org/TRANSFER.ZIP',
    downloads: [{ file: 'TRANSFER.ZIP', unzip: { entries: [/^transfer\.dat$/i] } }],
    intervalHours: SIX_HOURS,
  },
  {
    id: 'ch-artikelstamm', adapter: 'ch-artikelstamm', name: 'Elexis Artikelstamm', country: 'CH', url: null,
    downloads: [{ file: 'artikelstamm.xml' }],
    intervalHours: DAILY,
    note: 'No public default: set SYNC_CH_ARTIKELSTAMM_URL to the Artikelstamm v5 XML your Elexis distribution publishes.',
  },
  {
    id: 'ch-sl-groups', adapter: 'ch-sl-groups', name: 'SL pharma group prices', country: 'CH', url: null,
    downloads: [{ file: 'bag_sl_group_prices.csv' }],
    intervalHours: DAILY,
    note: 'No public default: set SYNC_CH_SL_GROUPS_URL to where you publish bag_sl_group_prices.csv.',
  },
  {
    // FDA NDC directory, "NDC database file - text version", refreshed daily.
    id: 'fda-ndc', adapter: 'fda-ndc', name: 'FDA NDC directory', country: 'US',
    url: 'https://www.accessdata.fda.gov/cder/ndctext.zip',
    downloads: [{ file: 'ndctext.zip', unzip: { entries: [/^product\.txt$/i, /^package\.txt$/i] } }],
    intervalHours: SIX_HOURS,
  },
  {
    // openFDA bulk download (listed in https://api.fda.gov/download.json under drug/ndc).
    id: 'us-openfda-ndc', adapter: 'us-openfda-ndc', name: 'openFDA NDC export', country: 'US',
    url: 'https://download.open.fda.gov/drug/ndc/drug-ndc-0001-of-0001.json.zip',
    downloads: [{ file: 'drug-ndc-0001-of-0001.json.zip', unzip: { entries: [/^drug-ndc-\d+-of-\d+\.json$/i] } }],
    intervalHours: DAILY,
  },
  {
    // FDA GSRS UNII archive, "latest" alias.
    id: 'us-unii', adapter: 'us-unii', name: 'FDA UNII substances', country: 'US',
    url: 'https://precision.fda.gov/uniisearch/archive/latest/UNII_Data.zip',
    downloads: [{ file: 'UNII_Data.zip', unzip: { entries: [/^UNII_Records.*\.txt$/i, /^UNII_Names.*\.txt$/i] } }],
    intervalHours: DAILY,
  },
  {
    id: 'us-rxnorm', adapter: 'us-rxnorm', name: 'NLM RxNorm', country: 'US', url: null,
    downloads: [{ file: 'RxNorm_full_current.zip', unzip: { entries: [/^RXNCONSO\.RRF$/i, /^RXNSAT\.RRF$/i] } }],
    intervalHours: DAILY,
    note: 'Needs a UMLS licence: set SYNC_US_RXNORM_URL to https://uts-ws.nlm.nih.gov/download?url=https://download.nlm.nih.gov/umls/kss/rxnorm/RxNorm_full_current.zip&apiKey=<your UMLS API key>.',
  },
  {
    // BDPM "Téléchargement": one URL per text file.
    id: 'fr-bdpm', adapter: 'fr-bdpm', name: 'Base de données publique des médicaments', country: 'FR',
    url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement.php?fichier={file}',
    downloads: [...BDPM_FILES.map((file) => ({ file })), ...BDPM_OPTIONAL.map((file) => ({ file, optional: true }))],
    intervalHours: DAILY,
  },
  {
    id: 'gb-dmd', adapter: 'gb-dmd', name: 'NHS dm+d', country: 'GB', url: null,
    downloads: [{ file: 'nhsbsa_dmd.zip', unzip: { entries: [/^f_[a-z]+\d_\d+\.xml$/i], nested: true } }],
    intervalHours: DAILY,
    note: 'Distributed through NHS TRUD, which needs an account and a subscription to item 24 (dm+d): set SYNC_GB_DMD_URL to the release archive URL the TRUD API gives for your key (https://isd.digital.nhs.uk/trud/api/v1/keys/<key>/items/24/releases?latest → archiveFileUrl).',
  },
  {
    // EMA "Download medicine data": the medicines table, regenerated nightly.
    id: 'eu-ema', adapter: 'eu-ema', name: 'EMA centrally authorised medicines', country: null,
    url: 'https://www.ema.europa.eu/en/documents/report/medicines-output-medicines-report_en.xlsx',
    downloads: [{ file: 'Medicines_output_european_public_assessment_reports.xlsx' }],
    intervalHours: DAILY,
  },
  {
    // DailyMed's full human prescription release: parts of about 3 GB, each a zip of one zip per SPL
    // (its XML and pictures). The release is taken whole: part 1 and every further part published
    // (their number grows with the labels; 6 in 2026); only the XML documents are unpacked.
    id: 'us-spl', adapter: 'us-spl', name: 'FDA SPL product data (DailyMed)', country: 'US', url: null,
    downloads: DAILYMED_RX_PARTS.map((n) => ({
      file: `dm_spl_release_human_rx_part${n}.zip`, ...(n > 1 ? { optional: true } : {}),
      unzip: { entries: [/\.xml$/i], nested: true },
    })),
    intervalHours: DAILY,
    note: 'DailyMed publishes the full human prescription release as about 18 GB of zip parts at https://dailymed-data.nlm.nih.gov/public-release-files/: set SYNC_US_SPL_URL to that folder (or a mirror of it) with {file} for the part name, and raise SYNC_MAX_BYTES (per part) and SYNC_MAX_UNPACKED_BYTES (the SPL documents unpacked to the sync\'s temporary folder) to the release\'s size.',
  },
  {
    id: 'de-pzn', adapter: 'de-pzn', name: 'German PZN price list', country: 'DE', url: null,
    downloads: [{ file: 'festbetraege.csv' }],
    intervalHours: DAILY,
    note: 'BfArM renames the Festbetrag list with every issue and the AVP lists are licensed (IFA): set SYNC_DE_PZN_URL to the current file.',
  },
  {
    // Lægemiddelstyrelsen hands the takst (lmsNN.txt, every 14 days) to pharmacy and EHR vendors; medicinpriser.dk shows it.
    id: 'dk-lms', adapter: 'dk-lms', name: 'Lægemiddelstyrelsen medicinpriser (takst)', country: 'DK', url: null,
    // The release whole (lmsNN and system.txt, plain or dated names); the adapter names what it does not read.
    downloads: [{ file: 'takst.zip', unzip: { entries: [/^(?:lms\d{2}|system)(?:[_-][\w-]*)?(?:\.txt)?$/i] } }],
    intervalHours: DAILY,
    note: 'The takst files are handed out by Lægemiddelstyrelsen (medicinpriser.dk) rather than linked: set SYNC_DK_LMS_URL to a zip of the current takst release (lms01 … lms32, system.txt).',
  },
  {
    // DMP "Distribusjon av legemiddeldata": the prescriber extract, a full file before the 1st and 15th of each month.
    id: 'no-fest', adapter: 'no-fest', name: 'FEST (Direktoratet for medisinske produkter)', country: 'NO',
    url: 'https://www.dmp.no/globalassets/documents/om-oss/distribusjon-av-legemiddeldata/fest/festfiler/fest251.zip',
    downloads: [{ file: 'fest251.zip', unzip: { entries: [/^fest251\.xml$/i] } }],
    intervalHours: DAILY,
  },
  {
    id: 'who-atc', adapter: 'who-atc', name: 'WHO ATC/DDD index', country: null, url: null,
    downloads: [{ file: 'atc.csv' }],
    intervalHours: DAILY,
    note: 'The WHOCC sells the ATC/DDD index and publishes no open download: set SYNC_WHO_ATC_URL to your licensed copy.',
  },
  {
    // AEMPS "Nomenclátor de prescripción" download (CIMA), regenerated daily: the XML and its code tables in one zip.
    id: 'es-cima', adapter: 'es-cima', name: 'AEMPS CIMA nomenclátor de prescripción', country: 'ES',
    url: 'https://listadomedicamentos.aemps.gob.es/prescripcion.zip',
    downloads: [{ file: 'prescripcion.zip', unzip: { entries: [/^Prescripcion\.xml$/i, /^DICCIONARIO_(?:PRINCIPIOS_ACTIVOS|LABORATORIOS|FORMA_FARMACEUTICA|VIAS_ADMINISTRACION|SITUACION_REGISTRO|UNIDAD_CONTENIDO)\.xml$/i, /Nomenclator_de_Facturacion\.csv$/i] } }],
    intervalHours: DAILY,
    note: 'Prices come from the Ministry of Health nomenclátor de facturación CSV, published on another site: to keep them through syncs, set SYNC_ES_CIMA_URL to a zip (a mirror) that also holds *Nomenclator_de_Facturacion.csv.',
  },
  {
    id: 'at-eko', adapter: 'at-eko', name: 'Erstattungskodex (Dachverband)', country: 'AT', url: null,
    // The carrier's text files (the adapter reads hinweis.txt too and names regeltext_v2 and wirkstoff_information unused).
    downloads: [{ file: 'ehmv_teil1.zip', unzip: { entries: [/^(?:medikament|wirkstoff|atccode|rezeptpflicht|regeltext|medikament_zusatz|hinweis|regeltext_v2|wirkstoff_information)\.txt$/i] } }],
    intervalHours: DAILY,
    note: 'The Dachverband publishes the EKO data carrier monthly on sozialversicherung.at as ehmvMM_YY_teil1.zip under a content link that changes with every release: set SYNC_AT_EKO_URL to the current link.',
  },
  {
    // Fimea "Perusrekisteri": the basic register as a zip of ; separated text files, twice a month.
    id: 'fi-fimea', adapter: 'fi-fimea', name: 'Fimea basic register of medicinal products', country: 'FI', url: null,
    downloads: [{ file: 'perusrekisteri.zip', unzip: { entries: [/\.txt$/i, /^kela.*\.(csv|xlsx)$/i] } }],
    intervalHours: DAILY,
    note: 'Fimea links each release of the basic register under a new document address on fimea.fi/laakehaut_ja_luettelot/perusrekisteri: set SYNC_FI_FIMEA_URL to the current zip (PAKKAUS and LAAKEAINE files). Kela\'s prices belong to the same source: a zip without a kela*.txt/csv/xlsx price list reloads the register without them.',
  },
  {
    id: 'se-tlv', adapter: 'se-tlv', name: 'TLV medicine prices and reimbursement', country: 'SE', url: null,
    // The release the adapter reads: TLV's list and Läkemedelsverket's NPL product files (one
    // <NPL-id>.xml per product, in the NPL export zip), which add what TLV does not list.
    downloads: [
      { file: 'tlv_lakemedel.xlsx' },
      { file: 'npl.zip', optional: true, unzip: { entries: [/\.xml$/i] } },
    ],
    intervalHours: DAILY,
    note: 'TLV publishes the list through its database search (tlv.se/beslut/sok-i-databasen.html; its open-data copy is https://www.tlv.se/file/medprice) and Läkemedelsverket hands out the NPL export to registered users, neither at a stable file address: keep both in one place and set SYNC_SE_TLV_URL to it with {file} for the name (tlv_lakemedel.xlsx, the list as xlsx or text; npl.zip, the NPL export). Without npl.zip (404) a sync reloads the list alone.',
  },
  {
    // AIFA "Liste dei farmaci" → Anagrafica dei farmaci: stable names, regenerated daily (data of the day before).
    id: 'it-aifa', adapter: 'it-aifa', name: 'AIFA medicinali autorizzati (confezioni)', country: 'IT',
    url: 'https://drive.aifa.gov.it/farmaci/{file}',
    downloads: [{ file: 'confezioni_fornitura.csv' }, { file: 'PA_confezioni.csv', optional: true }],
    intervalHours: SIX_HOURS,
    note: 'The Classe A/H lists carry their date in the file name and the lista di trasparenza lives on www.aifa.gov.it: give them to `drugref ingest it-aifa` with the register when you want their prices.',
  },
  {
    id: 'pt-infomed', adapter: 'pt-infomed', name: 'Infarmed Infomed (apresentações)', country: 'PT', url: null,
    downloads: [{ file: 'lista_infomed.csv' }],
    intervalHours: DAILY,
    note: 'Infomed exports its list only from the search page (extranet.infarmed.pt/INFOMED-fo), with no stable download link: set SYNC_PT_INFOMED_URL to where you publish the export with presentations (CSV or xlsx).',
  },
  {
    // CBG-MEB Geneesmiddeleninformatiebank open data: the whole register as one pipe-separated file, refreshed weekly.
    id: 'nl-cbg', adapter: 'nl-cbg', name: 'CBG-MEB Geneesmiddeleninformatiebank', country: 'NL',
    url: 'https://www.geneesmiddeleninformatiebank.nl/metadata.csv',
    downloads: [{ file: 'metadata.csv' }],
    intervalHours: DAILY,
  },
  {
    // FAMHP SAM v2 full export (zip of AMP-, VMP-, RMB-… XML files; AMP and RMB are read); each release has its own version number.
    id: 'be-sam', adapter: 'be-sam', name: 'FAMHP SAM v2 actual medicines', country: 'BE', url: null,
    downloads: [{ file: 'samv2-full.zip', unzip: { entries: [/^AMP[-_].*\.xml$/i, /^AMP\.xml$/i, /^RMB[-_].*\.xml$/i, /^RMB\.xml$/i] } }],
    intervalHours: DAILY,
    note: 'SAM names each full export by version: read the current one from https://www.vas.ehealth.fgov.be/websamcivics/samcivics/download/samv2-full-getLastVersion?xsd=5 and set SYNC_BE_SAM_URL to https://www.vas.ehealth.fgov.be/websamcivics/samcivics/download/samv2-download?type=FULL&xsd=5&version=<version> (or to a mirror that always serves the latest zip).',
  },
  {
    // HPRA medicines listing: the authorised and the withdrawn human lists, one release. Only both
    // together state the register (a licence leaving the first moves to the second, or is gone).
    id: 'ie-hpra', adapter: 'ie-hpra', name: 'HPRA human medicines list', country: 'IE',
    url: 'https://assets.hpra.ie/products/xml/{file}',
    downloads: [{ file: 'latestHumanlist.xml' }, { file: 'withdrawnHumanlist.xml' }],
    intervalHours: DAILY,
    note: 'The HPRA moves its downloads now and then; if the default answers 404, set SYNC_IE_HPRA_URL to the current location of both human lists with {file} for the name (latestHumanlist.xml, withdrawnHumanlist.xml).',
  },
  {
    // BASG "Datenbereitstellung Vertriebseinschränkungen": the whole register, produced daily around 00:00–04:00.
    id: 'at-basg-supply', adapter: 'at-basg-supply', name: 'BASG Vertriebseinschränkungen', country: 'AT',
    url: 'https://www.basg.gv.at/fileadmin/uploadVERE/VertriebseinschraenkungenASP.xml',
    downloads: [{ file: 'VertriebseinschraenkungenASP.xml' }],
    intervalHours: DAILY,
  },
  {
    // CIMA REST: the supply problems listing in one page where the service allows it; a shorter page is read as part of the listing.
    id: 'es-cima-supply', adapter: 'es-cima-supply', name: 'AEMPS CIMA problemas de suministro', country: 'ES',
    url: 'https://cima.aemps.es/cima/rest/psuministro?pagesize=10000',
    downloads: [{ file: 'psuministro.json' }],
    intervalHours: DAILY,
  },
  {
    // The BDPM download page's availability file: the ANSM notices of shortage, tension, stop and return, updated daily.
    id: 'fr-ansm-supply', adapter: 'fr-ansm-supply', name: 'ANSM disponibilité des médicaments (BDPM)', country: 'FR',
    url: 'https://base-donnees-publique.medicaments.gouv.fr/telechargement.php?fichier=CIS_CIP_Dispo_Spec.txt',
    downloads: [{ file: 'CIS_CIP_Dispo_Spec.txt' }],
    intervalHours: DAILY,
  },
  {
    // openFDA bulk download (listed in https://api.fda.gov/download.json under drug/shortages).
    id: 'us-fda-shortages', adapter: 'us-fda-shortages', name: 'FDA drug shortages (openFDA)', country: 'US',
    url: 'https://download.open.fda.gov/drug/shortages/drug-shortages-0001-of-0001.json.zip',
    downloads: [{ file: 'drug-shortages-0001-of-0001.json.zip', unzip: { entries: [/^drug-shortages-\d+-of-\d+\.json$/i] } }],
    intervalHours: DAILY,
  },
];

/** `ch-sl` → `CH_SL`, the infix of a source's environment variables. */
export function syncEnvName(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** The definition registered under `id`, or undefined. */
export function findSyncSource(id: string): SyncSourceDefinition | undefined {
  return SYNC_SOURCES.find((s) => s.id === id);
}

/** The URL of one download: `{file}` filled in where the source has several. */
export function downloadUrl(sourceUrl: string, download: SyncDownload): string {
  return sourceUrl.replaceAll('{file}', encodeURIComponent(download.file));
}
