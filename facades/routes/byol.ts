/**
 * Route-table entries of the BYOL vault and its passthrough. Credentials never appear in
 * an answer; these routes are not MCP tools, because a tool run by a model must not be
 * able to spend (or probe) a tenant's licensed credential.
 */
import { ApiError } from '../../platform/errors.ts';
import { BYOL_PROVIDERS } from '../../resolvers/byol/providers.ts';
import type { RouteDef } from './types.ts';

const PROVIDER = {
  type: 'object',
  required: ['provider'],
  properties: { provider: { type: 'string', enum: [...BYOL_PROVIDERS], description: 'Licensed provider: drugbank, fdb or medispan.' } },
  additionalProperties: false,
} as const;

const ANY_PROVIDER = {
  type: 'object',
  required: ['provider'],
  properties: { provider: { type: 'string' } },
  additionalProperties: false,
} as const;

const STATUS = 'provider configured configuredAt updatedAt keyHint credentialFields';

/** Both POST rows are unsupported: 404 for any valid key, whatever the provider. */
const unsupported = (operationId: string, path: string): RouteDef => ({
  operationId,
  method: 'POST',
  path,
  scope: null,
  summary: 'Unsupported; always 404.',
  tags: ['byol'],
  params: ANY_PROVIDER,
  // Unparsed, so even a malformed body gets the documented 404 rather than a 422.
  rawBody: true,
  document: 'query { __typename }',
  refuse: () => new ApiError('not_found', `POST is not supported on ${path}; use PUT /v1/byol/{provider} to store credentials and GET …/query to query.`),
  statuses: [401, 404],
  mcp: false,
});

/** The six BYOL rows of the spec. */
export const byolRoutes: RouteDef[] = [
  {
    operationId: 'getByolStatus',
    method: 'GET',
    path: '/v1/byol/{provider}',
    scope: 'byol:write',
    summary: 'Configuration status of the tenant\'s credential; never the credential itself.',
    tags: ['byol'],
    params: PROVIDER,
    query: { type: 'object', properties: {}, additionalProperties: false },
    document: `query ($provider: String!) { byolStatus(provider: $provider) { ${STATUS} } }`,
    statuses: [200, 401, 403, 422],
    mcp: false,
  },
  {
    operationId: 'putByolCredentials',
    method: 'PUT',
    path: '/v1/byol/{provider}',
    scope: 'byol:write',
    summary: 'Encrypt (AES-256-GCM) and store the tenant\'s credentials for a provider.',
    description: 'Body: `{ "credentials": { … } }` with exactly the provider\'s fields: drugbank `api_key`; fdb `client_id`, `client_secret`; medispan `username`, `password`. Replaces any stored credential.',
    tags: ['byol'],
    params: PROVIDER,
    body: {
      type: 'object',
      required: ['credentials'],
      properties: { credentials: { type: 'object', additionalProperties: { type: 'string' } } },
      additionalProperties: false,
    },
    document: `mutation ($provider: String!, $credentials: JSON!) { putByolCredentials(provider: $provider, credentials: $credentials) { ${STATUS} } }`,
    statuses: [200, 401, 403, 422, 503],
    mcp: false,
  },
  {
    operationId: 'deleteByolCredentials',
    method: 'DELETE',
    path: '/v1/byol/{provider}',
    scope: 'byol:write',
    summary: 'Remove the tenant\'s stored credentials (204 whether or not any were stored).',
    tags: ['byol'],
    params: PROVIDER,
    document: 'mutation ($provider: String!) { deleteByolCredentials(provider: $provider) }',
    successStatus: 204,
    statuses: [204, 401, 403, 422, 503],
    mcp: false,
  },
  unsupported('postByolProvider', '/v1/byol/{provider}'),
  {
    operationId: 'queryByolProvider',
    method: 'GET',
    path: '/v1/byol/{provider}/query',
    scope: 'byol:write',
    summary: 'Live passthrough to the tenant\'s own licensed provider, in a uniform envelope.',
    description: 'Exactly one of `q` (free-text search), `id` (provider record id) or `path` (sub-resource under the provider base URL). Answer: `{ provider, request, status, data, fetched_at }`.',
    tags: ['byol'],
    params: PROVIDER,
    query: {
      type: 'object',
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 200 },
        id: { type: 'string', minLength: 1, maxLength: 128 },
        path: { type: 'string', minLength: 1, maxLength: 256 },
      },
      additionalProperties: false,
    },
    document: `query ($provider: String!, $q: String, $id: String, $path: String) {
      byolQuery(provider: $provider, q: $q, id: $id, path: $path) { provider request status data fetchedAt } }`,
    statuses: [200, 401, 403, 404, 422, 502, 503],
    mcp: false,
  },
  unsupported('postByolQuery', '/v1/byol/{provider}/query'),
];
