/**
 * Route-table entries of the AI assistant: a turn, pack checkout, the payment provider's
 * signed callback, and the retired subscription (410). None is an MCP tool: a tool must
 * not spend answers or money. Also the tool source the assistant runs route-table tools
 * through.
 */
import { ApiError } from '../../platform/errors.ts';
import type { RouteDef } from './types.ts';

const ANSWER = `answer citations { tool path records } toolCalls { name arguments ok } model { provider name }
  usage { answersCharged fromAllowance fromPacks allowanceLeft packCreditsLeft resets }`;

/** The chat rows of the spec, plus the payment callback. */
export const chatRoutes: RouteDef[] = [
  {
    operationId: 'chat',
    method: 'POST',
    path: '/v1/chat',
    scope: 'chat:write',
    summary: 'One non-streaming assistant turn over the catalogue, with citations.',
    description: 'Body: `{ "message": string (1–8,000 chars), "history"?: [{ "role": "user"|"assistant", "content": string }] (≤ 20) }`. '
      + 'A malformed, empty or oversized turn is 400 `bad_request`. Costs one answer per started 4,000 characters of message plus history; '
      + 'monthly allowance first, then prepaid packs; 402 `ai_allowance_exhausted` when both are spent, before the model runs. Model failure: 502, not charged.',
    tags: ['chat'],
    variables: (input) => ({ turn: input.body ?? null }),
    document: `mutation ($turn: JSON) { chat(turn: $turn) { ${ANSWER} } }`,
    statuses: [200, 400, 401, 402, 403, 429, 502, 503],
    mcp: false,
  },
  {
    operationId: 'buyChatPack',
    method: 'POST',
    path: '/v1/chat/packs',
    scope: 'chat:write',
    summary: 'Start a one-off hosted checkout for a prepaid pack of 100 ($15) or 500 ($60) answers.',
    description: 'Body: `{ "pack": "answers_100" | "answers_500" }`. Paid plans only (Free: 403 `upgrade_required`); unknown pack: 404. '
      + 'Answer: `checkout_url` of the hosted checkout; the credits land when the provider confirms payment, and carry over months.',
    tags: ['chat'],
    variables: (input) => ({ body: input.body ?? null }),
    document: 'mutation ($body: JSON) { buyChatPack(body: $body) { orderId checkoutUrl pack answers amount currency status } }',
    statuses: [200, 400, 401, 403, 404],
    mcp: false,
  },
  {
    operationId: 'chatPackCallback',
    method: 'POST',
    path: '/v1/chat/packs/callback',
    scope: null,
    public: true,
    rawBody: true,
    metered: false,
    summary: 'Payment provider callback (Stripe-style `stripe-signature: t=…,v1=…` over the raw body); credits a paid pack exactly once.',
    tags: ['chat'],
    variables: (input) => ({ callback: input.body ?? {} }),
    document: 'mutation ($callback: JSON!) { completeChatCheckout(callback: $callback) { received credited answers } }',
    statuses: [200, 400, 503],
    mcp: false,
  },
  {
    operationId: 'chatSubscribe',
    method: 'POST',
    path: '/v1/chat/subscribe',
    scope: null,
    summary: 'Retired: always 410, pointing to the pricing page (answer packs replace subscriptions).',
    tags: ['chat'],
    // Unparsed, so even a malformed body gets the documented 410 rather than a 422.
    rawBody: true,
    document: 'query { __typename }',
    refuse: (config) => new ApiError('gone', 'Chat subscriptions are retired; the monthly AI allowance comes with each plan and prepaid packs (POST /v1/chat/packs) add answers. See the pricing page.', {
      pricing_url: config.pricingUrl,
    }, { link: `<${config.pricingUrl}>; rel="alternate"` }),
    statuses: [401, 410],
    mcp: false,
  },
];
