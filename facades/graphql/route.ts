/**
 * The public GraphQL facade: POST /v1/graphql runs a query on the public view, GET
 * /v1/graphql returns that view as SDL. Both sit behind the shared pipeline (key, quota,
 * scope) like every REST route; one POST is one request of quota whatever it selects.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../platform/graphql/engine.ts';
import { ApiError } from '../../platform/errors.ts';
import { createContext } from '../../resolvers/context.ts';
import type { AppDeps } from '../../resolvers/context.ts';
import type { OperationDoc } from '../routes/types.ts';
import { sendError, toApiError } from '../http/errors.ts';
import { ERROR_SCHEMA } from '../rest/error-schema.ts';
import { NO_QUERY, registerMethodNotAllowed } from '../rest/register.ts';
import { createPublicGraphql } from './execute.ts';
import { refusalBody } from './errors.ts';
import { GRAPHQL_RESPONSE_TYPE, JSON_TYPE, contentTypeOf, graphqlResponseType } from './media-type.ts';

const GRAPHQL_ERROR = {
  type: 'object', required: ['message', 'extensions'], additionalProperties: false,
  properties: {
    message: { type: 'string' },
    locations: { type: 'array', items: { type: 'object', required: ['line', 'column'], additionalProperties: false, properties: { line: { type: 'integer' }, column: { type: 'integer' } } } },
    path: { type: 'array', items: { type: ['string', 'integer'] } },
    extensions: {
      type: 'object', required: ['code'], additionalProperties: true,
      properties: { code: { type: 'string', description: 'The drugref error code.' } },
      description: 'Open by design: `code`, and what the error names (reason, the fields of its REST error body).',
    },
  },
};
/** A refused query: the drugref error body plus the GraphQL `errors`. */
const REFUSAL = {
  ...ERROR_SCHEMA,
  required: ['error', 'message', 'errors'],
  properties: {
    ...(ERROR_SCHEMA.properties as object),
    errors: { type: 'array', items: GRAPHQL_ERROR },
    errors_total: { type: 'integer', description: 'How many errors there were when only the first are shown.' },
  },
};

/** How POST and GET /v1/graphql appear in the OpenAPI document. */
export const GRAPHQL_OPERATIONS: OperationDoc[] = [
  {
    operationId: 'postGraphql',
    method: 'POST',
    path: '/v1/graphql',
    scope: 'graphql:query',
    summary: 'Run one GraphQL query on the public view (Query fields drugs, drug, drugByCode, atc, changes, rxnorm).',
    description: 'One plain query per request: no fragments, directives, mutations, subscriptions, several operations or introspection beyond __typename; at most 8 levels deep and 200 selected fields. Refusals are 400 `graphql_rejected` (malformed bodies 400 `bad_request`) and also carry GraphQL `errors`. Field errors answer 200 with `errors[].extensions.code`. The field `changes` also needs `changes:read`. GraphQL over HTTP: the answer (200 and 400) is `application/graphql-response+json` when `Accept` prefers it to `application/json`, else `application/json`; the statuses are the same in both.',
    tags: ['graphql'],
    body: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', description: 'The GraphQL query document.' },
        variables: { type: ['object', 'null'], description: 'Values of the variables the query declares.' },
        operationName: { type: ['string', 'null'], description: 'Name of the operation to run (the document holds one).' },
        extensions: { type: ['object', 'null'], description: 'Protocol extensions (GraphQL over HTTP); none is read.' },
      },
    },
    response: {
      type: 'object', required: ['data'], additionalProperties: false,
      properties: {
        data: { type: ['object', 'null'], additionalProperties: true, description: 'Open by design: the fields the query selected, as the public view (GET /v1/graphql) types them.' },
        errors: { type: 'array', items: GRAPHQL_ERROR, description: 'Field errors; the fields at fault are null in `data`.' },
      },
    },
    negotiatedTypes: [JSON_TYPE, GRAPHQL_RESPONSE_TYPE],
    errorBodies: { 400: { type: 'application/json', schema: REFUSAL } },
    statuses: [200, 400, 401, 403, 429],
  },
  {
    operationId: 'getGraphqlSchema',
    method: 'GET',
    path: '/v1/graphql',
    scope: null,
    summary: 'The public GraphQL view as SDL (any valid key).',
    description: 'Takes no query parameters (422 `validation`): queries run by POST only, so a GET never executes one.',
    tags: ['graphql'],
    responseType: 'application/graphql',
    response: { type: 'string' },
    statuses: [200, 401, 422, 429],
  },
];

/** Body problems on this path are the spec's 400 (it documents no 422 for GraphQL). */
function graphqlErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let error = toApiError(err);
  if (error.status >= 500) request.log.error({ err }, 'request failed');
  if (error.code === 'validation') error = new ApiError('bad_request', error.message);
  if (error.code !== 'bad_request') return sendError(reply, error);
  const body = refusalBody(error, [{ message: error.message, extensions: { code: 'bad_request' } }]);
  return reply.code(400).header('vary', 'accept').type(contentTypeOf(graphqlResponseType(request.headers.accept))).send(JSON.stringify(body));
}

/** Registers POST and GET /v1/graphql (and 405 for the other verbs). */
export function registerPublicGraphql(app: FastifyInstance, engine: Engine, deps: AppDeps): void {
  const graphql = createPublicGraphql(engine);
  app.post('/v1/graphql', {
    onRequest: app.guarded({ scope: 'graphql:query' }),
    errorHandler: graphqlErrorHandler,
  }, async (request, reply) => {
    const ctx = createContext(deps, request.principal, request.log);
    const answer = await graphql.run(request.body, ctx);
    // Both media types take the same statuses here: a request error (no `data`) is already a 400.
    const type = contentTypeOf(graphqlResponseType(request.headers.accept));
    return reply.code(answer.status).headers(ctx.response.headers).header('vary', 'accept').type(type).send(JSON.stringify(answer.body));
  });
  // No query parameters: a GET never runs a query (GraphQL over HTTP's GET form is not offered).
  app.get('/v1/graphql', { onRequest: app.guarded({ scope: null }), schema: { querystring: NO_QUERY } }, (_request, reply) =>
    reply.type('application/graphql; charset=utf-8').send(graphql.sdl));
  registerMethodNotAllowed(app, GRAPHQL_OPERATIONS.map((op) => ({ method: op.method, path: op.path })));
}
