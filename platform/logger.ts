/**
 * pino options shared by the server and the CLI. Credentials never reach a log line:
 * the authorization header is redacted, anything shaped like an API key is masked in
 * URLs and messages, and request bodies are never logged.
 */
import type { BaseLogger, LoggerOptions } from 'pino';

const KEY_SHAPE = /\b(svc|legacy)_(live|test)_[A-Za-z0-9_-]+/g;

/** Console sign-in and console tokens (resolvers/accounts/console-sessions.ts). */
const CONSOLE_TOKEN_SHAPE = /\b(dcl|dct)_[A-Za-z0-9_-]+/g;

/** Replaces every API-key-shaped (or console-token-shaped) token in `text` with its prefix and a mask. */
export function maskKeys(text: string): string {
  return text
    .replace(KEY_SHAPE, (_m, brand: string, env: string) => `${brand}_${env}_[redacted]`)
    .replace(CONSOLE_TOKEN_SHAPE, (_m, kind: string) => `${kind}_[redacted]`);
}

/**
 * A request URL as logged: the path with keys masked, and of the query string only the
 * parameter names. Values never reach a log line: a query parameter may carry what a caller
 * should not have sent there — a key, a patient's name or birth date — and a route refuses
 * such a parameter (422) after the request line was already logged.
 */
function maskUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return maskKeys(url);
  const names = url.slice(at + 1).split('&').filter(Boolean).map((pair) => `${maskKeys(safeDecode(pair.split('=')[0]!)).slice(0, 40)}=*`);
  return `${maskKeys(url.slice(0, at))}?${names.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
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
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: maskUrl(req.url), ip: req.ip }),
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
