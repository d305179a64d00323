/** Route-table entries of the ATC tree and of therapeutic classes on every axis. */
import { CLASS_SYSTEMS, JURISDICTIONS } from '../../vocabulary/systems.ts';
import { DRUG_ITEM, implicitCountryHeaders } from './catalogue.ts';
import type { RouteDef } from './types.ts';

const ATC_CODE = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[A-Za-z]([0-9]{2}([A-Za-z]([A-Za-z]([0-9]{2})?)?)?)?$', description: 'ATC code of any level, e.g. N02BE01 or N02.' } },
  additionalProperties: false,
} as const;

const CLASS_PATH = {
  type: 'object',
  required: ['system', 'code'],
  properties: {
    system: { type: 'string', enum: [...CLASS_SYSTEMS], description: 'Class axis.' },
    code: { type: 'string', minLength: 1, maxLength: 100, description: 'An ATC code (case-insensitive) or the axis\'s opaque class id.' },
  },
  additionalProperties: false,
} as const;

/** Page parameters of class and ATC drug lists (maximum documented in docs/api-decisions.md). */
const PAGE = {
  limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200.' },
  offset: { type: 'integer', minimum: 0, default: 0, description: 'Rows to skip; past the end is a 422.' },
};

const SOURCES = 'meta { sources { id name country lastSyncedAt schemaState demo } notice }';
const DDD = 'ddd { value unit route note }';
const ATC_NODE = `code name level ancestors { code name level } ${DDD} ${SOURCES}`;
const DRUG_PAGE = `system code label country total limit offset results { ${DRUG_ITEM} } ${SOURCES}`;
const CLASS_ROW = 'system code label level drugCount substanceCount marketCount';
const CLASS_STATUSES = [200, 304, 401, 403, 404, 422];
/** Packs short per country, asked for with `include=supply` (one query more; docs/supply.md "Classes"). */
const CLASS_SUPPLY = 'supply @include(if: $supply) { country status packs short limited unavailable discontinued }';
const SUPPLY_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    include: { type: 'string', enum: ['supply'], description: 'supply: add, per country, the class\'s marketed packs and how many a shortage publication reports limited, unavailable or discontinued (opt-in: one extra query).' },
  },
} as const;

const atcNode = (operationId: string, path: string, summary: string): RouteDef => ({
  operationId,
  method: 'GET',
  path,
  scope: 'atc:read',
  summary,
  tags: ['atc'],
  params: ATC_CODE,
  query: SUPPLY_QUERY,
  document: `query ($code: String!, $supply: Boolean!) { atc(code: $code) { ${ATC_NODE} ${CLASS_SUPPLY} } }`,
  variables: (input) => ({ code: input.params.code, supply: input.query.include === 'supply' }),
  notFound: 'ATC code',
  cacheable: true,
  statuses: CLASS_STATUSES,
  mcp: operationId === 'getAtcNode'
    ? { name: 'get_atc_class', description: 'Look up a WHO ATC classification code (any level, e.g. "N02BE01" or "C09"): its label, level, parent chain and WHO defined daily doses (DDD). Give include="supply" for, per country, how many marketed packs of the class a national shortage publication reports limited, unavailable or discontinued.' }
    : false,
});

