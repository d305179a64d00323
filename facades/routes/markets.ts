/** Route-table entry of the cross-market price-per-DDD overview. */
import { SOURCES } from './catalogue.ts';
import type { RouteDef } from './types.ts';

const MARKET = 'country basis packs pricedPacks currency pricePerDddUsd unitPriceUsd packPriceUsd';

export const marketRoutes: RouteDef[] = [{
  operationId: 'getMarketOverview',
  method: 'GET',
  path: '/v1/markets/overview',
  scope: 'drugs:read',
  summary: 'Price per defined daily dose in USD, per market, for one substance.',
  description: 'q (substance, brand, uuid, pharmacode/GTIN/NDC/CIP13/PZN or ATC code) is resolved to the substance ATC. Each market gets the median price per DDD in USD over its single-substance packs (strength × units ÷ DDD, units converted) and the basis reached: per_ddd, per_unit, per_pack or none. The ECB reference rates used, with their date, are in `fx`.',
  tags: ['markets'],
  query: {
    type: 'object', required: ['q'], additionalProperties: false,
    properties: {
      q: { type: 'string', minLength: 1, maxLength: 200, description: 'Substance, brand, uuid, pack code or ATC code.' },
      countries: { type: 'string', minLength: 1, maxLength: 100, default: 'all', description: '"all" or a comma list of ISO alpha-2 codes, e.g. CH,DE,US.' },
    },
  },
  document: `query ($q: String!, $countries: String) { marketOverview(q: $q, countries: $countries) {
    query resolved { matchedBy label atcCodes } markets { ${MARKET} } fx { date source base rates { currency perEur } } ${SOURCES} } }`,
  notFound: 'Drug or substance',
  cacheable: true,
  statuses: [200, 401, 403, 404, 422],
  mcp: { name: 'market_prices', description: 'Compare what one substance costs across markets (CH, GB, FR, DE, IT, AT, ES, DK, SE, FI, NO, NL, BE, IE, PT, US): median price per WHO defined daily dose in USD per country, with the basis reached (per_ddd, or per_unit/per_pack when no DDD normalisation was possible) and the dated ECB exchange rates used. q may be a substance or brand name, ATC code, pack code or drug uuid; countries is "all" or a comma list.' },
}];
