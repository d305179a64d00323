/**
 * pino options shared by the server and the CLI. Credentials never reach a log line:
 * the authorization header is redacted, anything shaped like an API key is masked in
 * messages, request URLs are logged as their route's pattern, and request bodies are never
 * logged.
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
 * A request as logged: the route's pattern with its parameters redacted (`/v1/drugs/:id`)
 * and, of the query string, only the names the route declares, each with its value masked.
 * Nothing a caller typed reaches a log line: a path segment or a parameter name or value may
 * carry what should not have been sent there — a key, a patient's name or birth date — and
 * the request line is logged before any route refuses it. A request no route answers is
 * logged without its path.
 */
function loggedUrl(req: LoggedRequest): string {
  const pattern = req.routeOptions?.url;
  const path = pattern ?? '[no route]';
  const at = req.url.indexOf('?');
  if (at < 0) return path;
  const known = req.routeOptions?.schema?.querystring?.properties ?? {};
  const names = req.url.slice(at + 1).split('&').filter(Boolean).map((pair) => {
    const name = safeDecode(pair.split('=')[0]!);
    return `${Object.hasOwn(known, name) ? name : '[unknown]'}=*`;
  });
  return `${path}?${names.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** What the request serializer reads: Fastify's request, whose route is known once routed. */
interface LoggedRequest {
  method: string;
  url: string;
  id?: string;
  ip?: string;
  routeOptions?: { url?: string; schema?: { querystring?: { properties?: Record<string, unknown> } } };
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
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: loggedUrl(req), ip: req.ip }),
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
