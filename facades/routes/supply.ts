/** Route-table entry of supply: a drug's supply per country and its alternatives when short (docs/supply.md). */
import { DRUG_ITEM, SOURCES } from './catalogue.ts';
import type { RouteDef } from './types.ts';

const SUPPLY = 'status reason since expectedUntil source fetchedAt';
const SUPPLY_PACK = `drug { ${DRUG_ITEM} } packId description country supply { ${SUPPLY} }`;

// The answer's schema in the OpenAPI document is derived from this document and the
// internal schema's Supply types (facades/rest/route-answers.ts), like every other route's.

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
    notFound: 'Drug',
    cacheable: true,
    statuses: [200, 304, 401, 403, 404, 422],
    mcp: {
      name: 'get_drug_supply',
      description: 'Is a drug (id from search_drugs) in short supply? Returns each of its packs\' supply status (available, limited, unavailable, discontinued) with reason, since and expected end as the national shortage publications (Austria BASG, Spain AEMPS CIMA, US FDA) state them, the same medicine\'s status per country, and, while it is short, marketed packs of the same substance, strength and form that are not short: in the same country first, then in neighbouring countries.',
    },
  },
];
