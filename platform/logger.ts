/**
 * pino options shared by the server and the CLI. Credentials never reach a log line:
 * the authorization header is redacted, anything shaped like an API key is masked in
 * URLs and messages, and request bodies are never logged.
 */
import type { BaseLogger, LoggerOptions } from 'pino';

const KEY_SHAPE = /\b(svc|legacy)_(live|test)_[A-Za-z0-9_-]+/g;

/** Console sign-in and console tokens (resolvers/accounts/console-sessions.ts). */
const CONSOLE_TOKEN_SHAPE = /\b(dcl|dct)_[A-Za-z0-9_-]+/g;
/** The authorization code and state an identity provider sends to the SSO callback. */
const SSO_CALLBACK_SECRETS = /([?&](?:code|state)=)[^&]*/g;

/** Replaces every API-key-shaped (or console-token-shaped) token in `text` with its prefix and a mask. */
export function maskKeys(text: string): string {
  return text
    .replace(KEY_SHAPE, (_m, brand: string, env: string) => `${brand}_${env}_[redacted]`)
    .replace(CONSOLE_TOKEN_SHAPE, (_m, kind: string) => `${kind}_[redacted]`);
}

/**
 * A request URL as logged: keys masked, and the SSO callback's code and state too. The query
 * string of a request with a body (POST, PUT, DELETE: prescription screening, CDS Hooks) is
 * never logged: those routes take no query parameters, so one there is misplaced input —
 * a patient's name or birth date, say — and is refused, not recorded.
 */
function maskUrl(method: string, url: string): string {
  const at = url.indexOf('?');
  if (at >= 0 && method !== 'GET' && method !== 'HEAD') return `${maskKeys(url.slice(0, at))}?[query not logged]`;
  const masked = maskKeys(url);
  return masked.startsWith('/console/api/sso/callback') ? masked.replace(SSO_CALLBACK_SECRETS, '$1[redacted]') : masked;
}

interface LoggedRequest {
  method: string;
  url: string;
  id?: string;
  ip?: string;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key', 'credentials', 'body', '*.credentials', 'api_key', 'client_secret', 'password', 'modelApiKey', 'paymentSecretKey', 'paymentWebhookSecret', 'byolMasterKeys',
        // Prescription screening bodies (drug lists and patient context) never reach a log line.
        'req.body', 'proposed', 'current', 'allergies'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: maskUrl(req.method, req.url), ip: req.ip }),
    },
    hooks: {
      // Messages may quote user input (a key pasted into a query string); mask it too.
      logMethod(args, method) {
        const masked = args.map((a) => (typeof a === 'string' ? maskKeys(a) : a)) as typeof args;
        method.apply(this, masked);
      },
    },
  };
}

/** The logging surface resolvers and workers use (pino's, and Fastify's request logger). */
export type Logger = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>;