const atcRoutes: RouteDef[] = [
  atcNode('getAtcNode', '/v1/atc/{code}', 'ATC node with its parent chain, label and DDD.'),
  atcNode('getTherapy', '/v1/therapies/{code}', 'Alias of /v1/atc/{code}, same answer.'),
  {
    operationId: 'getAtcChildren',
    method: 'GET',
    path: '/v1/atc/{code}/children',
    scope: 'atc:read',
    summary: 'Direct children of an ATC node.',
    tags: ['atc'],
    params: ATC_CODE,
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($code: String!) { atc(code: $code) { code name level children { code name level ${DDD} } ${SOURCES} } }`,
    notFound: 'ATC code',
    cacheable: true,
    statuses: CLASS_STATUSES,
    mcp: { name: 'get_atc_children', description: 'List the direct sub-classes of a WHO ATC code (e.g. "N02" gives N02A opioids, N02B other analgesics, N02C antimigraine), to browse the classification tree one level down.' },
  },
  {
    operationId: 'getAtcDrugs',
    method: 'GET',
    path: '/v1/atc/{code}/drugs',
    scope: 'atc:read',
    summary: 'Drugs in the ATC subtree (prefix match, descendants included), paginated.',
    tags: ['atc'],
    params: ATC_CODE,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        country: { type: 'string', enum: [...JURISDICTIONS, 'ALL'], description: 'ISO 3166-1 alpha-2 or ALL; default CH (deprecated).' },
        ...PAGE,
      },
    },
    document: `query ($code: String!, $country: String, $limit: Int, $offset: Int) {
      atcDrugs(code: $code, country: $country, limit: $limit, offset: $offset) { ${DRUG_PAGE} } }`,
    headers: implicitCountryHeaders,
    notFound: 'ATC code',
    cacheable: true,
    statuses: CLASS_STATUSES,
    mcp: { name: 'list_atc_drugs', description: 'List marketed products whose ATC code falls under a WHO ATC class (e.g. "C09A" for plain ACE inhibitors), in one country (ISO alpha-2) or ALL, with limit/offset paging and the exact total.' },
  },
];

const classRoutes: RouteDef[] = [
  {
    operationId: 'listClasses',
    method: 'GET',
    path: '/v1/classes',
    scope: 'atc:read',
    summary: 'Therapeutic classes on every axis with drug, substance and market counts.',
    tags: ['classes'],
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        system: { type: 'string', enum: [...CLASS_SYSTEMS], description: 'Restrict to one axis; omitted: all axes.' },
        q: { type: 'string', minLength: 1, maxLength: 100, description: 'Substring of the label or prefix of the code.' },
        level: { type: 'integer', minimum: 1, maximum: 5, description: 'ATC level 1 to 5 (other axes are flat).' },
        min_drugs: { type: 'integer', minimum: 0, description: 'Only classes with at least this many drugs.' },
        market: { type: 'string', enum: [...JURISDICTIONS], description: 'Only classes with products in this market.' },
        sort: { type: 'string', enum: ['drugs', 'markets', 'code', 'label'], default: 'drugs', description: 'Sort order.' },
        ...PAGE,
      },
    },
    document: `query ($system: String, $q: String, $level: Int, $minDrugs: Int, $market: String, $sort: String, $limit: Int, $offset: Int) {
      classes(system: $system, q: $q, level: $level, minDrugs: $minDrugs, market: $market, sort: $sort, limit: $limit, offset: $offset) {
        total limit offset results { ${CLASS_ROW} } ${SOURCES} } }`,
    cacheable: true,
    statuses: [200, 304, 401, 403, 422],
    mcp: { name: 'list_drug_classes', description: 'Browse therapeutic classes (WHO ATC levels 1-5 and the FDA axes epc, moa, pe, cs, mesh_pa) with how many drugs, substances and markets each has; filter by axis, text, ATC level, minimum drug count or market, sort by drugs, markets, code or label.' },
  },
  {
    operationId: 'getClass',
    method: 'GET',
    path: '/v1/classes/{system}/{code}',
    scope: 'atc:read',
    summary: 'One class: rollup, ancestors, children, sample substances and related classes on other axes.',
    tags: ['classes'],
    params: CLASS_PATH,
    query: SUPPLY_QUERY,
    document: `query ($system: String!, $code: String!, $supply: Boolean!) { therapeuticClass(system: $system, code: $code) {
      ${CLASS_ROW} ancestors { system code label level } children { system code label level } memberCount
      sampleSubstances { unii name } related { system code label sharedSubstances } ${CLASS_SUPPLY} ${SOURCES} } }`,
    variables: (input) => ({ system: input.params.system, code: input.params.code, supply: input.query.include === 'supply' }),
    notFound: 'Class',
    cacheable: true,
    statuses: CLASS_STATUSES,
    mcp: { name: 'get_drug_class', description: 'Describe one therapeutic class (system atc/epc/moa/pe/cs/mesh_pa and its code): counts, ATC ancestors and children, member substances, and classes on other axes that share those substances (e.g. the mechanism of action of an ATC group). Give include="supply" for, per country, how many marketed packs of the class are reported short.' },
  },
  {
    operationId: 'getClassDrugs',
    method: 'GET',
    path: '/v1/classes/{system}/{code}/drugs',
    scope: 'atc:read',
    summary: 'Drugs of one class, paginated; every jurisdiction unless country is given.',
    tags: ['classes'],
    params: CLASS_PATH,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        country: { type: 'string', enum: [...JURISDICTIONS, 'ALL'], description: 'ISO 3166-1 alpha-2; omitted or ALL: every jurisdiction.' },
        ...PAGE,
      },
    },
    document: `query ($system: String!, $code: String!, $country: String, $limit: Int, $offset: Int) {
      classDrugs(system: $system, code: $code, country: $country, limit: $limit, offset: $offset) { ${DRUG_PAGE} } }`,
    notFound: 'Class',
    cacheable: true,
    statuses: CLASS_STATUSES,
    mcp: { name: 'list_class_drugs', description: 'List marketed products in one therapeutic class (system and code as in get_drug_class), optionally in one country, with limit/offset paging and the exact total.' },
  },
];

export const classificationRoutes: RouteDef[] = [...atcRoutes, ...classRoutes];
