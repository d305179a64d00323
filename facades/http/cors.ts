/**
 * The API's CORS policy: any origin, no credentials (keys travel in a header, never a
 * cookie). `@fastify/cors` applies it to every answer that passes the hooks; answers made
 * before the router or outside Fastify (framework-errors.ts) add the same headers by hand.
 */
export const CORS_OPTIONS = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
  allowedHeaders: ['authorization', 'content-type', 'if-none-match'],
  exposedHeaders: ['etag', 'x-ratelimit-remaining', 'x-service-tier', 'retry-after'],
  maxAge: 86_400,
};

/** The CORS headers of a simple (non-preflight) answer. */
export const CORS_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': CORS_OPTIONS.origin,
  'access-control-expose-headers': CORS_OPTIONS.exposedHeaders.join(', '),
};
