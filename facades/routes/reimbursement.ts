/** Route-table entries of Swiss reimbursement pre-validation (stateless, no personal data). */
import { SOURCES } from './catalogue.ts';
import type { RouteDef } from './types.ts';

const PACK_REF = {
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 60, description: 'GTIN (7680…), pharmacode, 8-digit Swissmedic pack number or pack uuid.' },
    {
      type: 'object', required: ['system', 'code'], additionalProperties: false,
      properties: { system: { type: 'string', enum: ['gtin', 'ean', 'pharmacode', 'swissmedic_no'] }, code: { type: 'string', minLength: 1, maxLength: 40 } },
    },
  ],
} as const;

const BODY = {
  type: 'object', required: ['pack'], additionalProperties: false,
  properties: {
    pack: PACK_REF,
    quantity: { type: 'integer', minimum: 1, maximum: 100, default: 1, description: 'Number of packs claimed, 1 to 100.' },
  },
} as const;

const PACK = 'pack { id description units unit productId productName atcCode generic strength slFlag }';
const STATUSES = [200, 401, 403, 422];

export const reimbursementRoutes: RouteDef[] = [
  {
    operationId: 'validateChClaim',
    method: 'POST',
    path: '/v1/ch/claims/validate',
    scope: 'ch:claims',
    summary: 'Is a Swiss pack reimbursable: SL listing, capped price, limitation, co-insurance, LiMA path.',
    tags: ['ch'],
    body: BODY,
    document: `query ($pack: JSON!, $quantity: Int) { chClaim(pack: $pack, quantity: $quantity) {
      ${PACK} listed status quantity publicPriceChf exFactoryPriceChf totalPublicPriceChf listedSince
      limitation { limited text points } coinsurance { percent basis amountChf } lima { applicable reason } offLabelPath { applicable rule } ${SOURCES} } }`,
    statuses: STATUSES,
    mcp: { name: 'ch_claim_check', description: 'Swiss reimbursement pre-check for one pack (GTIN, pharmacode or Swissmedic pack number): whether it is on the Spezialitätenliste (SL), its capped public price in CHF, limitation text and points, the patient co-insurance share (10 % or 40 %), and whether the LiMA/MiGeL medical-aid path or case-by-case cost approval applies. No personal data.' },
  },
  {
    operationId: 'compareChPrices',
    method: 'POST',
    path: '/v1/ch/price-comparison',
    scope: 'ch:claims',
    summary: 'Cheaper SL-listed substitutes with the same ATC code, pack size and strength, with savings and co-insurance delta.',
    tags: ['ch'],
    body: BODY,
    document: `query ($pack: JSON!, $quantity: Int) { chPriceComparison(pack: $pack, quantity: $quantity) {
      ${PACK} listed quantity publicPriceChf coinsurancePercent
      substitutes { ${PACK} publicPriceChf coinsurancePercent savingPerPackChf savingTotalChf coinsuranceDeltaPerPackChf } ${SOURCES} } }`,
    statuses: STATUSES,
    mcp: { name: 'ch_cheaper_substitutes', description: 'For a Swiss pack (GTIN, pharmacode or Swissmedic pack number), list cheaper Spezialitätenliste packs with the same ATC code, pack size and strength (e.g. generics of an original), cheapest first, with the saving per pack in CHF and how much less co-insurance the patient pays.' },
  },
];
