/**
 * The internal execution engine: envelop over graphql-js, executing with graphql-jit. Route
 * documents are parsed and validated once at start and compiled once on first use; each
 * call then only runs the compiled function. The public GraphQL endpoint runs its documents
 * through the same envelop pipeline, with its own schema view and rules.
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
  /** Whether `run` executes this document compiled directly (a document of `compile`). */
  runsCompiled(document: DocumentNode): boolean;
}

/** graphql-jit's options, the same for route documents and the public endpoint's. */
const JIT_OPTIONS = { disablingCapturingStackErrors: true };

/**
 * Compiled execution (graphql-jit) of the public endpoint's documents: a document is compiled
 * into a function that runs its resolvers and builds its answer, instead of graphql-js
 * walking it on every request (docs/architecture.md, "Hot path") - but only once it comes
 * back, so a client's one-off queries never pay for a compilation.
 */
function compiledOnReturn(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  return useGraphQlJit(JIT_OPTIONS, {
    enableIf: ({ document }) => {
      if (seen.has(document)) return true;
      seen.add(document);
      return false;
    },
  });
}

type Execute = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues: Record<string, unknown>; contextValue: object }) => ExecutionResult | Promise<ExecutionResult>;

/**
 * graphql-jit's executor as its envelop plugin builds it (a compiled function per document,
 * made on the first call and kept in a WeakMap), taken out of the plugin to be called
 * without envelop's per-request orchestration.
 */
function jitExecutor(): Execute {
  let execute: Execute | undefined;
  const plugin = useGraphQlJit(JIT_OPTIONS);
  (plugin.onExecute as (payload: { args: object; setExecuteFn: (fn: Execute) => void }) => void)({ args: {}, setExecuteFn: (fn) => { execute = fn; } });
  if (!execute) throw new Error('graphql-jit gave no executor');
  return execute;
}

export function createEngine(schema: GraphQLSchema, plugins: Plugin[] = []): Engine {
  const getEnveloped = envelop({ plugins: [useEngine(GraphQLJS), useSchema(schema), compiledOnReturn(), ...plugins] });
  /** Documents of `compile` (validated at start). */
  const routeDocuments = new WeakSet<DocumentNode>();
  /**
   * A route document runs compiled directly: envelop's per-request orchestration (plugin
   * hooks, context factory, execute wrapper) does nothing for a document already validated
   * and cost more than the execution of a cheap route. An engine with plugins of its own
   * keeps the envelop path for every document.
   */
  const executeCompiled = plugins.length ? null : jitExecutor();

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
      if (executeCompiled && routeDocuments.has(document)) return executeCompiled({ schema, document, variableValues: variables, contextValue: context });
      const { execute, schema: s, contextFactory } = getEnveloped(context);
      const contextValue = await contextFactory(context);
      return (await execute({ schema: s, document, variableValues: variables, contextValue })) as ExecutionResult;
    },
    runsCompiled(document) {
      return Boolean(executeCompiled) && routeDocuments.has(document);
    },
  };
}
