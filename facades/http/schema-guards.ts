/**
 * Limits every route schema implies but does not spell out, added once when the REST
 * routes are registered so no route can forget them:
 *
 * - text (any `string` schema) must not contain NUL: PostgreSQL cannot store or compare
 *   it, so it would fail deep in a query instead of as a 422 naming the field;
 * - integers stay within 32 bits: the internal GraphQL `Int` is 32-bit, so a larger value
 *   (or Infinity) would fail variable coercion instead of validation.
 *
 * The route table itself stays as written (the OpenAPI document is generated from it).
 */
import type { Ajv, KeywordDefinition } from 'ajv';
import type { JsonSchema } from '../routes/types.ts';

/** The custom keyword marking text that must not carry a NUL character. */
export const NO_NUL_KEYWORD = 'x-no-nul';
const NO_NUL_MESSAGE = 'must not contain a NUL (U+0000) character';

/** Bounds of the internal GraphQL Int. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

const NO_NUL: KeywordDefinition = {
  keyword: NO_NUL_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  errors: true,
  validate: function noNul(enabled: boolean, data: string): boolean {
    if (!enabled || !data.includes('\u0000')) return true;
    (noNul as { errors?: unknown[] }).errors = [{ keyword: NO_NUL_KEYWORD, message: NO_NUL_MESSAGE, params: {} }];
    return false;
  },
};

/** Fastify `ajv.plugins` entry that teaches the route validator the keyword above. */
export function schemaGuardsAjvPlugin(ajv: Ajv): Ajv {
  return ajv.addKeyword(NO_NUL);
}

function hasType(schema: JsonSchema, type: string): boolean {
  const t = schema.type;
  return t === type || (Array.isArray(t) && t.includes(type));
}

/** Subschema-holding keywords, walked so nested properties, items and branches are guarded too. */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const;
const LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** A copy of `schema` with the NUL and 32-bit guards added at every level. */
export function guardSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  // enum, const and format values cannot carry NUL; saying it again would only add noise.
  if (hasType(out, 'string') && !('enum' in out) && !('const' in out) && !('format' in out)) out[NO_NUL_KEYWORD] = true;
  if (hasType(out, 'integer')) {
    out.maximum = Math.min(typeof out.maximum === 'number' ? out.maximum : INT32_MAX, INT32_MAX);
    out.minimum = Math.max(typeof out.minimum === 'number' ? out.minimum : INT32_MIN, INT32_MIN);
  }
  for (const key of MAP_KEYWORDS) {
    const map = out[key] as Record<string, JsonSchema> | undefined;
    if (map && typeof map === 'object') out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, guardSchema(v)]));
  }
  for (const key of SCHEMA_KEYWORDS) {
    const sub = out[key];
    if (sub && typeof sub === 'object' && !Array.isArray(sub)) out[key] = guardSchema(sub as JsonSchema);
  }
  for (const key of LIST_KEYWORDS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((s: JsonSchema) => guardSchema(s));
  }
  return out;
}
