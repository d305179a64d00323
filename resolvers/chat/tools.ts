/**
 * The assistant's tools: every route-table entry that declares an `mcp` tool, offered to
 * the model when the caller's scopes can run it and executed with the route's own
 * operation under the caller's principal, so a tool answers exactly as its REST route
 * does and tools of new domains appear as their entries land.
 */
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { isApiError } from '../../platform/errors.ts';
import type { CompiledRoute, OperationResult } from '../../facades/http/operation.ts';
import type { JsonSchema, RouteInput } from '../../facades/routes/types.ts';
import type { RequestContext } from '../context.ts';
import { createContext } from '../context.ts';
import type { ToolSpec } from './model.ts';

/** Tool results are cut above this, like MCP tool results (spec: 60,000 characters). */
export const TOOL_RESULT_MAX_CHARS = 60_000;

/** Where the runner gets its routes and how it runs one (wired in facades/services.ts). */
export interface ToolSource {
  routes(): CompiledRoute[];
  run(route: CompiledRoute, input: RouteInput, ctx: RequestContext): Promise<OperationResult>;
}

/** A record a tool answer was about: what the assistant cites. */
export interface CitedRecord {
  id?: string;
  code?: string;
  name?: string;
}

/** The result of one tool call. */
export interface ToolOutcome {
  ok: boolean;
  /** JSON text handed back to the model. */
  content: string;
  /** The REST path the call corresponds to, e.g. /v1/atc/N02BE01. */
  path: string;
  /** The parsed answer (ok) for citation; null on error. */
  body: unknown;
}

/** The tools of one caller: what to offer the model, and running one call. */
export interface ChatTools {
  list(ctx: RequestContext): ToolSpec[];
  call(name: string, rawArguments: string, ctx: RequestContext): Promise<ToolOutcome>;
}

type Part = 'params' | 'query' | 'body';
const PARTS: Part[] = ['params', 'query', 'body'];

function propertiesOf(schema: JsonSchema | undefined): Record<string, unknown> {
  return (schema?.properties as Record<string, unknown> | undefined) ?? {};
}

/** One JSON Schema of the tool's arguments: the route's path, query and body fields together. */
export function toolParameters(route: CompiledRoute): Record<string, unknown> {
  const { def } = route;
  const required = PARTS.flatMap((p) => (def[p]?.required as string[] | undefined) ?? []);
  const properties = Object.assign({}, ...PARTS.map((p) => propertiesOf(def[p])));
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The REST path (with query string) a tool call stands for. */
export function restPath(route: CompiledRoute, input: RouteInput): string {
  const path = route.def.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(input.params[name] ?? '')));
  const query = new URLSearchParams(Object.entries(input.query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
  return query.size ? `${path}?${query}` : path;
}

function truncate(text: string): string {
  return text.length > TOOL_RESULT_MAX_CHARS ? `${text.slice(0, TOOL_RESULT_MAX_CHARS)}…[truncated]` : text;
}

/** Builds the runner; ajv validators are compiled once per route (schemas, no tenant data). */
export function createChatTools(source: ToolSource): ChatTools {
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
  const validators = new Map<string, Partial<Record<Part, ValidateFunction>>>();
  const validatorsOf = (route: CompiledRoute) => {
    let v = validators.get(route.def.operationId);
    if (!v) {
      v = Object.fromEntries(PARTS.filter((p) => route.def[p]).map((p) => [p, ajv.compile(route.def[p] as JsonSchema)]));
      validators.set(route.def.operationId, v);
    }
    return v;
  };
  const runnable = (ctx: RequestContext) =>
    source.routes().filter((r) => r.def.mcp && !r.def.public && (!r.def.scope || ctx.principal?.scopes.has(r.def.scope)));

  return {
    list: (ctx) => runnable(ctx).map((r) => ({ name: (r.def.mcp as { name: string }).name, description: (r.def.mcp as { description: string }).description, parameters: toolParameters(r) })),

    async call(name, rawArguments, ctx) {
      const route = runnable(ctx).find((r) => r.def.mcp && r.def.mcp.name === name);
      const fail = (error: string, message: string, path = '') => ({ ok: false, content: JSON.stringify({ error, message }), path, body: null });
      if (!route) return fail('unknown_tool', `No tool named ${name} is available to this key.`);
      let args: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(rawArguments || '{}');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        args = parsed as Record<string, unknown>;
      } catch {
        return fail('validation', 'Tool arguments must be a JSON object.');
      }
      const input = splitArguments(route, args);
      const path = restPath(route, input);
      for (const [part, validate] of Object.entries(validatorsOf(route)) as Array<[Part, ValidateFunction]>) {
        if (!validate(input[part] ?? {})) return fail('validation', `Invalid ${part}: ${ajv.errorsText(validate.errors)}`, path);
      }
      try {
        const result = await source.run(route, input, createContext(ctx, ctx.principal, ctx.log));
        return { ok: true, content: truncate(JSON.stringify(result.body ?? null)), path, body: result.body };
      } catch (err) {
        if (isApiError(err)) return fail(err.code, err.message, path);
        ctx.log.error({ err, tool: name }, 'chat tool failed');
        return fail('internal_error', 'The tool failed.', path);
      }
    },
  };
}

/** Tool arguments → the route's path parameters, query and body, by where each field is declared. */
function splitArguments(route: CompiledRoute, args: Record<string, unknown>): RouteInput {
  const { def } = route;
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (key in propertiesOf(def.params)) params[key] = value;
    else if (key in propertiesOf(def.query)) query[key] = value;
    // Unknown fields go where the schema will refuse them (additionalProperties: false).
    else if (def.body) body[key] = value;
    else query[key] = value;
  }
  return { params, query, body: def.body ? body : undefined };
}
