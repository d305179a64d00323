/**
 * Route-table entries of the AI assistant: a turn, pack checkout, the payment provider's
 * signed callback, and the retired subscription (410). None is an MCP tool: a tool must
 * not spend answers or money. Also the tool source the assistant runs route-table tools
 * through.
 */
import { ApiError } from '../../platform/errors.ts';
import { MAX_HISTORY_ITEMS, MAX_MESSAGE_CHARS } from '../../resolvers/chat/assistant.ts';
import { PACKS } from '../../resolvers/chat/packs.ts';
import type { JsonSchema, RouteDef } from './types.ts';

const ANSWER = `answer citations { tool path records } toolCalls { name arguments ok } model { provider name }
  usage { answersCharged fromAllowance fromPacks allowanceLeft packCreditsLeft resets }`;

/** A turn, as the assistant reads it (it answers a malformed one with 400 `bad_request`). */
const TURN: JsonSchema = {
  type: 'object', required: ['message'], additionalProperties: false,
  properties: {
    message: { type: 'string', minLength: 1, maxLength: MAX_MESSAGE_CHARS, description: 'The question; not blank.' },
    history: {
      type: 'array', maxItems: MAX_HISTORY_ITEMS, description: 'Earlier turns of the conversation, oldest first.',
      items: {
        type: 'object', required: ['role', 'content'], additionalProperties: false,
        properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'string', maxLength: MAX_MESSAGE_CHARS } },
      },
    },
  },
};

const PACK_ORDER: JsonSchema = {
  type: 'object', required: ['pack'], additionalProperties: false,
  properties: { pack: { type: 'string', enum: Object.keys(PACKS), description: 'The pack to buy; another name is 404.' } },
};

/** The provider's event as far as drugref reads it; the signature covers the raw bytes. */
const PAYMENT_EVENT: JsonSchema = {
  type: 'object', additionalProperties: true,
  description: 'Open by design: a Stripe-style event; drugref reads id, type (checkout.session.completed or …async_payment_succeeded) and data.object (id, payment_status, client_reference_id, metadata.order_id).',
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    data: { type: 'object', additionalProperties: true, description: 'Open by design: the provider\'s payload.', properties: { object: { type: 'object', additionalProperties: true, description: 'Open by design: the checkout session.' } } },
  },
};

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
    documentedBody: TURN,
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
      + 'Answer: `checkout_url` of the hosted checkout; the credits land when the provider confirms payment, and carry over months. '
      + 'A payment provider that fails to open the checkout gives 502 (nothing charged); an instance with no checkout configured, 503.',
    tags: ['chat'],
    documentedBody: PACK_ORDER,
    variables: (input) => ({ body: input.body ?? null }),
    document: 'mutation ($body: JSON) { buyChatPack(body: $body) { orderId checkoutUrl pack answers amount currency status } }',
    statuses: [200, 400, 401, 403, 404, 502, 503],
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
    documentedBody: PAYMENT_EVENT,
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
