/**
 * The MCP methods drugref serves: initialize, ping, tools/list and tools/call. Params are
 * checked with the MCP SDK's own schemas; protocol faults are JSON-RPC errors, while a
 * tool that ran and failed (scope, quota, validation, not found ...) is a result with
 * `isError: true` carrying the REST error body, so agents see the spec's `error` codes.
 */
import {
  CallToolRequestSchema, ErrorCode, InitializeRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema,
  PingRequestSchema, SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../../platform/graphql/engine.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { createContext } from '../../resolvers/context.ts';
import type { AppDeps } from '../../resolvers/context.ts';
import type { Principal } from '../../resolvers/accounts/keys.ts';
import { runOperation } from '../http/operation.ts';
import type { Guard } from '../http/auth.ts';
import { rpcError, rpcResult } from './jsonrpc.ts';
import type { RpcAnswer, RpcCall } from './jsonrpc.ts';
import type { McpTool } from './tools.ts';
import { truncateResult } from './truncate.ts';

/** Who is calling, for the length of one POST. */
export interface Caller {
  principal: Principal;
  log: Logger;
  /** Called after a tools/call was counted, with the quota left (for x-ratelimit-remaining). */
  metered(remaining: number | null): void;
}

/** What the dispatcher runs tools with. */
export interface DispatcherOptions {
  engine: Engine;
  deps: AppDeps;
  guard: Guard;
  tools: McpTool[];
  version: string;
}

type Handler = (call: RpcCall, caller: Caller) => Promise<Record<string, unknown>>;

/** Thrown by a handler for a JSON-RPC protocol error (not a tool failure). */
class RpcFault extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** Checks a call's message against an SDK request schema; a mismatch is -32602. */
function checked<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, call: RpcCall): T {
  const parsed = schema.safeParse(call.message);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || 'message'}: ${i.message}`).join('; ');
  throw new RpcFault(ErrorCode.InvalidParams, `Invalid params for ${call.method}: ${issues}`);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The params of an ordinary tools/call (a string `name` and, if any, plain-object
 * `arguments`; nothing else), which the SDK schema always accepts as they are: read without
 * zod, whose parse cost more than the rest of the call's dispatch. Any other shape goes
 * through the schema, so its refusals keep the schema's wording.
 */
function plainToolCall(message: unknown): { name: string; arguments?: Record<string, unknown> } | null {
  const params = isPlainObject(message) ? message.params : undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string') return null;
  for (const key in params) if (key !== 'name' && key !== 'arguments') return null;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return null;
  return params as { name: string; arguments?: Record<string, unknown> };
}

function errorResult(error: ApiError): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(error.toBody()) }], isError: true };
}

/** Runs one tool like its REST route: counted, scope-checked, validated, then executed. */
async function runTool(options: DispatcherOptions, tool: McpTool, args: Record<string, unknown>, caller: Caller): Promise<CallToolResult> {
  const { engine, deps, guard } = options;
  try {
    caller.metered(await guard.meter(caller.principal));
    guard.requireScope(caller.principal, tool.scope);
    const input = tool.prepare(args);
    const result = await runOperation(engine, tool.route, input, createContext(deps, caller.principal, caller.log));
    const { text } = truncateResult(JSON.stringify(result.body ?? null));
    return { content: [{ type: 'text', text }] };
  } catch (err) {
    if (err instanceof ApiError) return errorResult(err);
    caller.log.error({ err, tool: tool.definition.name }, 'mcp tool failed');
    return errorResult(new ApiError('internal_error'));
  }
}

/** The four methods; each checks its params with the SDK schema first. */
function methodTable(options: DispatcherOptions): Record<string, Handler> {
  const { tools, version } = options;
  const byName = new Map(tools.map((t) => [t.definition.name, t]));
  const allowed = (tool: McpTool, principal: Principal) => tool.scope === null || principal.scopes.has(tool.scope);
  return {
    async initialize(call) {
      const { params } = checked(InitializeRequestSchema, call);
      // Answer in the client's version when we speak it, else in ours (the client decides).
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
      return {
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'drugref', title: 'drugref drug reference', version },
        instructions: 'Drug reference tools over a multi-country pharmaceutical catalogue. Each tools/call counts as one API request of your quota; errors come back as JSON with a stable "error" code.',
      };
    },
    async ping(call) {
      checked(PingRequestSchema, call);
      return {};
    },
    async 'tools/list'(call, caller) {
      checked(ListToolsRequestSchema, call);
      return { tools: tools.filter((t) => allowed(t, caller.principal)).map((t) => t.definition) };
    },
    async 'tools/call'(call, caller) {
      const params = plainToolCall(call.message) ?? checked(CallToolRequestSchema, call).params;
      const tool = byName.get(params.name);
      if (!tool) throw new RpcFault(ErrorCode.InvalidParams, `Unknown tool: ${params.name}. tools/list names the tools this key can run.`);
      return { ...(await runTool(options, tool, { ...(params.arguments ?? {}) }, caller)) };
    },
  };
}

/** Builds the dispatcher over the route-table tools; `answer` handles one call. */
export function createDispatcher(options: DispatcherOptions) {
  const methods = methodTable(options);

  /** Answers one call; null for a notification (it gets no answer, whatever happens). */
  async function answer(call: RpcCall, caller: Caller): Promise<RpcAnswer | null> {
    const handler = Object.hasOwn(methods, call.method) ? methods[call.method] : undefined;
    if (call.id === undefined) return null;
    if (!handler) return rpcError(call.id, ErrorCode.MethodNotFound, `Method not found: ${call.method}.`);
    try {
      return rpcResult(call.id, await handler(call, caller));
    } catch (err) {
      if (err instanceof RpcFault) return rpcError(call.id, err.code, err.message);
      caller.log.error({ err, method: call.method }, 'mcp method failed');
      return rpcError(call.id, ErrorCode.InternalError, 'Internal error.');
    }
  }

  return { answer };
}

/** The dispatcher the MCP route calls per message. */
export type Dispatcher = ReturnType<typeof createDispatcher>;
