/** Route-table entries of the catalogue: search, drug record, lookup, equivalents, monograph. */
import { CH_DEFAULT_DEPRECATED_AT, deprecationHeaders } from '../http/deprecation.ts';
import { JURISDICTIONS, LOOKUP_SYSTEMS } from '../../vocabulary/systems.ts';
import { catalogueExport } from '../../resolvers/catalogue/export.ts';
import { AS_OF_SCHEMA } from '../../resolvers/catalogue/as-of.ts';
import type { JsonSchema, RouteDef, RouteInput } from './types.ts';
import { member, ndjsonLines, withoutNull } from '../rest/answer-schema.ts';
import { ERROR_SCHEMA } from '../rest/error-schema.ts';
import { FHIR_MEDICATION } from '../rest/fhir-schemas.ts';

/** Where the deprecated implicit `country=CH` default is explained. */
export const COUNTRY_DEFAULT_DOCS = 'https://drugref.example/docs/api-decisions#headers';

/** Deprecation headers when the caller left `country` to its deprecated CH default. */
export function implicitCountryHeaders(input: RouteInput): Record<string, string> {
  return input.query.country === undefined ? deprecationHeaders(CH_DEFAULT_DEPRECATED_AT, COUNTRY_DEFAULT_DOCS) : {};
}

export const SOURCES = 'meta { sources { id name country lastSyncedAt schemaState demo } notice }';
/** A drug in a list (equivalents, class and substance members). */
export const DRUG_ITEM = 'id productName substanceName country atcCode brand doseForm marketingStatus';
/** A search row: a list item plus how it matched. */
export const DRUG_ROW = `${DRUG_ITEM} matchedBy`;
/** Look-alike / sound-alike names of a search row, asked for with `include=lasa` (docs/catalogue.md "LASA"). */
const LASA_FIELD = 'lasa @include(if: $lasa) { name drugId reasons score spelling phonetic curated { source reason } }';
/** One pack's price per DDD with what it was computed from (drug record and market overview). */
export const PACK_DDD_PRICE = `basis pricePerDddUsd ddds unitPriceUsd packPriceUsd reason reasonText priceKind priceAmount priceCurrency
  strengthBasis strengthBasisWhy`;
export const PACK = `id description units unit marketingStatus identifiers { system code validFrom validTo previous }
  prices { kind amount currency validFrom } sl dispensingCategory narcoticList availability tariffCategory sources
  supply { status reason since expectedUntil source fetchedAt }`;
export const DRUG_FULL = `id productName substanceName brand generic country atcCode atcCodeSource { origin basis confidence } doseForm route holder marketingStatus authorisedOn supplyStatus
  reimbursementRatePercent dispensingCategory genericGroups { code label role } previousNames { name until } additionalMonitoring
  authorisationStatus veterinary assessments { kind value date text code reason url } attributes
  centralAuthorisation { drugId productName euNumber procedureNumber status authorisedOn basis }
  ingredients { unii name moietyUnii strengthValue strengthUnit strengthText moietyStrength { unii strengthValue strengthUnit strengthText } }
  identifiers { system code packId }
  packs { ${PACK} } atcChain { code name level } monographLanguages classes { system code label } ${SOURCES}`;

const COUNTRY = { type: 'string', enum: [...JURISDICTIONS, 'ALL'], description: 'ISO 3166-1 alpha-2 of a register, or ALL for every register.' };
export const ATC_PREFIX = { type: 'string', pattern: '^[A-Za-z]([0-9]{2}([A-Za-z]([A-Za-z]([0-9]{2})?)?)?)?$', description: 'ATC code or class prefix, e.g. N02B.' };
const ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid', description: 'Drug id (uuid).' } },
  additionalProperties: false,
} as const;
const LOOKUP_FIELDS = {
  system: { type: 'string', enum: [...LOOKUP_SYSTEMS], description: 'Code system of the identifier.' },
  code: { type: 'string', minLength: 1, maxLength: 64, description: 'The code as printed; normalised (dashes, check digit, padding) before the lookup.' },
};
/** What a dated answer (`as_of`) adds: the record's status block, each pack's status, and when `_meta`'s registers' history starts. */
const DATED_STATUS = 'status statusReason statusSince statusUntil recall { source key publishedOn reason level }';
const DATED_DRUG = `asOf { requested at ${DATED_STATUS} recordedAt } packs { id ${DATED_STATUS} }
  meta { asOf historyStarts sources { id historyStarts } }`;
