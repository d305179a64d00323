/**
 * The console's JSON API under /console/api (docs/console.md): sign-in exchange and sign
 * out, the account's keys, its usage, the quota-sharing lookups and SSO. Every answer is
 * `cache-control: no-store` (tokens and key plaintexts pass through here) and every error
 * is the one error table's JSON. Business rules live in resolvers/accounts; this only maps
 * HTTP to them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../platform/graphql/engine.ts';
import { ApiError, notFound, validationError } from '../../platform/errors.ts';
import type { AppDeps } from '../../resolvers/context.ts';
import { createContext } from '../../resolvers/context.ts';
import { consolePrincipal, endSession, redeemLoginToken } from '../../resolvers/accounts/console-sessions.ts';
import { createAccountKey, grantedScopes, listAccountKeys, revokeAccountKey, ScopeError } from '../../resolvers/accounts/account-keys.ts';
import { KeyLimitError } from '../../resolvers/accounts/keys.ts';
import { tierScopes, TIER_LIMITS } from '../../resolvers/accounts/tiers.ts';
import { runOperation } from '../http/operation.ts';
import type { CompiledRoute } from '../http/operation.ts';
import { sendError } from '../http/errors.ts';
import { registerMethodNotAllowed } from '../rest/register.ts';
import { bearerToken, requireConsoleSession, sessionOf } from './session-auth.ts';
import { registerConsoleLookups } from './lookups.ts';
import { registerSsoRoutes } from './sso.ts';

export interface ConsoleApiOptions {
  engine: Engine;
  deps: AppDeps;
  /** The compiled route table: the lookups and the usage body run its operations. */
  routes: CompiledRoute[];
}

const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

function sessionRoutes(scope: FastifyInstance, { deps }: ConsoleApiOptions, authed: ReturnType<typeof requireConsoleSession>): void {
  const rateLimit = { max: deps.config.publicRateLimitPerMinute, timeWindow: 60_000 };
  scope.post('/session', {
    config: { rateLimit },
    schema: {
      body: {
        type: 'object', required: ['token'], additionalProperties: false,
        properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
      },
    },
  }, async (request: FastifyRequest<{ Body: { token: string } }>, reply) => {
    const opened = await redeemLoginToken(deps.db, request.body.token, deps.config.consoleSessionTtlSeconds, deps.now());
    if (!opened) throw new ApiError('unauthorized', 'This sign-in link is unknown, already used or expired; ask for a new one.');
    request.log.info({ account: opened.account.name, via: opened.via, subject: opened.subject }, 'console sign-in');
    return reply.code(200).send({ console_token: opened.consoleToken, expires_at: opened.expiresAt.toISOString(), account: opened.account });
  });
  scope.delete('/session', { onRequest: authed }, async (request, reply) => {
    await endSession(deps.db, bearerToken(request)!);
    return reply.code(204).send();
  });
}

interface CreateKeyBody {
  name?: string;
  scopes?: string[];
}

/** Key limit and ungranted scopes are 422 `validation`, with the message the console shows verbatim. */
function keyRefusal(err: unknown, tier: keyof typeof TIER_LIMITS): unknown {
  if (err instanceof ScopeError) return validationError(err.message, [{ location: 'body', field: 'scopes', message: err.message }]);
  if (err instanceof KeyLimitError) {
    const error = validationError(err.message, [{ location: 'body', field: null, message: err.message }]);
    Object.assign(error.fields, { tier, limit: TIER_LIMITS[tier].maxKeys });
    return error;
  }
  return err;
}

function keyRoutes(scope: FastifyInstance, { deps }: ConsoleApiOptions, authed: ReturnType<typeof requireConsoleSession>): void {
  scope.get('/keys', { onRequest: authed, schema: { querystring: NO_QUERY } }, async (request) => {
    const session = sessionOf(request);
    return {
      keys: await listAccountKeys(deps.db, session.accountId),
      limit: TIER_LIMITS[session.tier].maxKeys,
      tier: session.tier,
      tier_scopes: [...tierScopes(session.tier)],
    };
  });
  scope.post('/keys', {
    onRequest: authed,
    schema: {
      body: {
        type: 'object', additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, description: 'A label for people; never part of the key.' },
          scopes: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 40 } },
        },
      },
    },
  }, async (request: FastifyRequest<{ Body: CreateKeyBody | undefined }>, reply) => {
    const session = sessionOf(request);
    const body = request.body ?? {};
    try {
      const scopes = grantedScopes(session.tier, body.scopes);
      const created = await createAccountKey(deps.db, { accountId: session.accountId, tier: session.tier, name: body.name?.trim() || null, scopes });
      request.log.info({ account: session.accountName, key: `${created.key.prefix}…${created.key.last4}` }, 'console key created');
      return reply.code(201).send({ key: created.key, plaintext: created.plaintext });
    } catch (err) {
      throw keyRefusal(err, session.tier);
    }
  });
  scope.delete<{ Params: { id: string } }>('/keys/:id', {
    onRequest: authed,
    schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } } } },
  }, async (request) => {
    const session = sessionOf(request);
    const key = await revokeAccountKey(deps.db, session.accountId, request.params.id);
    // Another account's key is "not found" too: tenants never learn of each other's keys.
    if (!key) throw notFound('A key with that id in this account');
    request.log.info({ account: session.accountName, key: `${key.prefix}…${key.last4}` }, 'console key revoked');
    return { key };
  });
}

function usageRoute(scope: FastifyInstance, { engine, deps, routes }: ConsoleApiOptions, authed: ReturnType<typeof requireConsoleSession>): void {
  const usage = routes.find((r) => r.def.operationId === 'getUsage');
  if (!usage) throw new Error('The route table has no getUsage operation; the console cannot show usage.');
  // Reading one's own usage in the console is not counted: it is the console, not an API call.
  scope.get('/usage', { onRequest: authed, schema: { querystring: NO_QUERY } }, async (request) => {
    const ctx = createContext(deps, consolePrincipal(sessionOf(request)), request.log);
    return (await runOperation(engine, usage, { params: {}, query: {}, body: undefined }, ctx)).body;
  });
}

/** Registers /console/api: a Fastify plugin with its own JSON 404 and no-store answers. */
export async function consoleApi(scope: FastifyInstance, options: ConsoleApiOptions): Promise<void> {
  const { deps } = options;
  scope.decorateRequest('consoleSession', null);
  scope.addHook('onSend', async (_request, reply: FastifyReply, payload) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
  scope.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError('not_found', `No operation answers ${request.method} ${request.url.split('?')[0]}.`)));
  const authed = requireConsoleSession(deps.db, deps.now);
  sessionRoutes(scope, options, authed);
  keyRoutes(scope, options, authed);
  usageRoute(scope, options, authed);
  const lookups = registerConsoleLookups(scope, options, authed);
  registerSsoRoutes(scope, deps);
  registerMethodNotAllowed(scope, [
    { method: 'POST', path: '/session' }, { method: 'DELETE', path: '/session' },
    { method: 'GET', path: '/keys' }, { method: 'POST', path: '/keys' }, { method: 'DELETE', path: '/keys/{id}' },
    { method: 'GET', path: '/usage' }, { method: 'GET', path: '/sso/start' }, { method: 'GET', path: '/sso/callback' },
    ...lookups,
  ]);
}
