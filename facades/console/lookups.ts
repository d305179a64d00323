/**
 * The console's lookups (spec, Authentication rule 8: they share the account's one quota
 * counter with its keys). Each runs exactly the route-table operation of the same /v1
 * path — same schemas, same body screening, same answer, ETag included — as the account
 * itself (every scope of its tier, no key), counted exactly as that /v1 request would
 * be, and recorded in the per-key usage as the console's entry. Nothing else under
 * /console/api/v1 exists.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consolePrincipal } from '../../resolvers/accounts/console-sessions.ts';
import type { CompiledRoute } from '../http/operation.ts';
import { guardSchema } from '../http/schema-guards.ts';
import { answer, fastifyPath } from '../rest/register.ts';
import type { ConsoleApiOptions } from './api.ts';
import type { requireConsoleSession } from './session-auth.ts';
import { sessionOf } from './session-auth.ts';

/** The /v1 operations the console may run: drug search and profile, market overview, interaction check. */
export const CONSOLE_LOOKUPS: ReadonlyArray<{ method: 'GET' | 'POST'; path: string }> = [
  { method: 'GET', path: '/v1/drugs' },
  { method: 'GET', path: '/v1/drugs/{id}/profile' },
  { method: 'GET', path: '/v1/markets/overview' },
  { method: 'POST', path: '/v1/interactions/check' },
];

/**
 * After the console session: the account becomes the request's principal, the request is
 * metered when its route is (the interaction check meters inside, only when it delivers
 * licensed rows, as on /v1), then the route's scope is checked — the /v1 pipeline's order.
 */
function actAsAccount(app: FastifyInstance, route: CompiledRoute) {
  return async function consoleLookup(request: FastifyRequest) {
    const principal = consolePrincipal(sessionOf(request));
    request.principal = principal;
    if (route.def.metered ?? true) request.quotaRemaining = await app.guard.meter(principal);
    app.guard.requireScope(principal, route.def.scope);
  };
}

/** Registers the lookups under the console scope; returns what they serve, for the 405 table. */
export function registerConsoleLookups(
  scope: FastifyInstance,
  { engine, deps, routes }: ConsoleApiOptions,
  authed: ReturnType<typeof requireConsoleSession>,
): Array<{ method: string; path: string }> {
  for (const { method, path } of CONSOLE_LOOKUPS) {
    const route = routes.find((r) => r.def.method === method && r.def.path === path);
    if (!route) throw new Error(`The console lookup ${method} ${path} has no route-table operation.`);
    const { def } = route;
    scope.route({
      method,
      url: fastifyPath(path),
      schema: {
        ...(def.params ? { params: guardSchema(def.params) } : {}),
        ...(def.query ? { querystring: guardSchema(def.query) } : {}),
        ...(def.body ? { body: guardSchema(def.body) } : {}),
      },
      onRequest: [authed, actAsAccount(scope, route)],
      ...(def.screenBody ? { preValidation: async (request: FastifyRequest, _reply: FastifyReply) => def.screenBody!(request.body, request.params as Record<string, unknown>) } : {}),
      handler: (request: FastifyRequest, reply: FastifyReply) => answer(engine, deps, route, request, reply),
    });
  }
  return [...CONSOLE_LOOKUPS];
}
