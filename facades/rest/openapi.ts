/**
 * The OpenAPI 3.1 document, generated from the route table (never written by hand) and
 * served without a key at /v1/openapi.json and /api/v1/openapi.json, limited per IP.
 */
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../../platform/config.ts';
import type { JsonSchema, OperationDoc, RouteDef } from '../routes/types.ts';
import { openObject } from './answer-schema.ts';
import { FHIR_COMPONENTS } from './fhir-schemas.ts';
import { ERROR_SCHEMA } from './error-schema.ts';
import { registerMethodNotAllowed } from './register.ts';
import { routeAnswerSchema } from './route-answers.ts';

const STATUS_TEXT: Record<number, string> = {
  200: 'Success.', 201: 'Created.', 202: 'Accepted, no body.', 204: 'Done, no body.', 304: 'Not modified (if-none-match matched); counts against quota.',
  400: 'Malformed request.', 401: 'No, unparseable, revoked or legacy API key.', 402: 'AI allowance exhausted.',
  403: 'The key lacks the scope (`forbidden`, with `tier` and `missing_scope`).', 404: 'Nothing found.',
  405: 'Wrong verb; `allow` lists the accepted ones.', 410: 'Retired.', 422: 'Request understood and refused (`validation`).',
  414: 'The URL is longer than 8,192 characters (`uri_too_long`).', 429: 'Quota or rate limit exhausted; see `retry-after`.', 502: 'An upstream or backend failed.', 503: 'Deliberately unavailable; see `retry-after`.',
};


function parameters(op: OperationDoc): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [['path', op.params], ['query', op.query]] as const) {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      const { description, ...rest } = prop;
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: rest, ...(description ? { description } : {}) });
    }
  }
  return list;
}

const NO_BODY = new Set([202, 204, 304]);

function successContent(op: OperationDoc, internal: GraphQLSchema): JsonSchema {
  const schema = 'document' in op ? routeAnswerSchema(internal, op as RouteDef) : op.response;
  if (!schema) throw new Error(`${op.operationId}: a success answer with a body needs a schema`);
  const types = op.negotiatedTypes ?? [op.responseType ?? 'application/json'];
  const alternatives = Object.entries(op.responseAlternatives ?? {}).map(([type, alt]) => [type, { schema: alt }]);
  return { ...Object.fromEntries(types.map((type) => [type, { schema }])), ...Object.fromEntries(alternatives) };
}

function errorContent(op: OperationDoc, status: number): JsonSchema {
  const own = op.errorBodies?.[status] ?? op.errorBodies?.default;
  const schema = own?.schema ?? { $ref: '#/components/schemas/Error' };
  // The operation's own 400 comes in every media type it negotiates; the pipeline's errors stay JSON.
  const types = status === 400 && op.negotiatedTypes ? op.negotiatedTypes : [own?.type ?? 'application/json'];
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

/**
 * Every status the operation answers: its own, and those the shared pipeline gives it. Any
 * URL can be too long (414). A route-table operation is validated (422 for an unknown query
 * parameter or a body that is not JSON) and, unless public, keyed (401) and counted (429
 * once quota is used up), with 403 when it needs a scope. Operations registered by hand
 * (GraphQL, MCP, the document itself) list their own.
 */
export function documentedStatuses(op: OperationDoc): number[] {
  const route = 'document' in op ? (op as RouteDef) : undefined;
  const keyed = route && !route.public;
  const pipeline = [414, ...(route ? [422] : []), ...(keyed ? [401] : []), ...(keyed && route.metered !== false ? [429] : []), ...(keyed && route.scope ? [403] : [])];
  return [...new Set([...op.statuses, ...pipeline])].sort((a, b) => a - b);
}

function responses(op: OperationDoc, internal: GraphQLSchema): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of documentedStatuses(op)) {
    const description = STATUS_TEXT[status] ?? `HTTP ${status}; the operation's description says when.`;
    if (status >= 400) out[status] = { description, content: errorContent(op, status) };
    else if (NO_BODY.has(status)) out[status] = { description };
    else out[status] = { description, content: successContent(op, internal) };
  }
  return out;
}

/** The document; `internal` is the internal GraphQL schema the route answers are derived from. */
export function buildOpenApi(operations: OperationDoc[], version: string, internal: GraphQLSchema): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      security: op.public ? [] : [{ bearer: [] }],
      'x-required-scope': op.scope,
      parameters: parameters(op),
      ...(op.body ?? op.documentedBody ? { requestBody: { required: true, content: { 'application/json': { schema: op.body ?? op.documentedBody } } } } : {}),
      responses: responses(op, internal),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'drugref API',
      version,
      description: 'Drug reference service over a multi-country pharmaceutical catalogue. Every operation needs `Authorization: Bearer <API_KEY>` unless marked public.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'svc_live_… or svc_test_… API key.' } },
      schemas: { Error: ERROR_SCHEMA, ...FHIR_COMPONENTS },
    },
  };
}

export const OPENAPI_OPERATION: OperationDoc = {
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/v1/openapi.json',
  scope: null,
  public: true,
  summary: 'This OpenAPI 3.1 description (also at /api/v1/openapi.json).',
  tags: ['meta'],
  response: openObject('an OpenAPI 3.1 document (its own schema is the OpenAPI Specification\'s).'),
  statuses: [200, 429],
};

export function registerOpenApi(app: FastifyInstance, operations: OperationDoc[], config: Config, version: string, internal: GraphQLSchema): void {
  // Built on the first request, not at start: deriving every answer's schema costs a start
  // time that no other route should pay; test/facades/openapi.test.ts builds it on every run.
  let payload: string | undefined;
  const document = () => (payload ??= JSON.stringify(buildOpenApi([...operations, OPENAPI_OPERATION], version, internal)));
  const rateLimit = { max: config.publicRateLimitPerMinute, timeWindow: 60_000 };
  for (const url of ['/v1/openapi.json', '/api/v1/openapi.json']) {
    app.get(url, { config: { rateLimit } }, (_request, reply) => reply.type('application/json; charset=utf-8').send(document()));
  }
  registerMethodNotAllowed(app, ['/v1/openapi.json', '/api/v1/openapi.json'].map((path) => ({ method: 'GET', path })));
}
