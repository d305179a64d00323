/**
 * JSON-RPC 2.0 framing of the MCP endpoint: classifying incoming messages and building
 * answers. The protocol's own error codes come from the MCP SDK; an error answer puts
 * `error` first so it also reads like every other drugref error body.
 */
import { ErrorCode, JSONRPC_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** Most messages one POST may carry (spec, Limits: "MCP batch size"). */
export const MAX_BATCH = 20;

/** A request id; MCP forbids null ids. */
export type RpcId = string | number;

/** A JSON-RPC request (has an id) or notification (has none) the server should act on. */
export interface RpcCall {
  id: RpcId | undefined;
  method: string;
  params: unknown;
  /** The raw message, for the SDK schemas that check a method's params. */
  message: Record<string, unknown>;
}

/** One answer: an error (members ordered `error` first) or a result. */
export type RpcAnswer = { error: { code: number; message: string; data?: unknown }; jsonrpc: '2.0'; id: RpcId | null }
  | { jsonrpc: '2.0'; id: RpcId; result: Record<string, unknown> };

/** What one element of a body is: a call to run, something to ignore, or an invalid request. */
export type Classified =
  | { kind: 'call'; call: RpcCall }
  | { kind: 'ignore' }
  | { kind: 'invalid'; answer: RpcAnswer };

/** An error answer; `data` only when given. */
export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): RpcAnswer {
  return { error: { code, message, ...(data === undefined ? {} : { data }) }, jsonrpc: JSONRPC_VERSION, id };
}

/** A success answer. */
export function rpcResult(id: RpcId, result: Record<string, unknown>): RpcAnswer {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}

const isId = (v: unknown): v is RpcId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Sorts one message into call, ignorable (a client's response) or invalid request. */
export function classify(message: unknown): Classified {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { kind: 'invalid', answer: rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object.') };
  }
  const m = message as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== JSONRPC_VERSION) {
    return { kind: 'invalid', answer: rpcError(id, ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0".') };
  }
  if (typeof m.method === 'string') {
    if ('id' in m && !isId(m.id)) {
      return { kind: 'invalid', answer: rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or a number.') };
    }
    return { kind: 'call', call: { id: id ?? undefined, method: m.method, params: m.params, message: m } };
  }
  // A client's answer to a server request: this server sends none, so there is nothing to do.
  if (id !== null && ('result' in m || 'error' in m)) return { kind: 'ignore' };
  return { kind: 'invalid', answer: rpcError(id, ErrorCode.InvalidRequest, 'Invalid Request: a message needs a string "method".') };
}

/**
 * Checks the shape of a whole body before any message runs: an empty batch, a batch over
 * MAX_BATCH or a body that is not a message is refused as one invalid request.
 */
export function checkBody(body: unknown): RpcAnswer | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return rpcError(null, ErrorCode.InvalidRequest, 'Invalid Request: the batch is empty.');
    if (body.length > MAX_BATCH) {
      return rpcError(null, ErrorCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH} messages, this one ${body.length}.`);
    }
    return null;
  }
  const single = classify(body);
  return single.kind === 'invalid' ? single.answer : null;
}

/** A body that is not JSON at all. */
export function parseError(detail: string): RpcAnswer {
  return rpcError(null, ErrorCode.ParseError, `Parse error: ${detail}`);
}
