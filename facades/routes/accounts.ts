/**
 * Route-table entry of the caller's own usage. `scope: null` is how the table says "any
 * valid key": no scope is needed, the request is still authenticated and counted.
 */
import type { RouteDef } from './types.ts';

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
  statuses: [200, 401, 422, 429],
  mcp: {
    name: 'get_usage',
    description: "Report the calling account's usage: its tier; the monthly and daily request windows (used, limit, remaining, when each resets, UTC); the AI answer allowance (answers used and left this month, prepaid pack credits); this month's requests per API key (prefix and last four characters) and per day. Takes no arguments. Use it to tell whether quota is left before a long series of calls.",
  },
}];
