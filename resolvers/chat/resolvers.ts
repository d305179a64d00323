/**
 * Resolvers of the chat domain: one assistant turn (metered: monthly allowance, then
 * prepaid packs, refused with 402 before the model runs), pack checkout, and the payment
 * provider's signed completion callback.
 */
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import type { Principal } from '../accounts/keys.ts';
import { TIER_LIMITS } from '../accounts/tiers.ts';
import { refundAnswers, reserveAnswers, turnCost } from './allowance.ts';
import { parseTurn, runTurn, turnChars } from './assistant.ts';
import { ModelError } from './model.ts';
import { PACKS, creditPaidCheckout, startCheckout } from './packs.ts';
import { PaymentError } from './payment.ts';
import type { ChatServices } from './services.ts';
import './services.ts';

const RETRY_AFTER = { 'retry-after': '300' };

function principalOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new ApiError('unauthorized');
  return ctx.principal;
}

function servicesOf(ctx: RequestContext): ChatServices {
  const chat = ctx.services.chat;
  if (!chat) throw new ApiError('unavailable', 'The assistant is not configured on this instance.', {}, RETRY_AFTER);
  return chat;
}

async function chatTurn(_: unknown, args: { turn: unknown }, ctx: RequestContext) {
  const principal = principalOf(ctx);
  const turn = parseTurn(args.turn);
  const { model } = servicesOf(ctx);
  const cost = turnCost(turnChars(turn));
  const outcome = await reserveAnswers(ctx.db, principal.accountId, principal.tier, cost, ctx.now());
  if (!outcome.granted) {
    throw new ApiError('ai_allowance_exhausted', `This turn needs ${cost} answer(s); the monthly allowance has ${outcome.allowanceLeft} left and prepaid packs ${outcome.packCredits}.`, {
      answers_included: outcome.included, resets: outcome.resets.toISOString(), upgrade_url: ctx.config.upgradeUrl,
    });
  }
  const r = outcome.reservation;
  try {
    const result = await runTurn(model, ctx.toolbox.chat, turn, ctx);
    return {
      ...result,
      model: { provider: model.provider, name: model.model },
      usage: { answersCharged: cost, fromAllowance: r.fromAllowance, fromPacks: r.fromPacks, allowanceLeft: r.allowanceLeft, packCreditsLeft: r.packCreditsLeft, resets: r.resets },
    };
  } catch (err) {
    // Whatever ends the turn before an answer (model failure, upstream 502) is not charged.
    await refundAnswers(ctx.db, r);
    if (err instanceof ModelError) {
      ctx.log.warn({ provider: model.provider, reason: err.message }, 'chat model failed; turn refunded');
      throw new ApiError('bad_gateway', 'The language model failed to answer; this turn was not charged. Try again.');
    }
    throw err;
  }
}

async function buyPack(_: unknown, args: { body: unknown }, ctx: RequestContext) {
  const principal = principalOf(ctx);
  if (!TIER_LIMITS[principal.tier].paid) {
    throw new ApiError('upgrade_required', 'Prepaid answer packs are for paid plans; upgrade to buy one.', { tier: principal.tier, upgrade_url: ctx.config.upgradeUrl });
  }
  const body = args.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.pack !== 'string' || Object.keys(body).length !== 1) {
    throw new ApiError('bad_request', `The body must be { "pack": "<pack id>" } with one of: ${Object.keys(PACKS).join(', ')}.`, { details: [{ location: 'body', field: 'pack', message: 'is required and must be a string' }] });
  }
  const pack = PACKS[body.pack];
  if (!pack) throw new ApiError('not_found', `Pack "${body.pack}" was not found; packs: ${Object.keys(PACKS).join(', ')}.`);
  const { payments } = servicesOf(ctx);
  if (!payments) throw new ApiError('unavailable', 'Pack checkout is not configured on this instance.', {}, RETRY_AFTER);
  try {
    const started = await startCheckout(ctx.db, payments, { accountId: principal.accountId, pack, successUrl: ctx.config.checkoutSuccessUrl, cancelUrl: ctx.config.checkoutCancelUrl });
    return { orderId: started.orderId, checkoutUrl: started.session.url, pack: pack.id, answers: pack.answers, amount: pack.amountCents / 100, currency: pack.currency, status: 'pending' };
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    ctx.log.warn({ provider: payments.name, reason: err.message }, 'pack checkout failed');
    throw new ApiError('bad_gateway', 'The payment provider failed to open a checkout; nothing was charged. Try again.');
  }
}

async function checkoutCallback(_: unknown, args: { callback: { raw?: unknown; headers?: Record<string, string | string[] | undefined> } }, ctx: RequestContext) {
  const { payments } = servicesOf(ctx);
  if (!payments || !ctx.config.paymentWebhookSecret) throw new ApiError('unavailable', 'Pack checkout is not configured on this instance.', {}, RETRY_AFTER);
  const raw = typeof args.callback?.raw === 'string' ? args.callback.raw : '';
  const verdict = payments.verifyCallback(raw, args.callback?.headers ?? {}, ctx.now());
  if (!verdict.valid) throw new ApiError('bad_request', 'The callback signature is missing, stale or wrong.');
  if (!verdict.paid) return { received: true, credited: false, answers: 0 };
  const result = await creditPaidCheckout(ctx.db, verdict.paid);
  return { received: true, ...result };
}

/** Mutation resolvers of the chat domain. */
export const chatResolvers = {
  Mutation: {
    chat: chatTurn,
    buyChatPack: buyPack,
    completeChatCheckout: checkoutCallback,
  },
};
