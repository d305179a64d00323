/**
 * The assistant's tools are the app's MCP tools (tools.ts, built once from the route
 * table): offered to the model when the caller's scopes can run them and executed
 * with the route's own operation under the caller's principal, so a tool answers exactly
 * as its REST route does and tools of new domains appear as their entries land.
 */
import type { Engine } from '../../platform/graphql/engine.ts';
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../../resolvers/context.ts';
import { createContext } from '../../resolvers/context.ts';
import type { ChatTools, ToolOutcome } from '../../resolvers/chat/tools.ts';
import { runOperation } from '../http/operation.ts';
import type { CompiledRoute } from '../http/operation.ts';
import type { RouteInput } from '../routes/types.ts';
import type { McpTool } from './tools.ts';
import { truncateResult } from './truncate.ts';

/** The REST path (with query string) a tool call stands for. */
export function restPath(route: CompiledRoute, input: RouteInput): string {
  const path = route.def.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(input.params[name] ?? '')));
  const query = new URLSearchParams(Object.entries(input.query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
  return query.size ? `${path}?${query}` : path;
}

/** The app's tools this caller's scopes can run (public routes are never tools). */
function runnable(tools: McpTool[], ctx: RequestContext): McpTool[] {
  return tools.filter((t) => !t.route.def.public && (!t.scope || ctx.principal?.scopes.has(t.scope)));
}

function parseArguments(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The assistant's tools over the app's MCP tools, run by the app's engine. */
export function createChatTools(engine: Engine, tools: McpTool[]): ChatTools {
  return {
    list: (ctx) => runnable(tools, ctx).map((t) => ({ name: t.definition.name, description: t.definition.description ?? '', parameters: t.definition.inputSchema })),

    async call(name, rawArguments, ctx) {
      const tool = runnable(tools, ctx).find((t) => t.definition.name === name);
      const fail = (error: string, message: string, path = ''): ToolOutcome => ({ ok: false, content: JSON.stringify({ error, message }), path, body: null, error });
      if (!tool) return fail('unknown_tool', `No tool named ${name} is available to this key.`);
      const args = parseArguments(rawArguments);
      if (!args) return fail('validation', 'Tool arguments must be a JSON object.');
      let path = '';
      try {
        const input = tool.prepare(args);
        path = restPath(tool.route, input);
        const result = await runOperation(engine, tool.route, input, createContext(ctx, ctx.principal, ctx.log));
        return { ok: true, content: truncateResult(JSON.stringify(result.body ?? null)).text, path, body: result.body };
      } catch (err) {
        if (isApiError(err)) return fail(err.code, err.message, path);
        ctx.log.error({ err, tool: name }, 'chat tool failed');
        return fail('internal_error', 'The tool failed.', path);
      }
    },
  };
}
