/**
 * The internal execution engine: envelop over graphql-js. Route documents are parsed and
 * validated once at start; each call only executes. Every REST route, MCP tool and the
 * public GraphQL endpoint run through the same envelop pipeline.
 */
import * as GraphQLJS from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { envelop, useEngine, useSchema } from '@envelop/core';
import type { Plugin } from '@envelop/core';

export interface Engine {
  /** The envelop factory, shared with the public GraphQL endpoint. */
  getEnveloped: ReturnType<typeof envelop>;
  schema: GraphQLSchema;
  /** Parses and validates a document; throws at start when a route's document is wrong. */
  compile(source: string, transform?: (doc: DocumentNode) => DocumentNode): DocumentNode;
  run(document: DocumentNode, variables: Record<string, unknown>, context: object): Promise<ExecutionResult>;
}

export function createEngine(schema: GraphQLSchema, plugins: Plugin[] = []): Engine {
  const getEnveloped = envelop({ plugins: [useEngine(GraphQLJS), useSchema(schema), ...plugins] });
  return {
    getEnveloped,
    schema,
    compile(source, transform = (d) => d) {
      const { parse, validate, schema: s } = getEnveloped();
      const document = transform(parse(source));
      const errors = validate(s, document);
      if (errors.length) throw new Error(`Invalid internal document: ${errors.map((e: { message: string }) => e.message).join('; ')}\n${source}`);
      return document;
    },
    async run(document, variables, context) {
      const { execute, schema: s, contextFactory } = getEnveloped(context);
      const contextValue = await contextFactory(context);
      return (await execute({ schema: s, document, variableValues: variables, contextValue })) as ExecutionResult;
    },
  };
}
