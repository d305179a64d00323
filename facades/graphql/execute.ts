/**
 * Runs one public GraphQL request on the internal engine's envelop pipeline, with the
 * public schema swapped in and the public subset rule added. The same plugins and the
 * same request context serve REST, MCP and this endpoint; only the schema view and the
 * validation differ.
 */
import { LRUCache } from 'lru-cache';
import { GraphQLError, getOperationAST } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { envelop, useEnvelop, useSchema, useValidationRule } from '@envelop/core';
import type { Engine } from '../../platform/graphql/engine.ts';
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../../resolvers/context.ts';
import { buildPublicSchema, publicSdl } from './public-schema.ts';
import { PUBLIC_LIMITS, PublicSubsetRule } from './rules.ts';
import { executionErrors, refusalBody, rejectionErrors } from './errors.ts';

/** The request body of POST /v1/graphql (GraphQL over HTTP field names). */
export interface GraphqlRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** Status and JSON body of one POST. */
export interface GraphqlAnswer {
  status: 200 | 400;
  body: Record<string, unknown>;
}

/** The public endpoint's runner, built once per app. */
export interface PublicGraphql {
  schema: GraphQLSchema;
  /** The public view as SDL (GET /v1/graphql). */
  sdl: string;
  run(body: unknown, ctx: RequestContext): Promise<GraphqlAnswer>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the body's shape; a wrong one is a 400 `bad_request` naming the field. */
export function readBody(body: unknown): GraphqlRequestBody {
  const problem = (message: string) => new ApiError('bad_request', message);
  if (!isObject(body)) throw problem('The body must be a JSON object with a string field "query".');
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string' || !query.trim()) throw problem('The body field "query" must be a non-empty string.');
  if (variables !== undefined && variables !== null && !isObject(variables)) throw problem('The body field "variables" must be an object.');
  // Reserved for protocol extensions (GraphQL over HTTP); none is read, but it must be a map.
  if (extensions !== undefined && extensions !== null && !isObject(extensions)) throw problem('The body field "extensions" must be an object.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw problem('The body field "operationName" must be a string.');
  }
  return { query, variables: variables ?? null, operationName: operationName ?? null };
}

function refused(errors: readonly GraphQLError[]): GraphqlAnswer {
  const reasons = errors.map((e) => e.message).join(' ');
  const error = new ApiError('graphql_rejected', `The query was rejected: ${reasons}`);
  return { status: 400, body: refusalBody(error, rejectionErrors(errors)) };
}

/** Parses with the token limit; a syntax error or an oversized document is a refusal. */
function parseDocument(parse: (source: string, options: object) => DocumentNode, query: string): DocumentNode | GraphqlAnswer {
  try {
    return parse(query, { maxTokens: PUBLIC_LIMITS.maxTokens });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    const tooLarge = /contains more th[a-z]+ \d+ tokens/.test(err.message);
    const message = tooLarge ? `The query is longer than ${PUBLIC_LIMITS.maxTokens} tokens.` : `The query does not parse: ${err.message}`;
    return refused([new GraphQLError(message, { extensions: { reason: tooLarge ? 'size' : 'syntax' } })]);
  }
}

/** Distinct documents whose parse and validation outcome is remembered. */
export const DOCUMENT_CACHE_SIZE = 500;

/** A valid document, with whether it ran before (it runs compiled from its second use). */
type Prepared = { document: DocumentNode; ran: boolean } | GraphqlAnswer;

/**
 * Parse and validation depend on the query text and the static public schema only, so
 * their outcome is kept per text in a bounded LRU (lru-cache): clients repeat the same few
 * documents, and re-validating them was the largest cost of a cheap query
 * (docs/architecture.md). No TTL: the schema cannot change under a running process.
 */
function documentCache(prepare: (query: string) => Prepared): (query: string) => Prepared {
  const entries = new LRUCache<string, Prepared>({ max: DOCUMENT_CACHE_SIZE });
  return (query) => {
    const hit = entries.get(query);
    if (hit) return hit;
    const prepared = prepare(query);
    entries.set(query, prepared);
    return prepared;
  };
}

/** Builds the public endpoint's runner over the internal engine's envelop pipeline. */
export function createPublicGraphql(engine: Engine): PublicGraphql {
  const schema = buildPublicSchema(engine.schema);
  const getEnveloped = envelop({
    plugins: [useEnvelop(engine.getEnveloped), useSchema(schema), useValidationRule(PublicSubsetRule)],
  });
  const sdl = publicSdl(schema);
  const prepare = documentCache((query) => {
    const { parse, validate, schema: view } = getEnveloped();
    const document = parseDocument(parse, query);
    if ('status' in document) return document;
    // No rule list here: useEngine(GraphQLJS) adds graphql's specified rules and
    // useValidationRule the public subset; passing specifiedRules too reported each error twice.
    const invalid = validate(view, document);
    return invalid.length ? refused(invalid) : { document, ran: false };
  });

  async function firstRun(args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: Record<string, unknown> | null; operationName?: string | null }, ctx: RequestContext) {
    const { contextFactory, execute } = getEnveloped(ctx);
    return execute({ ...args, contextValue: await contextFactory(ctx) });
  }

  async function run(body: unknown, ctx: RequestContext): Promise<GraphqlAnswer> {
    const request = readBody(body);
    const prepared = prepare(request.query);
    if ('status' in prepared) return prepared;
    const { document } = prepared;
    // Variables are checked by graphql-js itself: its messages are the documented ones, and
    // the compiled executor words coercion errors differently.
    const operation = getOperationAST(document, request.operationName);
    if (operation?.variableDefinitions?.length || request.variables) {
      const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], request.variables ?? {}, { maxErrors: 50 });
      if (coerced.errors) return refused(coerced.errors);
    }
    const args = { schema, document, variableValues: request.variables, operationName: request.operationName };
    // A returning document runs compiled, without envelop's per-request orchestration (the
    // engine's pipeline has no plugin that acts on execution); a first one on graphql-js.
    // Written out: a spread plus a property is slow to build on Node 20 (resolvers/context.ts).
    const result = (prepared.ran
      ? await engine.runCompiled({ schema: args.schema, document: args.document, variableValues: args.variableValues, operationName: args.operationName, contextValue: ctx })
      : await firstRun(args, ctx)) as ExecutionResult;
    prepared.ran = true;
    // No `data` at all means execution never started (variables, operation name): a request error.
    if (!('data' in result) || result.data === undefined) return refused(result.errors ?? []);
    const errors = result.errors?.length ? { errors: executionErrors(result.errors, ctx.log) } : {};
    return { status: 200, body: { data: result.data, ...errors } };
  }

  return { schema, sdl, run };
}
