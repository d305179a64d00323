/**
 * The internal execution engine: envelop over graphql-js, executing with graphql-jit. Route
 * documents are parsed and validated once at start; each call only executes. Every REST route, MCP tool and the
 * public GraphQL endpoint run through the same envelop pipeline.
 */
import * as GraphQLJS from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { envelop, useEngine, useSchema } from '@envelop/core';
import type { Plugin } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';

export interface Engine {
  /** The envelop factory, shared with the public GraphQL endpoint. */
  getEnveloped: ReturnType<typeof envelop>;
  schema: GraphQLSchema;
  /** Parses and validates a document; throws at start when a route's document is wrong. */
  compile(source: string, transform?: (doc: DocumentNode) => DocumentNode): DocumentNode;
  run(document: DocumentNode, variables: Record<string, unknown>, context: object): Promise<ExecutionResult>;
}

/**
 * Compiled execution (graphql-jit): a document is compiled once into a function that runs
 * its resolvers and builds its answer, instead of graphql-js walking the document on every
 * request (collecting fields, coercing arguments, completing values) - that walk was most of
 * a cheap route's pipeline cost (docs/performance.md). Route documents compile on first use;
 * any other document (the public endpoint's) only once it comes back, so a client's
 * one-off queries never pay for a compilation.
 */
function compiledExecution(routeDocuments: WeakSet<DocumentNode>): Plugin {
  const seen = new WeakSet<DocumentNode>();
  return useGraphQlJit({ disablingCapturingStackErrors: true }, {
    enableIf: ({ document }) => {
      if (routeDocuments.has(document) || seen.has(document)) return true;
      seen.add(document);
      return false;
    },
  });
}

export function createEngine(schema: GraphQLSchema, plugins: Plugin[] = []): Engine {
  const routeDocuments = new WeakSet<DocumentNode>();
  const getEnveloped = envelop({ plugins: [useEngine(GraphQLJS), useSchema(schema), compiledExecution(routeDocuments), ...plugins] });
  return {
    getEnveloped,
    schema,
    compile(source, transform = (d) => d) {
      const { parse, validate, schema: s } = getEnveloped();
      const document = transform(parse(source));
      const errors = validate(s, document);
      if (errors.length) throw new Error(`Invalid internal document: ${errors.map((e: { message: string }) => e.message).join('; ')}\n${source}`);
      routeDocuments.add(document);
      return document;
    },
    async run(document, variables, context) {
      const { execute, schema: s, contextFactory } = getEnveloped(context);
      const contextValue = await contextFactory(context);
      return (await execute({ schema: s, document, variableValues: variables, contextValue })) as ExecutionResult;
    },
  };
}
