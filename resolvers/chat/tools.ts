/**
 * What the assistant needs from its tools: the list to offer the model and a way to run one
 * call. The assistant is a client of the API, so the implementation sits with the facades
 * (facades/mcp/chat-tools.ts runs the route table's MCP tools) and reaches the resolvers
 * through the request context's toolbox; nothing here imports upward.
 */
import type { RequestContext } from '../context.ts';
import type { ToolSpec } from './model.ts';

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
  /** The error code of a failed call (`upstream_error`, `not_found` …). */
  error?: string;
}

/** The tools of one caller: what to offer the model, and running one call. */
export interface ChatTools {
  list(ctx: RequestContext): ToolSpec[];
  call(name: string, rawArguments: string, ctx: RequestContext): Promise<ToolOutcome>;
}
