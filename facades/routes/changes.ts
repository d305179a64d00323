/** Route-table entries of the change feed and webhook subscriptions. */
import { changesExport } from '../../resolvers/changes/export.ts';
import { closedObject, member, ndjsonLines } from '../rest/answer-schema.ts';
import { ERROR_SCHEMA } from '../rest/error-schema.ts';
import type { JsonSchema, RouteDef } from './types.ts';

const CHANGE = 'id tableName naturalKey drugId changeType before after source occurredAt';
const SOURCES = 'meta { sources { id name country lastSyncedAt schemaState demo } notice }';
const EVENTS = ['changes.insert', 'changes.update', 'changes.delete', 'changes.recall'];
const UUID = { type: 'string', format: 'uuid' };
const DELIVERY = 'lastDelivery { deliveryId attemptedAt outcome statusCode error changeCount durationMs }';

/** `since` of the feed and its export: where to start when no cursor is given. */
const SINCE = { type: 'string', description: 'ISO 8601 date or timestamp with a zone; changes at or after it. Not with `cursor`.' } as const;

const listChanges: RouteDef = {
  operationId: 'listChanges',
  method: 'GET',
  path: '/v1/changes',
  scope: 'changes:read',
  summary: 'The cross-source change feed, oldest first, keyset-paginated.',
  description: 'Pass `next_cursor` back as `cursor` to continue; it is always present, so a poller keeps the last one it got. `since` (inclusive) starts at a timestamp. Changes are ordered by (`occurred_at`, `id`).',
  tags: ['changes'],
  query: {
    type: 'object',
    additionalProperties: false,
    properties: {
      since: SINCE,
      cursor: { type: 'string', maxLength: 200, description: 'Opaque `next_cursor` of a previous page.' },
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Page size, at most 1000.' },
    },
  },
  document: `query ($since: String, $cursor: String, $limit: Int) { changes(since: $since, cursor: $cursor, limit: $limit) { changes { ${CHANGE} } nextCursor hasMore ${SOURCES} } }`,
  statuses: [200, 401, 403, 422],
  mcp: {
    name: 'list_changes',
    description: 'Read the drug register change feed (new, changed, withdrawn or recalled products, packs and prices), oldest first. Pass the returned next_cursor as cursor to continue, or since (ISO timestamp) to start at a date.',
  },
};

const exportChanges: RouteDef = {
  operationId: 'exportChanges',
  method: 'GET',
  path: '/v1/changes/export',
  scope: 'changes:read',
  summary: 'The whole change feed from `since` or a cursor to the present, streamed as NDJSON.',
  description: 'One change record per line, exactly as `/v1/changes` lists them, oldest first, up to the visibility horizon; the last line is `{"_end": {"cursor", "count", "horizon"}}`, whose `cursor` (the same kind `/v1/changes` takes) resumes right after the last record. A stream without `_end` is incomplete: a failure part way ends it with `{"_error": {…, "cursor"}}`, whose cursor resumes after the last record sent. Counted as one request however many lines. Not an MCP tool.',
  tags: ['changes'],
  query: {
    type: 'object',
    additionalProperties: false,
    properties: {
      since: SINCE,
      cursor: { type: 'string', maxLength: 200, description: 'Opaque cursor: `next_cursor` of /v1/changes or `_end.cursor` of a previous export.' },
    },
  },
  // Streamed by `stream`; the document is only compiled, and gives the lines' schema.
  document: `query { changes { changes { ${CHANGE} } } }`,
  stream: (ctx, input) => changesExport(ctx, { since: input.query.since as string | undefined, cursor: input.query.cursor as string | undefined }),
  responseType: 'application/x-ndjson',
  answer: (data) => ndjsonLines(member(member(data, 'changes'), 'changes').items as JsonSchema, {
    cursor: { type: 'string', description: 'Resumes right after the last record.' }, count: { type: 'integer' }, horizon: { type: 'string', format: 'date-time' },
  }, { ...ERROR_SCHEMA, properties: { ...(ERROR_SCHEMA.properties as object), cursor: { type: 'string', description: 'Resumes after the last record sent.' }, count: { type: 'integer' } } }),
  statuses: [200, 401, 403, 422],
  mcp: false,
};

const createWebhook: RouteDef = {
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  scope: 'webhooks:write',
  summary: 'Subscribe a URL to change events; the answer carries the one-time signing secret.',
  tags: ['webhooks'],
  body: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', description: 'http or https URL that receives POSTed batches.' },
      events: { type: 'array', items: { type: 'string', enum: EVENTS }, description: 'Default: changes.insert, changes.update, changes.delete.' },
    },
  },
  document: 'mutation ($url: String!, $events: [String!]) { createWebhook(url: $url, events: $events) { id url events createdAt secret } }',
  successStatus: 201,
  statuses: [201, 401, 403, 422],
  mcp: false,
};

const deleteWebhook: RouteDef = {
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks',
  scope: 'webhooks:write',
  summary: 'Delete one of the account\'s webhook subscriptions.',
  tags: ['webhooks'],
  query: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { ...UUID, description: 'The subscription id.' } } },
  document: 'mutation ($id: ID!) { deleteWebhook(id: $id) }',
  successStatus: 204,
  statuses: [204, 401, 403, 404, 422],
  mcp: false,
};

const listWebhooks: RouteDef = {
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  scope: 'webhooks:write',
  summary: 'Extension: the account\'s subscriptions (never their secrets) with the last delivery status of each.',
  tags: ['webhooks'],
  query: { type: 'object', additionalProperties: false, properties: {} },
  document: `query { webhooks { id url events createdAt deliveredUntil ${DELIVERY} } }`,
  respond: (data) => ({ webhooks: data.webhooks }),
  answer: (data) => closedObject({ webhooks: member(data, 'webhooks') }),
  statuses: [200, 401, 403],
  mcp: false,
};

export const changesRoutes: RouteDef[] = [listChanges, exportChanges, createWebhook, deleteWebhook, listWebhooks];
