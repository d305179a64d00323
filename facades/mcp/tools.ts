/**
 * MCP tools derived from the route table: every route with an `mcp` entry becomes one
 * tool whose input schema is its path, query and body schemas merged into one object.
 * Arguments are validated with ajv under the options REST uses (coercion, defaults, all
 * errors), then split back into path/query/body so `runOperation` sees a REST request.
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { guardSchema, schemaGuardsAjvPlugin } from '../http/schema-guards.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { validationError } from '../../platform/errors.ts';
import type { ApiError } from '../../platform/errors.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import type { CompiledRoute } from '../http/operation.ts';
import type { JsonSchema, RouteInput } from '../routes/types.ts';

// ajv-formats ships CommonJS; under ESM its function sits on `default`.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Where an argument goes; `arguments` names one the tool does not know. */
type Location = 'path' | 'query' | 'body' | 'arguments';

/** One tool: what tools/list shows, and how tools/call runs it. */
export interface McpTool {
  definition: Tool;
  scope: Scope | null;
  route: CompiledRoute;
  /** Validates (coercing and filling defaults in place) and splits arguments; throws 422 `validation`. */
  prepare(args: Record<string, unknown>): RouteInput;
}

const PARTS: Array<[Exclude<Location, 'arguments'>, 'params' | 'query' | 'body']> = [['path', 'params'], ['query', 'query'], ['body', 'body']];

/** The route's params, query and body schemas merged into one object schema. */
export function mergeInputSchema(route: CompiledRoute['def']): { schema: Tool['inputSchema']; locations: Map<string, Location> } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const locations = new Map<string, Location>();
  for (const [location, key] of PARTS) {
    const part = route[key];
    for (const [name, prop] of Object.entries((part?.properties ?? {}) as Record<string, JsonSchema>)) {
      if (locations.has(name)) throw new Error(`Route ${route.operationId}: "${name}" is both a ${locations.get(name)} and a ${location} field; the MCP tool cannot merge them.`);
      properties[name] = prop;
      locations.set(name, location);
      if (location === 'path' || ((part?.required ?? []) as string[]).includes(name)) required.push(name);
    }
  }
  const schema = { type: 'object' as const, properties, ...(required.length ? { required } : {}), additionalProperties: false };
  return { schema, locations };
}

/** ajv issues → the same 422 body REST answers, each detail naming where the field lives. */
function invalidArguments(issues: ErrorObject[], locations: Map<string, Location>): ApiError {
  const details = issues.map((issue) => {
    const extra = issue.params.additionalProperty ?? issue.params.missingProperty;
    const field = [issue.instancePath.replace(/^\//, '').replace(/\//g, '.'), extra].filter(Boolean).join('.') || null;
    const allowed = issue.keyword === 'enum' ? ` (${(issue.params.allowedValues as unknown[]).join(', ')})` : '';
    const message = issue.keyword === 'additionalProperties' ? 'is not a known parameter' : `${issue.message ?? 'is invalid'}${allowed}`;
    const location = (field && locations.get(field.split('.')[0]!)) ?? 'arguments';
    return { location, field, message };
  });
  const summary = details.map((d) => (d.field ? `${d.location} ${d.field} ${d.message}` : `${d.location} ${d.message}`)).join('; ');
  return validationError(`Invalid request: ${summary}.`, details);
}

function splitInput(args: Record<string, unknown>, locations: Map<string, Location>, hasBody: boolean): RouteInput {
  const input: RouteInput = { params: {}, query: {}, body: hasBody ? {} : undefined };
  for (const [name, value] of Object.entries(args)) {
    const location = locations.get(name);
    if (location === 'path') input.params[name] = value;
    else if (location === 'query') input.query[name] = value;
    else (input.body as Record<string, unknown>)[name] = value;
  }
  return input;
}

/** Builds the tool list once at start; a route whose schema ajv refuses stops the start. */
export function buildTools(routes: CompiledRoute[]): McpTool[] {
  // The REST validator's options and guards (NUL-free text, 32-bit integers), so a tool call is refused exactly like its route.
  const ajv = schemaGuardsAjvPlugin(addFormats(new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: false, allErrors: true, strict: false, strictNumbers: false })));
  const tools: McpTool[] = [];
  for (const route of routes) {
    const { def } = route;
    if (!def.mcp) continue;
    const { schema, locations } = mergeInputSchema(def);
    // Compiled on the tool's first call: most tools are never called by a given process, and compiling them all delayed its start.
    let validate: ValidateFunction | undefined;
    tools.push({
      definition: {
        name: def.mcp.name,
        title: def.summary,
        description: def.mcp.description,
        inputSchema: schema,
        annotations: { readOnlyHint: def.method === 'GET', idempotentHint: def.method !== 'POST' },
      },
      scope: def.scope,
      route,
      prepare(args) {
        validate ??= ajv.compile(guardSchema(schema as JsonSchema));
        if (!validate(args)) throw invalidArguments(validate.errors ?? [], locations);
        return splitInput(args, locations, Boolean(def.body));
      },
    });
  }
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.definition.name)) throw new Error(`Two routes declare the MCP tool ${tool.definition.name}.`);
    names.add(tool.definition.name);
  }
  return tools;
}
