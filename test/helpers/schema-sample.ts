/**
 * Valid values from the route table's JSON Schemas: one deterministic sample (for tests
 * that change one field and need the rest valid) and a fast-check arbitrary (for the fuzz
 * suite). Covers the keywords the route table uses; anything else falls back to a string.
 */
import fc from 'fast-check';
import type { JsonSchema, RouteDef } from '../../facades/routes/types.ts';

const UUID = '3f1c2a9e-5b7d-4c1e-9a2b-0c4d5e6f7a8b';
const FORMATS: Record<string, string> = { uuid: UUID, 'date-time': '2026-01-01T00:00:00Z', date: '2026-01-01', uri: 'https://example.com/x', email: 'x@example.com' };

function firstType(schema: JsonSchema): string | undefined {
  const t = schema.type;
  return Array.isArray(t) ? (t.find((x) => x !== 'null') as string | undefined) : (t as string | undefined);
}

/** One valid value of `schema` (deterministic). */
export function sampleOf(schema: JsonSchema): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches?.length) return sampleOf(branches[0]!);
  switch (firstType(schema)) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array': {
      const n = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, 0);
      return Array.from({ length: n }, (_, i) => uniqueVariant(sampleOf((schema.items ?? {}) as JsonSchema), i));
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, sampleOf(props[k] ?? {})]));
    }
    default:
      return sampleString(schema);
  }
}

function uniqueVariant(value: unknown, i: number): unknown {
  return typeof value === 'string' && i > 0 && !/^[0-9a-f-]{36}$/.test(value) ? `${value}${'x'.repeat(i)}`.slice(0, 40) : value;
}

function sampleString(schema: JsonSchema): string {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!;
  if (typeof schema.pattern === 'string') {
    return fc.sample(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => lengthOk(schema, s)), { seed: 1, numRuns: 1 })[0]!;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  return 'aspirin'.padEnd(min, 'x');
}

function lengthOk(schema: JsonSchema, s: string): boolean {
  return s.length >= ((schema.minLength as number | undefined) ?? 0) && s.length <= ((schema.maxLength as number | undefined) ?? Infinity);
}

/** A fast-check arbitrary of valid values of `schema` (depth-bounded). */
export function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches?.length) return fc.oneof(...branches.map((b) => arbitraryOf(b, depth + 1)));
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 40);
  const minLength = (schema.minLength as number | undefined) ?? 0;
  switch (firstType(schema)) {
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 100_000 });
    case 'number':
      return fc.double({ min: (schema.minimum as number | undefined) ?? -1e6, max: (schema.maximum as number | undefined) ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const minItems = (schema.minItems as number | undefined) ?? 0;
      const maxItems = Math.min((schema.maxItems as number | undefined) ?? 5, Math.max(minItems, 5));
      return fc.array(arbitraryOf((schema.items ?? {}) as JsonSchema, depth + 1), { minLength: minItems, maxLength: maxItems });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryOf(v, depth + 1)]));
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
    default:
      if (typeof schema.format === 'string' && FORMATS[schema.format]) {
        return schema.format === 'uuid' ? fc.uuid() : fc.constant(FORMATS[schema.format]!);
      }
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => lengthOk(schema, s));
      return fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
  }
}

/** The concrete URL path of a route, path parameters filled with `params`. */
export function pathOf(route: RouteDef, params: Record<string, unknown>): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(params[name] ?? 'x')));
}

/** A query string from a record; array values repeat the key. */
export function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
