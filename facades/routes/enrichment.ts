/**
 * Route-table entries of the enrichment domain: RxNorm and the passthrough resolvers
 * over public data sets. Every answer carries `x-service-cache` (set by the resolvers).
 */
import type { RouteDef } from './types.ts';

const NAME = { type: 'string', minLength: 2, maxLength: 200 } as const;
const ENRICHMENT_STATUSES = [200, 401, 403, 404, 422, 502, 503];

const RX_CONCEPT = `rxcui name tty synonym ingredients { rxcui name tty } brands { rxcui name tty } doseFormDrugs { rxcui name tty }
  atcClasses { code name ingredientRxcui ingredientName } ndcs crosswalk { system code name } missing`;

export const rxnormRoutes: RouteDef[] = [
  {
    operationId: 'resolveRxnorm',
    method: 'GET',
    path: '/v1/rxnorm/resolve',
    scope: 'drugs:read',
    summary: 'Map a free-text drug name to an RxNorm rxcui (exact normalised match first, then approximate).',
    tags: ['rxnorm'],
    query: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { ...NAME, description: 'Drug name, e.g. "Lipitor" or "atorvastatin 10 mg tablet".' } } },
    document: 'query ($name: String!) { rxnormResolve(name: $name) { query normalizedName rxcui name matchType score candidates { rxcui name score rank } } }',
    notFound: 'RxNorm concept for that name',
    statuses: ENRICHMENT_STATUSES,
    mcp: {
      name: 'resolve_rxnorm',
      description: 'Find the RxNorm concept id (rxcui) for a US drug name (brand, ingredient or clinical drug string). Tries an exact normalised match first, then approximate matching; match_type says which, and approximate answers list the ranked candidates.',
    },
  },
  {
    operationId: 'getRxnormConcept',
    method: 'GET',
    path: '/v1/rxnorm/{rxcui}',
    scope: 'drugs:read',
    summary: 'One RxNorm concept: name, ingredients, brands, dose-form drugs, ATC classes, NDCs (and a licensed crosswalk when configured).',
    description: 'Parts that failed upstream are empty and listed in `missing`; the answer is still 200.',
    tags: ['rxnorm'],
    params: { type: 'object', required: ['rxcui'], additionalProperties: false, properties: { rxcui: { type: 'string', pattern: '^[0-9]{1,10}$', description: 'RxNorm concept id, digits only, e.g. 617312.' } } },
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($rxcui: String!) { rxnorm(rxcui: $rxcui) { ${RX_CONCEPT} } }`,
    notFound: 'RxNorm concept',
    statuses: ENRICHMENT_STATUSES,
    mcp: {
      name: 'get_rxnorm_concept',
      description: 'Get an RxNorm concept by rxcui: its name and term type, ingredients, brand names, clinical and branded dose-form drugs, WHO ATC classes and US NDC package codes. If some parts could not be fetched they are empty and named in "missing".',
    },
  },
];

export const enrichmentRoutes: RouteDef[] = [...rxnormRoutes];
