/**
 * A route's answer schema, derived from the one place that fixes its shape: the internal
 * GraphQL document the route runs. The selection set, read against the internal schema's
 * output types, gives every field, its type, whether it may be null, enum values, nested
 * objects and lists, and the field's description; the snake_case aliases the route
 * document gets at compile time give the keys. A field of the open `JSON` scalar has no
 * GraphQL shape, so a table by `Type.field` names its schema (json-fields.ts).
 */
import { getNamedType, isEnumType, isListType, isNonNullType, isObjectType, isScalarType, Kind, parse, print } from 'graphql';
import type { DirectiveNode, FieldNode, GraphQLField, GraphQLObjectType, GraphQLOutputType, GraphQLSchema, SelectionSetNode } from 'graphql';
import { withSnakeCaseAliases } from '../../platform/graphql/snake-aliases.ts';
import type { JsonSchema } from '../routes/types.ts';

/** Marks an object whose keys are data, not a fixed set (say why in `description`). */
export function openObject(description: string): JsonSchema {
  return { type: 'object', additionalProperties: true, description: `Open by design: ${description}` };
}

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
};

/** The schema of one member of an object schema (for `answer` functions). */
export function member(schema: JsonSchema, key: string): JsonSchema {
  const found = (schema.properties as Record<string, JsonSchema> | undefined)?.[key];
  if (!found) throw new Error(`The schema has no member ${key}`);
  return found;
}

/** A closed object schema; every member is required unless listed in `optional`. */
export function closedObject(properties: Record<string, JsonSchema>, optional: string[] = [], description?: string): JsonSchema {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return { type: 'object', required, properties, additionalProperties: false, ...(description ? { description } : {}) };
}

/** The schema of an NDJSON export line: a record, then the closing line, or an error line on a failure part way. */
export function ndjsonLines(record: JsonSchema, end: Record<string, JsonSchema>, error: JsonSchema): JsonSchema {
  return {
    description: 'One JSON value per line: records, then one `_end` line; a stream cut short by a failure ends with an `_error` line instead.',
    oneOf: [
      record,
      closedObject({ _end: closedObject(end, [], 'The closing line: a stream without it is incomplete.') }),
      closedObject({ _error: error }),
    ],
  };
}

/** Adds null to a schema's allowed values. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.type === 'null' || schema.type === undefined && !schema.$ref && !schema.anyOf && !schema.oneOf) return schema;
  if (schema.const !== undefined || schema.oneOf) return { anyOf: [schema, { type: 'null' }] };
  if (schema.enum) return { ...schema, type: [schema.type, 'null'], enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (schema.type) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

/** The schema without null (a route with `notFound` answers 404 instead of null). */
export function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    const rest: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    return rest.enum ? { ...rest, enum: (rest.enum as unknown[]).filter((v) => v !== null) } : rest;
  }
  if (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((s) => s.type === 'null')) {
    const kept = (schema.anyOf as JsonSchema[]).filter((s) => s.type !== 'null');
    const { anyOf: _anyOf, ...rest } = schema;
    return kept.length === 1 ? { ...rest, ...kept[0] } : { ...rest, anyOf: kept };
  }
  return schema;
}

/**
 * The schema of a value whose null members are left out at every depth (CDS Hooks answers):
 * a member that may be null becomes optional and never null.
 */
export function withoutNullMembers(schema: JsonSchema): JsonSchema {
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.items)) return { ...schema, items: withoutNullMembers(schema.items as JsonSchema) };
  if (!schema.properties) return schema;
  const properties: Record<string, JsonSchema> = {};
  const required = new Set(schema.required as string[]);
  for (const [key, member] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const kept = withoutNull(member);
    if (kept !== member) required.delete(key);
    properties[key] = withoutNullMembers(kept);
  }
  return { ...schema, properties, required: [...required] };
}

interface Walk {
  json: Record<string, JsonSchema>;
  route: string;
  /** `Type.field` of the field being described, the key of `json`. */
  field?: string;
}

/**
 * One place a field is selected, with the conditions (`@include`/`@skip` on it or on the
 * fragments and fields above it, as `include:$dated`) under which it is answered.
 */
interface Occurrence {
  node: FieldNode;
  conditions: string[];
}

/** A selection set and the conditions under which the object it selects is answered. */
interface Selection {
  set: SelectionSetNode;
  conditions: string[];
}

function conditionsOf(node: { directives?: readonly DirectiveNode[] }): string[] {
  return (node.directives ?? []).filter((d) => d.name.value === 'include' || d.name.value === 'skip').map((d) => `${d.name.value}:${d.arguments?.[0] ? print(d.arguments[0].value) : ''}`);
}

const within = (inner: string[], outer: string[]) => inner.every((c) => outer.includes(c));

