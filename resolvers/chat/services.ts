/**
 * The chat domain's app-level services: the model provider (OpenAI-compatible when
 * MODEL_BASE_URL is set, else the built-in deterministic assistant) and the payment
 * provider of answer packs (null when PAYMENT_SECRET_KEY is unset).
 */
import type { Config } from '../../platform/config.ts';
import { LocalModel } from './local-model.ts';
import { OpenAiCompatibleModel } from './model.ts';
import type { ModelProvider } from './model.ts';
import { StripeCheckout } from './payment.ts';
import type { PaymentProvider } from './payment.ts';

/** The chat domain's app-level services. */
export interface ChatServices {
  model: ModelProvider;
  payments: PaymentProvider | null;
}

declare module '../context.ts' {
  interface Services {
    /** Optional so apps and tests built without the assistant still type-check; absent → 503. */
    chat?: ChatServices;
  }
}

/** Builds the chat services from config; the tools come from the request context's toolbox. */
export function createChatServices(config: Config): ChatServices {
  const model = config.modelBaseUrl
    ? new OpenAiCompatibleModel({ baseUrl: config.modelBaseUrl, model: config.modelName, apiKey: config.modelApiKey, timeoutMs: config.modelTimeoutMs })
    : new LocalModel();
  const payments = config.paymentSecretKey
    ? new StripeCheckout({ baseUrl: config.paymentBaseUrl, secretKey: config.paymentSecretKey, webhookSecret: config.paymentWebhookSecret, timeoutMs: 15_000 })
    : null;
  return { model, payments };
}
