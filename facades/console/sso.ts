/**
 * The browser legs of console SSO. Both are navigations, not fetches, so they answer with
 * redirects: start → the identity provider; callback → `/console/#login=<one-time token>`
 * (the page finishes through POST /console/api/session) or `/console/#error=<code>`. The
 * reason of a refusal goes to the log, never into the URL.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../resolvers/context.ts';
import { finishSso, SsoRefusal, startSso } from '../../resolvers/accounts/sso.ts';
import type { SsoErrorCode } from '../../resolvers/accounts/sso.ts';

function toConsole(reply: FastifyReply, fragment: string): FastifyReply {
  return reply.redirect(`/console/#${fragment}`, 302);
}

/** Any failure becomes an error code in the fragment; unexpected ones are logged as errors. */
function refused(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  let code: SsoErrorCode = 'sso_failed';
  if (err instanceof SsoRefusal) {
    code = err.code;
    request.log.warn({ code, reason: err.message }, 'console sso refused');
  } else {
    request.log.error({ err }, 'console sso failed');
  }
  return toConsole(reply, `error=${code}`);
}

export function registerSsoRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const rateLimit = { max: deps.config.publicRateLimitPerMinute, timeWindow: 60_000 };
  const ssoDeps = (request: FastifyRequest) => ({ db: deps.db, config: deps.config, now: deps.now, log: request.log });

  scope.get('/sso/start', {
    config: { rateLimit },
    schema: {
      querystring: {
        type: 'object', required: ['account'], additionalProperties: false,
        properties: { account: { type: 'string', minLength: 1, maxLength: 200, description: 'The account name.' } },
      },
    },
  }, async (request: FastifyRequest<{ Querystring: { account: string } }>, reply) => {
    try {
      const url = await startSso(ssoDeps(request), request.query.account);
      return reply.redirect(url.href, 302);
    } catch (err) {
      return refused(request, reply, err);
    }
  });

  // No query schema: providers add parameters of their own (iss, session_state, scope ...).
  scope.get('/sso/callback', { config: { rateLimit } }, async (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply) => {
    const state = typeof request.query.state === 'string' ? request.query.state : undefined;
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    try {
      const token = await finishSso(ssoDeps(request), state, rawQuery);
      return toConsole(reply, `login=${token}`);
    } catch (err) {
      return refused(request, reply, err);
    }
  });
}