const LOOKUP_DOCUMENT = `query ($system: String!, $code: String!, $asOf: String, $dated: Boolean!) {
  drugByCode(system: $system, code: $code, asOf: $asOf) { ${DRUG_FULL} matchedPack { ${PACK} }
    ... @include(if: $dated) { ${DATED_DRUG} matchedPack { id ${DATED_STATUS} } } } }`;
/** Lookup variables: the code from the query or the path, and `as_of` when given. */
const lookupVariables = (input: RouteInput) => {
  const from = { ...input.params, ...input.query };
  return { system: from.system, code: from.code, asOf: input.query.as_of ?? null, dated: input.query.as_of !== undefined };
};
const AS_OF_NOTE = 'With `as_of` (ISO date or date-time) the answer is the record as the registers stood then, reconstructed from the change log, with `as_of` (status of the record, since, until) and a `status` per pack (active, withdrawn, recalled, not_yet_listed, unknown); a code deleted since still resolves. docs/api-decisions.md "Identifier status as of a date".';
const DRUG_STATUSES = [200, 401, 403, 404, 422];
const PRICING = 'country basis packs { drugId productName packId description units prices { kind amount currency validFrom } sl }';
const SUBSTANCE = `unii name names provisional moietyUnii moiety { unii name } salts { unii name } formula smiles inchikey rxcui
  atcClasses { code name level } classes { system code label } drugCount markets drugs { ${DRUG_ITEM} }
  identity { key status basis confidence normalisedName names evidence candidates } links { key name source provisional basis confidence } ${SOURCES}`;

/** One line of the catalogue export: the drug record's main fields with its packs. */
export const DRUG_EXPORT = `id productName substanceName brand generic country atcCode doseForm route holder marketingStatus authorisedOn
  authorisationStatus veterinary dispensingCategory
  ingredients { unii name strengthValue strengthUnit strengthText }
  identifiers { system code packId } packs { ${PACK} }`;
const EXPORT_DOCUMENT = `query ($id: ID!) { drug(id: $id) { ${DRUG_EXPORT} } }`;

const exportCatalogue: RouteDef = {
  operationId: 'exportCatalogue',
  method: 'GET',
  path: '/v1/catalogue/export',
  scope: 'drugs:read',
  summary: 'One register country\'s current products with packs, prices and identifiers, streamed as NDJSON.',
  description: 'One product per line: the main fields of the drug record (`GET /v1/drugs/{id}`) with `ingredients`, `identifiers` and `packs` (prices and identifiers included). Products several sources describe appear once, as their representative with every member\'s packs; veterinary products and bulk ingredients are included and say so (`veterinary`, `attributes` stay on the full record). The last line is `{"_end": {"country", "count", "as_of"}}`; a stream without it is incomplete (a failure part way ends it with an `_error` line). Counted as one request. Not an MCP tool.',
  tags: ['drugs'],
  query: {
    type: 'object',
    required: ['country'],
    additionalProperties: false,
    properties: { country: { type: 'string', enum: [...JURISDICTIONS], description: 'ISO 3166-1 alpha-2 of one register.' } },
  },
  document: EXPORT_DOCUMENT,
  stream: (ctx, input) => catalogueExport(ctx, String(input.query.country), EXPORT_DOCUMENT),
  responseType: 'application/x-ndjson',
  answer: (data) => ndjsonLines(withoutNull(member(data, 'drug')), {
    country: { type: 'string' }, count: { type: 'integer', description: 'Products in the stream.' }, as_of: { type: 'string', format: 'date-time' },
  }, ERROR_SCHEMA),
  statuses: [200, 401, 403, 422],
  mcp: false,
};

