/**
 * The internal execution engine: envelop over graphql-js, executing with graphql-jit. Route
 * documents are parsed and validated once at start and compiled once on first use; each
 * call then only runs the compiled function. The public GraphQL endpoint runs its documents
 * through the same envelop pipeline, with its own schema view and rules.
 */
import * as GraphQLJS from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { envelop, useEngine, useSchema } from '@envelop/core';
import { useGraphQlJit } from '@envelop/graphql-jit';

export interface Engine {
  /** The envelop factory, shared with the public GraphQL endpoint. */
  getEnveloped: ReturnType<typeof envelop>;
  schema: GraphQLSchema;
  /** Parses and validates a document; throws at start when a route's document is wrong. */
  compile(source: string, transform?: (doc: DocumentNode) => DocumentNode): DocumentNode;
  run(document: DocumentNode, variables: Record<string, unknown>, context: object): Promise<ExecutionResult>;
  /** Whether `run` executes this document compiled (a document of `compile`, or one run before). */
  runsCompiled(document: DocumentNode): boolean;
  /**
   * Runs a validated document compiled (graphql-jit, compiled on its first call), outside
   * envelop: for documents the caller has already validated against `args.schema`.
   */
  runCompiled: Execute;
}

type Execute = (args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues: Record<string, unknown> | null | undefined;
  contextValue: object;
}) => ExecutionResult | Promise<ExecutionResult>;

/** graphql-jit's options. */
const JIT_OPTIONS = { disablingCapturingStackErrors: true };

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

export function createEngine(schema: GraphQLSchema): Engine {
  const getEnveloped = envelop({ plugins: [useEngine(GraphQLJS), useSchema(schema)] });
  /** Documents of `compile` (validated at start), and other documents once run. */
  const routeDocuments = new WeakSet<DocumentNode>();
  const ran = new WeakSet<DocumentNode>();
  /**
   * A route document runs compiled (graphql-jit) from its first call, any other from its
   * second (a one-off document never pays for a compilation), and directly: envelop's
   * per-request orchestration (plugin hooks, context factory, execute wrapper) does nothing
   * for a document already validated (the pipeline has no plugin acting on execution) and
   * cost more than the execution of a cheap route.
   */
  const runCompiled = jitExecutor();
  const compiledFor = (document: DocumentNode) => routeDocuments.has(document) || ran.has(document);

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
      if (compiledFor(document)) return runCompiled({ schema, document, variableValues: variables, contextValue: context });
      ran.add(document);
      const { execute, schema: s, contextFactory } = getEnveloped(context);
      const contextValue = await contextFactory(context);
      return (await execute({ schema: s, document, variableValues: variables, contextValue })) as ExecutionResult;
    },
    runsCompiled: compiledFor,
    runCompiled,
  };
}
