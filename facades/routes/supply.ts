/** Route-table entry of supply: a drug's supply per country and its alternatives when short (docs/supply.md). */
import { DRUG_ITEM, SOURCES } from './catalogue.ts';
import type { RouteDef } from './types.ts';

const SUPPLY = 'status reason since expectedUntil source fetchedAt';
const SUPPLY_PACK = `drug { ${DRUG_ITEM} } packId description country supply { ${SUPPLY} }`;

const STATUS = { type: 'string', enum: ['available', 'limited', 'unavailable', 'discontinued'] } as const;
const SUPPLY_SCHEMA = {
  type: ['object', 'null'],
  required: ['status', 'source', 'fetched_at'],
  properties: {
    status: STATUS,
    reason: { type: ['string', 'null'], description: 'The publisher\'s reason, in its words.' },
    since: { type: ['string', 'null'], format: 'date', description: 'When the status began, as published.' },
    expected_until: { type: ['string', 'null'], format: 'date', description: 'When the publisher expects supply back; null when open-ended or not published.' },
    source: { type: 'string', description: 'Source id of the publication.' },
    fetched_at: { type: 'string', format: 'date-time', description: 'When drugref last read the publication.' },
  },
} as const;
const DRUG_ITEM_SCHEMA = {
  type: 'object',
  required: ['id', 'product_name', 'country'],
  properties: {
    id: { type: 'string', format: 'uuid' }, product_name: { type: 'string' }, substance_name: { type: ['string', 'null'] }, country: { type: 'string' },
    atc_code: { type: ['string', 'null'] }, brand: { type: ['string', 'null'] }, dose_form: { type: ['string', 'null'] }, marketing_status: { type: 'string' },
  },
} as const;
const SUPPLY_PACK_SCHEMA = {
  type: 'object',
  required: ['drug', 'pack_id', 'description', 'country', 'supply'],
  properties: { drug: DRUG_ITEM_SCHEMA, pack_id: { type: 'string', format: 'uuid' }, description: { type: 'string' }, country: { type: 'string' }, supply: SUPPLY_SCHEMA },
} as const;
const DRUG_SUPPLY_RESPONSE = {
  type: 'object',
  required: ['drug', 'basis', 'status', 'packs', 'countries', 'alternatives', '_meta'],
  properties: {
    drug: DRUG_ITEM_SCHEMA,
    basis: { type: 'string', enum: ['identity', 'atc', 'none'], description: 'How the same medicine is found (as for equivalents); only identity finds alternatives.' },
    status: { ...STATUS, type: ['string', 'null'], enum: [...STATUS.enum, null], description: 'Worst status of the drug\'s packs and of a report on its authorisation; null when no publication reports on it.' },
    authorisation: { ...SUPPLY_SCHEMA, description: 'A report on the authorisation that names no pack.' },
    packs: { type: 'array', items: SUPPLY_PACK_SCHEMA, description: 'The drug\'s own packs, with supply where reported.' },
    countries: {
      type: 'array',
      description: 'Per country holding the same medicine (the drug\'s own always): marketed packs, how many are short, the worst status reported.',
      items: {
        type: 'object',
        required: ['country', 'status', 'packs', 'short'],
        properties: { country: { type: 'string' }, status: { ...STATUS, type: ['string', 'null'], enum: [...STATUS.enum, null] }, packs: { type: 'integer' }, short: { type: 'integer' } },
      },
    },
    alternatives: {
      type: 'object',
      required: ['same_country', 'neighbouring_markets'],
      description: 'Only while the drug is short: marketed packs of other products with the same medicine that no publication reports short.',
      properties: {
        same_country: { type: 'array', items: SUPPLY_PACK_SCHEMA, maxItems: 20 },
        neighbouring_markets: { type: 'array', items: SUPPLY_PACK_SCHEMA, description: 'At most 5 per neighbouring country, neighbours in order.' },
      },
    },
    _meta: { type: 'object' },
  },
} as const;

export const supplyRoutes: RouteDef[] = [
  {
    operationId: 'getDrugSupply',
    method: 'GET',
    path: '/v1/drugs/{id}/supply',
    scope: 'drugs:read',
    summary: 'Supply status of a drug per country from national shortage publications, and what to switch to while it is short.',
    tags: ['drugs'],
    params: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'string', format: 'uuid', description: 'Drug id (uuid).' } },
      additionalProperties: false,
    },
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($id: ID!) { drugSupply(id: $id) {
      drug { ${DRUG_ITEM} } basis status authorisation { ${SUPPLY} } packs { ${SUPPLY_PACK} }
      countries { country status packs short }
      alternatives { sameCountry { ${SUPPLY_PACK} } neighbouringMarkets { ${SUPPLY_PACK} } } ${SOURCES} } }`,
    response: DRUG_SUPPLY_RESPONSE,
    notFound: 'Drug',
    cacheable: true,
    statuses: [200, 304, 401, 403, 404, 422],
    mcp: {
      name: 'get_drug_supply',
      description: 'Is a drug (id from search_drugs) in short supply? Returns each of its packs\' supply status (available, limited, unavailable, discontinued) with reason, since and expected end as the national shortage publications (Austria BASG, Spain AEMPS CIMA, US FDA) state them, the same medicine\'s status per country, and, while it is short, marketed packs of the same substance, strength and form that are not short: in the same country first, then in neighbouring countries.',
    },
  },
];
