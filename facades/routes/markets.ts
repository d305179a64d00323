/** Route-table entry of the cross-market price-per-DDD overview. */
import { PACK_DDD_PRICE, SOURCES } from './catalogue.ts';
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
      detail: {
        type: 'string', enum: ['packs'],
        description: 'packs: each market also lists its packs (`pack_prices`), each with its own price per DDD or the reason code it stopped short, the price kind and amount used and the strength basis counted.',
      },
    },
  },
  document: `query ($q: String!, $countries: String, $packs: Boolean!) { marketOverview(q: $q, countries: $countries) {
    query resolved { matchedBy label atcCodes }
    markets { ${MARKET} packPrices @include(if: $packs) { packId productId productName description source pricing { ${PACK_DDD_PRICE} } } }
    fx { date source base rates { currency perEur } } ${SOURCES} } }`,
  variables: (input) => ({ q: input.query.q, countries: input.query.countries ?? null, packs: input.query.detail === 'packs' }),
  notFound: 'Drug or substance',
  cacheable: true,
  statuses: [200, 401, 403, 404, 422],
  mcp: { name: 'market_prices', description: 'Compare what one substance costs across markets (CH, GB, FR, DE, IT, AT, ES, DK, SE, FI, NO, NL, BE, IE, PT, US): median price per WHO defined daily dose in USD per country, with the basis reached (per_ddd, or per_unit/per_pack when no DDD normalisation was possible) and the dated ECB exchange rates used. detail="packs" lists each pack with its own price per DDD or the reason code it stopped short, the price kind used and the strength basis counted. q may be a substance or brand name, ATC code, pack code or drug uuid; countries is "all" or a comma list.' },
}];
