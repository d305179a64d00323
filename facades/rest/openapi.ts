/**
 * The OpenAPI 3.1 document, generated from the route table (never written by hand) and
 * served without a key at /v1/openapi.json and /api/v1/openapi.json, limited per IP.
 */
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../platform/errors.ts';
import type { Config } from '../../platform/config.ts';
import type { JsonSchema, OperationDoc } from '../routes/types.ts';
import { registerMethodNotAllowed } from './register.ts';

const STATUS_TEXT: Record<number, string> = {
  200: 'Success.', 201: 'Created.', 202: 'Accepted, no body.', 204: 'Done, no body.', 304: 'Not modified (if-none-match matched); counts against quota.',
  400: 'Malformed request.', 401: 'No, unparseable, revoked or legacy API key.', 402: 'AI allowance exhausted.',
  403: 'The key lacks the scope (`forbidden`, with `tier` and `missing_scope`).', 404: 'Nothing found.',
  405: 'Wrong verb; `allow` lists the accepted ones.', 410: 'Retired.', 422: 'Request understood and refused (`validation`).',
  429: 'Quota or rate limit exhausted; see `retry-after`.', 502: 'An upstream or backend failed.', 503: 'Deliberately unavailable; see `retry-after`.',
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: Object.keys(ERRORS), description: 'Stable machine-readable code.' },
    message: { type: 'string', description: 'Prose for humans; may be reworded.' },
    details: { type: 'array', items: { type: 'object' } },
    tier: { type: 'string' },
    missing_scope: { type: 'string' },
    limit: { type: 'number' },
    window: { type: 'string' },
    resets: { type: 'string', format: 'date-time' },
    upgrade_url: { type: 'string' },
  },
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

function responses(op: OperationDoc): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of op.statuses) {
    const description = STATUS_TEXT[status] ?? `HTTP ${status}; the operation's description says when.`;
    if (status === 400 && op.negotiatedTypes) {
      const schema = { $ref: '#/components/schemas/Error' };
      out[status] = { description, content: Object.fromEntries(op.negotiatedTypes.map((type) => [type, { schema }])) };
    } else if (status >= 400) {
      out[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    } else if ([202, 204, 304].includes(status)) {
      out[status] = { description };
    } else {
      const types = op.negotiatedTypes ?? [op.responseType ?? 'application/json'];
      out[status] = { description, content: Object.fromEntries(types.map((type) => [type, { schema: op.response ?? { type: 'object' } }])) };
    }
  }
  return out;
}

export function buildOpenApi(operations: OperationDoc[], version: string): JsonSchema {
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
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses: responses(op),
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
      schemas: { Error: ERROR_SCHEMA },
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
  statuses: [200, 429],
};

export function registerOpenApi(app: FastifyInstance, operations: OperationDoc[], config: Config, version: string): void {
  const payload = JSON.stringify(buildOpenApi([...operations, OPENAPI_OPERATION], version));
  const rateLimit = { max: config.publicRateLimitPerMinute, timeWindow: 60_000 };
  for (const url of ['/v1/openapi.json', '/api/v1/openapi.json']) {
    app.get(url, { config: { rateLimit } }, (_request, reply) => reply.type('application/json; charset=utf-8').send(payload));
  }
  registerMethodNotAllowed(app, ['/v1/openapi.json', '/api/v1/openapi.json'].map((path) => ({ method: 'GET', path })));
}
