/**
 * Runs one route-table operation: request → variables → one internal execution →
 * response body. REST handlers and MCP tool calls both come through here, so an
 * operation answers the same on every facade.
 */
import type { DocumentNode, GraphQLError } from 'graphql';
import type { Engine } from '../../platform/graphql/engine.ts';
import { withSnakeCaseAliases } from '../../platform/graphql/snake-aliases.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { RequestContext } from '../../resolvers/context.ts';
import type { RouteDef, RouteInput } from '../routes/types.ts';

export interface CompiledRoute {
  def: RouteDef;
  document: DocumentNode;
}

export interface OperationResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Compiles every route's document once; a broken document fails the start. */
export function compileRoutes(engine: Engine, routes: RouteDef[]): CompiledRoute[] {
  return routes.map((def) => ({ def, document: engine.compile(def.document, withSnakeCaseAliases) }));
}

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * camelCase of the parameter names seen so far. Names reaching here passed the route's
 * schema (additionalProperties false), so they are the routes' own few; the bound only
 * guards a route that accepts open bodies.
 */
const CAMEL = new Map<string, string>();
const CAMEL_MAX = 2_000;

function camelCased(key: string): string {
  let name = CAMEL.get(key);
  if (name === undefined) {
    name = camelCase(key);
    if (CAMEL.size < CAMEL_MAX) CAMEL.set(key, name);
  }
  return name;
}

/**
 * Default variable mapping: every path, query and body field, keys in camelCase; a name
 * in several parts takes the last part's value at its first place, as a spread of the three
 * would (a Map, not a spread: two spreads into one object cost about 2 µs on Node 20).
 */
export function defaultVariables(input: RouteInput): Record<string, unknown> {
  const body = input.body && typeof input.body === 'object' && !Array.isArray(input.body) ? input.body as Record<string, unknown> : undefined;
  const merged = new Map<string, unknown>();
  for (const part of [input.params, input.query, body]) {
    if (part) for (const key of Object.keys(part)) merged.set(key, part[key]);
  }
  const variables: Record<string, unknown> = {};
  for (const [key, value] of merged) {
    const name = camelCased(key);
    // A `__proto__` key is defined, not assigned: an own property, as Object.fromEntries made it.
    if (name === '__proto__') Object.defineProperty(variables, name, { value, enumerable: true, writable: true, configurable: true });
    else variables[name] = value;
  }
  return variables;
}

/** The error a failed execution stands for: its ApiError, or a masked internal error. */
export function errorOf(errors: readonly GraphQLError[], ctx: RequestContext): ApiError {
  for (const error of errors) {
    if (error.originalError instanceof ApiError) return error.originalError;
  }
  ctx.log.error({ errors: errors.map((e) => ({ message: e.message, path: e.path, stack: e.originalError?.stack })) }, 'operation failed');
  return new ApiError('internal_error');
}

/**
 * Headers the resolvers set (`x-service-cache`) describe the answer whatever its status, so
 * an error answer (an enrichment 404 or 502) carries them too; the error's own win.
 */
function withResponseHeaders(error: ApiError, ctx: RequestContext): ApiError {
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (!(name in error.headers)) error.headers[name] = value;
  }
  return error;
}

export async function runOperation(engine: Engine, route: CompiledRoute, input: RouteInput, ctx: RequestContext): Promise<OperationResult> {
  const { def } = route;
  if (def.refuse) throw def.refuse(ctx.config);
  const variables = (def.variables ?? defaultVariables)(input);
  const result = await engine.run(route.document, variables, ctx);
  if (result.errors?.length) throw withResponseHeaders(errorOf(result.errors, ctx), ctx);
  const data = (result.data ?? {}) as Record<string, unknown>;
  const body = def.respond ? def.respond(data, input) : Object.values(data)[0];
  if (def.notFound && (body === null || body === undefined)) throw withResponseHeaders(notFound(def.notFound), ctx);
  return {
    status: def.successStatus ?? 200,
    body,
    headers: Object.assign({}, def.headers?.(input), ctx.response.headers),
  };
}
