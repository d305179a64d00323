/**
 * The public GraphQL view: the internal schema filtered to the Query fields the spec
 * publishes. Fields are picked by name from the internal Query type, so each one keeps
 * its real domain resolver and appears as soon as its domain adds it to the internal
 * schema; mutations and every type only reachable from other fields drop out.
 */
import { GraphQLObjectType, GraphQLSchema, getNullableType, lexicographicSortSchema, printSchema } from 'graphql';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap } from 'graphql';
import { ApiError } from '../../platform/errors.ts';
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import type { RequestContext } from '../../resolvers/context.ts';

/** The spec's root query fields of the public endpoint, in the spec's order. */
export const PUBLIC_QUERY_FIELDS = ['drugs', 'drug', 'drugByCode', 'atc', 'changes', 'rxnorm'] as const;

/**
 * Scopes a root field needs beyond `graphql:query`. The change feed is a `changes:read`
 * product on REST; the GraphQL door must not widen a key that lacks it.
 */
export const PUBLIC_FIELD_SCOPES: Readonly<Record<string, Scope>> = { changes: 'changes:read' };

type Field = GraphQLFieldConfig<unknown, RequestContext>;

/**
 * Wraps a field's resolver with the scope check; the domain resolver still answers. The
 * field becomes nullable in the public view: a refused non-null field would null the whole
 * `data`, and the other fields of the query must still answer.
 */
function withScope(name: string, field: Field, scope: Scope): Field {
  const resolve = field.resolve;
  return {
    ...field,
    type: getNullableType(field.type),
    description: `${field.description ?? ''}${field.description ? '\n\n' : ''}Needs the scope \`${scope}\` besides \`graphql:query\`.`,
    resolve(source, args, ctx, info) {
      const principal = ctx.principal;
      if (!principal?.scopes.has(scope)) {
        throw new ApiError('forbidden', `The field ${name} needs the scope ${scope}.`, { tier: principal?.tier ?? null, missing_scope: scope });
      }
      // Without a resolver of its own a field reads its parent, as graphql-js would.
      return resolve ? resolve(source, args, ctx, info) : (source as Record<string, unknown> | undefined)?.[name];
    },
  };
}

/**
 * Builds the public view of `internal`: a Query root holding only the public fields the
 * internal schema has today, no Mutation, no Subscription, and only the types those
 * fields reach. `fieldScopes` adds per-field scope checks.
 */
export function buildPublicSchema(
  internal: GraphQLSchema,
  fields: readonly string[] = PUBLIC_QUERY_FIELDS,
  fieldScopes: Readonly<Record<string, Scope>> = PUBLIC_FIELD_SCOPES,
): GraphQLSchema {
  const queryType = internal.getQueryType();
  if (!queryType) throw new Error('The internal schema has no Query type.');
  const config = queryType.toConfig();
  const picked: GraphQLFieldConfigMap<unknown, RequestContext> = {};
  for (const name of fields) {
    const field = config.fields[name] as Field | undefined;
    if (!field) continue;
    const scope = fieldScopes[name];
    picked[name] = scope ? withScope(name, field, scope) : field;
  }
  if (!Object.keys(picked).length) throw new Error('The internal schema has none of the public Query fields.');
  const query = new GraphQLObjectType({
    ...config,
    description: 'Read-only entry points of the public drugref GraphQL endpoint.',
    fields: picked,
  });
  // Types and directives are collected from the new Query root only, which prunes the rest.
  return new GraphQLSchema({ query, description: 'drugref public GraphQL view (read-only subset of the internal schema).' });
}

/** The view as SDL, types sorted so the text only changes when the contract does. */
export function publicSdl(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema));
}
