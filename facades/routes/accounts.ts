/**
 * Route-table entry of the caller's own usage. `scope: null` is how the table says "any
 * valid key": no scope is needed, the request is still authenticated and counted.
 */
import type { RouteDef } from './types.ts';

const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
const CAP = { type: ['integer', 'null'], minimum: 0 } as const;

/** The success body of GET /v1/usage (and of the console's GET /console/api/usage). */
export const USAGE_SCHEMA = {
  type: 'object',
  required: ['tier', 'windows', 'ai', 'keys', 'daily', '_meta'],
  properties: {
    tier: { type: 'string', enum: ['developer', 'pro', 'starter', 'growth', 'enterprise'] },
    windows: {
      type: 'array',
      description: 'The monthly window, then the daily one (UTC). The tighter window decides what is left.',
      items: {
        type: 'object',
        properties: {
          window: { type: 'string', enum: ['monthly', 'daily'] }, used: COUNT,
          limit: { ...CAP, description: 'Null: the tier has no cap in this window.' }, remaining: CAP, resets: DATE_TIME,
        },
      },
    },
    ai: { type: 'object', properties: { answers_used: COUNT, answers_left: COUNT, pack_credits: COUNT } },
    keys: {
      type: 'array',
      description: "This month's requests per key (active keys, and revoked keys used this month), then the console's lookups as prefix \"console\" with last4 null.",
      items: { type: 'object', properties: { prefix: { type: 'string' }, last4: { type: ['string', 'null'] }, requests: COUNT } },
    },
    daily: {
      type: 'array',
      description: 'Each day of the current month so far.',
      items: { type: 'object', properties: { date: { type: 'string', format: 'date' }, requests: COUNT } },
    },
    _meta: { type: 'object', properties: { generated_at: DATE_TIME, time_zone: { type: 'string', enum: ['UTC'] } } },
  },
} as const;

/** The GraphQL selection both /v1/usage and the console read. */
export const USAGE_DOCUMENT = `query { usage {
  tier windows { window used limit remaining resets } ai { answersUsed answersLeft packCredits }
  keys { prefix last4 requests } daily { date requests } meta { generatedAt timeZone } } }`;

export const accountRoutes: RouteDef[] = [{
  operationId: 'getUsage',
  method: 'GET',
  path: '/v1/usage',
  scope: null,
  summary: "The caller's account usage: quota windows, AI allowance, requests per key and per day.",
  description: 'Any valid key; counted like every request (the answer includes it). Windows are the UTC calendar month and day, each with used, limit (null: no cap), remaining and resets. Keys are listed by prefix and last four characters only.',
  tags: ['account'],
  query: { type: 'object', properties: {}, additionalProperties: false },
  document: USAGE_DOCUMENT,
  response: USAGE_SCHEMA,
  statuses: [200, 401, 422, 429],
  mcp: {
    name: 'get_usage',
    description: "Report the calling account's usage: its tier; the monthly and daily request windows (used, limit, remaining, when each resets, UTC); the AI answer allowance (answers used and left this month, prepaid pack credits); this month's requests per API key (prefix and last four characters) and per day. Takes no arguments. Use it to tell whether quota is left before a long series of calls.",
  },
}];
