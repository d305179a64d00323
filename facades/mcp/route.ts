/**
 * POST /v1/mcp: MCP over JSON-RPC 2.0, stateless, answered with plain JSON — no session,
 * no event stream. The POST itself is authenticated but not metered; each tools/call is
 * counted inside the dispatcher, exactly once, like a REST request.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../resolvers/context.ts';
import { sendError, toApiError } from '../http/errors.ts';
import type { OperationDoc } from '../routes/types.ts';
import { registerMethodNotAllowed } from '../rest/register.ts';
import { createDispatcher } from './dispatch.ts';
import type { Caller, Dispatcher } from './dispatch.ts';
import type { McpTool } from './tools.ts';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { checkBody, classify, MAX_BATCH, parseError, rpcError } from './jsonrpc.ts';
import type { RpcAnswer } from './jsonrpc.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

// JSON-RPC 2.0 allows any number as an id (MCP's RequestId is string | number): the answer echoes it as sent.
const RPC_ID = { type: ['string', 'number', 'null'], description: 'The id of the call answered, as sent (null when it could not be read).' };
const RPC_MESSAGE = {
  type: 'object', required: ['jsonrpc', 'method'], additionalProperties: false, description: 'One JSON-RPC 2.0 call (with id) or notification (without).',
  properties: {
    jsonrpc: { type: 'string', const: '2.0' }, id: { type: ['string', 'number'] }, method: { type: 'string', description: 'initialize, ping, tools/list, tools/call or a notification.' },
    params: { type: 'object', additionalProperties: true, description: 'Open by design: the method\'s parameters as MCP defines them (tools/call: name and arguments).' },
  },
};
/** A JSON-RPC 2.0 error answer; `data.error` carries the drugref error code where one applies. */
const RPC_ERROR = {
  type: 'object', required: ['jsonrpc', 'id', 'error'], additionalProperties: false,
  properties: {
    jsonrpc: { type: 'string', const: '2.0' }, id: RPC_ID,
    error: {
      type: 'object', required: ['code', 'message'], additionalProperties: false,
      properties: {
        code: { type: 'integer', description: 'JSON-RPC error code (-32700 parse error, -32600 invalid request, -32601 no such method, -32602 invalid params).' },
        message: { type: 'string' },
        data: { type: 'object', additionalProperties: true, description: 'Open by design: `error`, the drugref error code, and what the failure names.' },
      },
    },
  },
};
const RPC_ANSWER = {
  oneOf: [
    {
      type: 'object', required: ['jsonrpc', 'id', 'result'], additionalProperties: false,
      properties: {
        jsonrpc: { type: 'string', const: '2.0' }, id: RPC_ID,
        result: { type: 'object', additionalProperties: true, description: 'Open by design: the result MCP defines for the method (initialize: serverInfo and capabilities; tools/list: tools; tools/call: content, structuredContent, isError).' },
      },
    },
    RPC_ERROR,
  ],
};

/** How POST /v1/mcp appears in the OpenAPI document. */
export const MCP_OPERATIONS: OperationDoc[] = [{
  operationId: 'postMcp',
  method: 'POST',
  path: '/v1/mcp',
  scope: null,
  summary: 'MCP (Model Context Protocol) over JSON-RPC 2.0: initialize, ping, tools/list, tools/call.',
  description: `Stateless, plain JSON answers, no session, no stream. One message or a batch of 1 to ${MAX_BATCH}. Only tools/call is metered (one request each); tools/list shows only tools the key's scopes can run. A failed tool run is a result with isError and the REST error body; results over 60,000 characters are truncated with a marker. A body that is not JSON, an empty batch, a batch over ${MAX_BATCH} or a single invalid message is a 400 carrying a JSON-RPC error. Notifications only: 202 with no body.`,
  tags: ['mcp'],
  body: {
    oneOf: [
      RPC_MESSAGE,
      { type: 'array', items: RPC_MESSAGE, minItems: 1, maxItems: MAX_BATCH, description: 'A batch.' },
    ],
  },
  response: { oneOf: [RPC_ANSWER, { type: 'array', items: RPC_ANSWER, description: 'A batch: one answer per call, notifications none.' }] },
  errorBodies: { 400: { type: 'application/json', schema: RPC_ERROR } },
  statuses: [200, 202, 400, 401],
}];

function send(reply: FastifyReply, status: number, answer: RpcAnswer | RpcAnswer[]): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(JSON.stringify(answer));
}

/** A whole body refused: JSON-RPC error, HTTP 400, tagged with the spec's `bad_request`. */
function refuse(reply: FastifyReply, answer: RpcAnswer): FastifyReply {
  if ('error' in answer) answer.error.data = { error: 'bad_request' };
  return send(reply, 400, answer);
}

/** Fastify body errors that mean "this is not JSON" rather than "not acceptable". */
const NOT_JSON = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** Unparseable or unacceptable bodies answer in JSON-RPC, not with the REST 422. */
function mcpErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const error = toApiError(err);
  if (error.status >= 500) request.log.error({ err }, 'request failed');
  if (error.code !== 'validation') return sendError(reply, error);
  const notJson = NOT_JSON.has(err.code) || err instanceof SyntaxError;
  return refuse(reply, notJson ? parseError(error.message) : rpcError(null, ErrorCode.InvalidRequest, `Invalid Request: ${error.message}`));
}

async function handle(dispatcher: Dispatcher, request: FastifyRequest, reply: FastifyReply) {
  const refused = checkBody(request.body);
  if (refused) return refuse(reply, refused);
  const caller: Caller = {
    principal: request.principal!,
    log: request.log,
    metered: (remaining) => { request.quotaRemaining = remaining; },
  };
  const batch = Array.isArray(request.body);
  const messages: unknown[] = batch ? (request.body as unknown[]) : [request.body];
  const answers: RpcAnswer[] = [];
  // One after the other: quota counts stay in message order and one POST holds one connection.
  for (const message of messages) {
    const item = classify(message);
    if (item.kind === 'invalid') answers.push(item.answer);
    if (item.kind !== 'call') continue;
    const answer = await dispatcher.answer(item.call, caller);
    if (answer) answers.push(answer);
  }
  if (!answers.length) return reply.code(202).send();
  return send(reply, 200, batch ? answers : answers[0]!);
}

/** Registers POST /v1/mcp (and 405 for other verbs, which the SDK client's GET probe expects). */
export function registerMcp(app: FastifyInstance, deps: AppDeps, tools: McpTool[], version: string): void {
  const dispatcher = createDispatcher({ engine: deps.toolbox.engine, deps, guard: app.guard, tools, version });
  app.post('/v1/mcp', {
    onRequest: app.guarded({ scope: null, metered: false }),
    errorHandler: mcpErrorHandler,
  }, (request, reply) => handle(dispatcher, request, reply));
  registerMethodNotAllowed(app, [{ method: 'POST', path: '/v1/mcp' }]);
}