export const catalogueRoutes: RouteDef[] = [
  exportCatalogue,
  {
    operationId: 'searchDrugs',
    method: 'GET',
    path: '/v1/drugs',
    scope: 'drugs:read',
    summary: 'Typeahead search by name or any code.',
    description: 'Codes are tried first (ATC, NDC, GTIN, CIP13, CIP7, AIC, PZN, national numbers, UNII, rxcui:<n>); otherwise a case-insensitive match on product or substance name. Without `country` name search runs in CH (deprecated default, `Deprecation` header); a code match is narrowed only by an explicit country. With `include=lasa` each row also carries `lasa`: other names marketed in the same country that are easily confused with it (look-alike / sound-alike), each with its reasons (`curated`, `spelling`, `phonetic`), a score and a representative `drug_id`; one extra query per page.',
    tags: ['drugs'],
    query: {
      type: 'object',
      required: ['q'],
      additionalProperties: false,
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 200, description: 'A name or any code.' },
        country: { ...COUNTRY, description: 'ISO 3166-1 alpha-2 or ALL; default CH (deprecated) for name search.' },
        atc: { ...ATC_PREFIX, description: 'Prefix filter on atc_code.' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100.' },
        include: { type: 'string', enum: ['lasa'], description: 'lasa: add look-alike / sound-alike names to each row (opt-in: one extra query per page).' },
      },
    },
    document: `query ($q: String!, $country: String, $atc: String, $limit: Int, $lasa: Boolean!) {
      drugs(q: $q, country: $country, atc: $atc, limit: $limit) { q country matchedBy count results { ${DRUG_ROW} ${LASA_FIELD} } ${SOURCES} } }`,
    variables: (input) => ({ q: input.query.q, country: input.query.country, atc: input.query.atc, limit: input.query.limit, lasa: input.query.include === 'lasa' }),
    headers: implicitCountryHeaders,
    statuses: [200, 401, 403, 422],
    mcp: {
      name: 'search_drugs',
      description: 'Search marketed medicinal products by brand or substance name, or by any code (ATC, GTIN/EAN, NDC, CIP13, PZN, AIC, Swissmedic number, UNII, "rxcui:<n>"). Give `country` (ISO alpha-2 such as CH, DE, FR, US, or ALL); each result has an id for get_drug and says how it matched. Give include="lasa" to list, per result, look-alike / sound-alike names marketed in the same country that could be confused with it.',
    },
  },
  {
    operationId: 'getDrug',
    method: 'GET',
    path: '/v1/drugs/{id}',
    scope: 'drugs:read',
    summary: 'The full drug record, or a FHIR R4 Medication with format=fhir.',
    tags: ['drugs'],
    params: ID_PARAMS,
    description: AS_OF_NOTE,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        format: { type: 'string', enum: ['json', 'fhir'], default: 'json', description: 'json (default) or fhir (FHIR R4 Medication).' },
        as_of: AS_OF_SCHEMA,
        include: {
          type: 'string', enum: ['price_per_ddd'],
          description: 'price_per_ddd: each pack also carries `price_per_ddd`, its own price per WHO DDD in USD or the reason code it stopped short, with the price kind used and the strength basis counted (json only).',
        },
      },
    },
    document: `query ($id: ID!, $fhir: Boolean!, $asOf: String, $dated: Boolean!, $ddd: Boolean!) { drug(id: $id, asOf: $asOf) {
      fhirMedication @include(if: $fhir) ... @skip(if: $fhir) { ${DRUG_FULL} packs { id pricePerDdd @include(if: $ddd) { ${PACK_DDD_PRICE} } }
        ... @include(if: $dated) { ${DATED_DRUG} } } } }`,
    variables: (input) => ({
      id: input.params.id, fhir: input.query.format === 'fhir', asOf: input.query.as_of ?? null,
      dated: input.query.as_of !== undefined && input.query.format !== 'fhir',
      ddd: input.query.include === 'price_per_ddd' && input.query.format !== 'fhir',
    }),
    respond: (data, input) => {
      const drug = data.drug as Record<string, unknown> | null;
      return input.query.format === 'fhir' ? drug?.fhir_medication : drug;
    },
    answer: (data) => {
      // The JSON record; format=fhir answers the Medication resource (responseAlternatives).
      const drug = member(data, 'drug');
      const { fhir_medication: _fhir, ...json } = drug.properties as Record<string, JsonSchema>;
      return { ...drug, properties: json };
    },
    responseAlternatives: { 'application/fhir+json': FHIR_MEDICATION },
    headers: (input): Record<string, string> => (input.query.format === 'fhir' ? { 'content-type': 'application/fhir+json; charset=utf-8' } : {}),
    notFound: 'Drug',
    cacheable: true,
    statuses: [200, 304, 401, 403, 404, 422],
    mcp: {
      name: 'get_drug',
      description: 'Get one drug record by its id (from search_drugs): product and substance names, ingredients with strengths, dose form, holder, ATC parent chain, packs with prices and identifiers, and which monograph languages exist. Give include="price_per_ddd" for each pack\'s own price per WHO DDD in USD (or the reason code it stopped short, the price kind and strength basis used). Give `as_of` (YYYY-MM-DD) for the record as it stood on that date with each pack\'s status then (active, withdrawn, recalled, not_yet_listed, unknown).',
    },
  },
  {
    operationId: 'getDrugEquivalents',
    method: 'GET',
    path: '/v1/drugs/{id}/equivalents',
    scope: 'drugs:read',
    summary: 'The same medicine and the same substances in other products, grouped by country.',
    tags: ['drugs'],
    params: ID_PARAMS,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { per_country: { type: 'integer', minimum: 1, maximum: 50, default: 3, description: 'Products listed per country, 1 to 50.' } },
    },
    document: `query ($id: ID!, $perCountry: Int) { drugEquivalents(id: $id, perCountry: $perCountry) {
      drug { ${DRUG_ITEM} } basis perCountry
      sameMedicine { country count drugs { ${DRUG_ITEM} } } sameSubstance { country count drugs { ${DRUG_ITEM} } } ${SOURCES} } }`,
    notFound: 'Drug',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'get_drug_equivalents',
      description: 'Find the same medicine (same active substances, strength, dose form and route) and products with the same substances in other countries, for a drug id. Counts per country are exact; `basis` says whether matching used substance identity (UNII), the ATC class, or nothing.',
    },
  },
  {
    operationId: 'getDrugMonograph',
    method: 'GET',
    path: '/v1/drugs/{id}/monograph',
    scope: 'drugs:read',
    summary: 'The Swiss monograph text in one language.',
    tags: ['drugs'],
    params: ID_PARAMS,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { lang: { type: 'string', enum: ['de', 'fr', 'it'], default: 'de', description: 'de (default), fr or it.' } },
    },
    document: `query ($id: ID!, $lang: String!) { drugMonograph(id: $id, lang: $lang) { lang title sections availableLanguages ${SOURCES} } }`,
    notFound: 'Drug',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'get_drug_monograph',
      description: 'Read the Swiss product information (monograph) of a drug id in German, French or Italian: indications, dosage, contraindications, warnings, interactions, adverse reactions, by section.',
    },
  },
  {
    operationId: 'getDrugProfile',
    method: 'GET',
    path: '/v1/drugs/{id}/profile',
    scope: 'drugs:read',
    summary: 'Combined view: record, information texts, Swiss and US pricing, pack prices, interactions, adverse-event signal, availability.',
    description: 'Every section is best-effort: a section without data is null (listed in `unavailable` with the reason) and the status stays 200.',
    tags: ['drugs'],
    params: ID_PARAMS,
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($id: ID!) { drugProfile(id: $id) {
      drug { ${DRUG_FULL} }
      information { lang title indications contraindications warnings boxedWarning adverseReactions drugInteractions }
      swissPricing { ${PRICING} } usPricing { ${PRICING} } packPrices { ${PACK} }
      interactions { atcCode total withheldLicensed rules { partnerCode partnerLabel severity evidence description licence attributions } }
      adverseEventSignal availability { country count } unavailable { section reason } ${SOURCES} } }`,
    notFound: 'Drug',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'get_drug_profile',
      description: 'Get everything known about a drug id in one call: the record, product-information texts (indications, contraindications, warnings, boxed warning, adverse reactions, interactions), Swiss and US pack pricing, the product\'s own pack prices, and in how many products per country the same substances are marketed. Sections with no data are null and listed in `unavailable` with the reason.',
    },
  },
  {
    operationId: 'lookupDrug',
    method: 'GET',
    path: '/v1/drugs/lookup',
    scope: 'drugs:read',
    summary: 'Resolve one pack-level identifier to the canonical drug record.',
    description: AS_OF_NOTE,
    tags: ['drugs'],
    query: { type: 'object', required: ['system', 'code'], additionalProperties: false, properties: { ...LOOKUP_FIELDS, as_of: AS_OF_SCHEMA } },
    document: LOOKUP_DOCUMENT,
    variables: lookupVariables,
    notFound: 'Drug for this code',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'lookup_pack',
      description: 'Resolve a barcode or pack identifier to its drug: give `system` (gtin, ean, pharmacode, cip13, pzn, swissmedic_no, ndc11, aic, dmd_amppid, or a Nordic/Benelux/Iberian national number system) and `code` as printed. Returns the drug record and the matched pack. Give `as_of` (YYYY-MM-DD) to ask what the code was on that date: the record then and the pack\'s status (active, withdrawn, recalled, not_yet_listed, unknown) with since/until; codes deleted since still resolve.',
    },
  },
  {
    operationId: 'getPack',
    method: 'GET',
    path: '/v1/packs/{system}/{code}',
    scope: 'drugs:read',
    summary: 'Alias of /v1/drugs/lookup with system and code in the path.',
    description: AS_OF_NOTE,
    tags: ['drugs'],
    params: { type: 'object', required: ['system', 'code'], additionalProperties: false, properties: LOOKUP_FIELDS },
    query: { type: 'object', additionalProperties: false, properties: { as_of: AS_OF_SCHEMA } },
    document: LOOKUP_DOCUMENT,
    variables: lookupVariables,
    notFound: 'Drug for this code',
    statuses: DRUG_STATUSES,
    mcp: false,
  },
  {
    operationId: 'getSubstance',
    method: 'GET',
    path: '/v1/substances/{unii}',
    scope: 'drugs:read',
    summary: 'Substance view: names across vocabularies, drugs containing it, chemistry, ATC classes.',
    tags: ['substances'],
    params: {
      type: 'object',
      required: ['unii'],
      properties: { unii: { type: 'string', pattern: '^([A-Za-z0-9]{10}|[a-z]+:.{1,100})$', description: 'UNII (10 characters) or a provisional key such as name:IBUPROFEN.' } },
      additionalProperties: false,
    },
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($unii: String!) { substance(unii: $unii) { ${SUBSTANCE} } }`,
    notFound: 'Substance',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'get_substance',
      description: 'Get an active substance by FDA UNII (e.g. "WK2XYI10QM" for ibuprofen): names in INN/USAN/BAN and local languages, salts folded to the active moiety, formula, SMILES, InChIKey, RxCUI, ATC and pharmacologic classes, and the products containing it across countries.',
    },
  },
  {
    operationId: 'resolveSubstance',
    method: 'GET',
    path: '/v1/substances/xref',
    scope: 'drugs:read',
    summary: 'Resolve a substance name to a UNII, cross-vocabulary codes and a chemical structure.',
    tags: ['substances'],
    query: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 200, description: 'Substance name in any vocabulary (INN, USAN, BAN, local language).' } },
    },
    document: `query ($name: String!) { substanceXref(name: $name) {
      query matchedBy unii name names provisional moietyUnii codes { unii rxcui inchikey atc } structure { formula smiles inchikey } ${SOURCES} } }`,
    notFound: 'Substance',
    statuses: DRUG_STATUSES,
    mcp: {
      name: 'resolve_substance_name',
      description: 'Turn a substance name in any vocabulary (e.g. "acetaminophen", "paracetamol", "amlodipine besilate") into its FDA UNII, RxCUI, InChIKey, ATC codes and chemical structure; says whether the match was the preferred name, a synonym or the closest spelling.',
    },
  },
];