/** Collects the selection's fields by response key, merging repeats (`packs { a } packs { b }`). */
function collect({ set, conditions }: Selection, out: Map<string, Occurrence[]>): void {
  for (const selection of set.selections) {
    const own = [...conditions, ...conditionsOf(selection)];
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      out.set(key, [...(out.get(key) ?? []), { node: selection, conditions: own }]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collect({ set: selection.selectionSet, conditions: own }, out);
    } else {
      throw new Error('Route documents use no named fragments');
    }
  }
}

/**
 * The object the selections describe. A field is required when, under each condition set
 * that answers the object at all (the smallest ones), some selection answers the field too:
 * fields added under a further `@include` stay optional.
 */
function objectSchema(type: GraphQLObjectType, selections: Selection[], path: string, walk: Walk): JsonSchema {
  const fields = new Map<string, Occurrence[]>();
  for (const selection of selections) collect(selection, fields);
  const smallest = selections.filter((s) => !selections.some((o) => o !== s && within(o.conditions, s.conditions) && o.conditions.length < s.conditions.length));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, occurrences] of fields) {
    properties[key] = fieldOf(type, occurrences, `${path}${path ? '.' : ''}${key}`, walk);
    if (smallest.every((s) => occurrences.some((o) => within(o.conditions, s.conditions)))) required.push(key);
  }
  return { type: 'object', required, properties, additionalProperties: false, ...(type.description ? { description: type.description } : {}) };
}

function fieldOf(parent: GraphQLObjectType, occurrences: Occurrence[], path: string, walk: Walk): JsonSchema {
  const name = occurrences[0]!.node.name.value;
  if (name === '__typename') return { type: 'string', const: parent.name };
  const def: GraphQLField<unknown, unknown> | undefined = parent.getFields()[name];
  if (!def) throw new Error(`${walk.route}: ${parent.name}.${name} is not in the internal schema`);
  const selections = occurrences.flatMap(({ node, conditions }) => (node.selectionSet ? [{ set: node.selectionSet, conditions }] : []));
  return described(typeSchema(def.type, selections, path, { ...walk, field: `${parent.name}.${name}` }), def.description);
}

/** The field's description on its schema; an open object keeps saying that it is open. */
function described(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description) return schema;
  const own = typeof schema.description === 'string' ? schema.description : '';
  return { ...schema, description: own.startsWith('Open by design') ? `${own} ${description}` : description };
}

function typeSchema(type: GraphQLOutputType, sets: Selection[], path: string, walk: Walk): JsonSchema {
  if (isNonNullType(type)) return nonNull(type.ofType, sets, path, walk);
  return nullable(nonNull(type, sets, path, walk));
}

function nonNull(type: GraphQLOutputType, sets: Selection[], path: string, walk: Walk): JsonSchema {
  if (isNonNullType(type)) return nonNull(type.ofType, sets, path, walk);
  if (isListType(type)) return { type: 'array', items: typeSchema(type.ofType, sets, path, walk) };
  if (isObjectType(type)) return objectSchema(type, sets, path, walk);
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value) };
  if (isScalarType(type) && type.name === 'JSON') {
    const shape = walk.json[walk.field ?? ''];
    if (!shape) throw new Error(`${walk.route}: the JSON field ${walk.field} (at ${path}) has no schema in JSON_FIELD_SCHEMAS`);
    return shape;
  }
  const scalar = SCALARS[getNamedType(type).name];
  if (!scalar) throw new Error(`${walk.route}: no JSON Schema for the scalar ${getNamedType(type).name}`);
  return scalar;
}

/** The schema of `data` itself (all root fields), for routes whose `respond` reshapes it. */
export function dataSchema(schema: GraphQLSchema, route: { operationId: string; document: string }, json: Record<string, JsonSchema> = {}): JsonSchema {
  const document = withSnakeCaseAliases(parse(route.document));
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) throw new Error(`${route.operationId}: no operation`);
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!rootType) throw new Error(`${route.operationId}: no ${operation.operation} type`);
  return objectSchema(rootType, [{ set: operation.selectionSet, conditions: [] }], '', { json, route: route.operationId });
}

/**
 * The schema of the value the route's single root field answers (what `runOperation`
 * returns when the route has no `respond`). `json` maps JSON-scalar fields, by `Type.field`
 * (`Pack.sl`), to their schemas.
 */
export function answerSchema(schema: GraphQLSchema, route: { operationId: string; document: string }, json: Record<string, JsonSchema> = {}): JsonSchema {
  const properties = dataSchema(schema, route, json).properties as Record<string, JsonSchema>;
  const keys = Object.keys(properties);
  if (keys.length !== 1) throw new Error(`${route.operationId}: answerSchema needs one root field, found ${keys.join(', ')}`);
  return properties[keys[0]!]!;
}
