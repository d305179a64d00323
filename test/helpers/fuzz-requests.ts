/**
 * fast-check arbitraries of hostile HTTP requests for one operation of the route table:
 * a valid request from its JSON Schemas, then one mutation (wrong types, boundary and huge
 * numbers, unicode and control characters, NUL, deep and wide JSON, oversize bodies,
 * wrong content types, duplicate parameters, injection strings, garbage keys ...).
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { JsonSchema, OperationDoc } from '../../facades/routes/types.ts';
import { arbitraryOf } from './schema-sample.ts';

/** Marks values sent under identifying field names; none may ever reach a log line. */
export const PHI_MARKER = 'Qzphimarker';

const INJECTIONS = [
  "' OR '1'='1", "1; DROP TABLE drugs; --", '"; SELECT pg_sleep(5); --', '${7*7}', '{{7*7}}', '<script>alert(1)</script>', '../../../../etc/passwd',
  '%00', '%', '%zz', '\\', '\\u0000', 'null', 'undefined', '[object Object]', '__proto__', 'constructor', '$where', '{"$gt":""}', '*', '%%', 'ALL',
];
const NUMBERS: unknown[] = [0, -1, -0, 1.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 + 1, 1e308, -1e308, 5e-324,
  'Infinity', '-Infinity', 'NaN', '1e400', '-1e400', '0x10', '1e3', ' 1', '1 ', '+1', '１', '9'.repeat(400)];
const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f', '\u0085', '\u200b', '\u202e', '\u2028', '\ufeff', '\ufffe', '\ud800', '\udfff', '😀', 'e\u0301', 'İ', 'ß');
const UNICODE_TEXT = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(CONTROL, { minLength: 1, maxLength: 8 }).map((a) => a.join('')),
  fc.tuple(fc.string({ maxLength: 10 }), CONTROL, fc.string({ maxLength: 10 })).map(([a, c, b]) => `${a}${c}${b}`),
);
const GARBAGE_KEYS = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'a.b', 'a[b]', '$ne', '\u0000', 'ÿ', 'x'.repeat(300)), fc.string({ maxLength: 12 }));
const CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16',
  'application/json; charset=latin1', 'application/jsonx', 'application/*', '', 'application/json, text/plain', 'application/vnd.api+json'];

const NUL_TEXT = fc.oneof(fc.constant('\u0000'), fc.string({ maxLength: 8 }).map((x) => `${x}\u0000${x}`), fc.constant(['a\u0000b']));
const HUGE = fc.constantFrom('Infinity', '-Infinity', '4294967296', '-4294967296', '99999999999', '1e400', '9'.repeat(40));

/** Nested 1–3,000 levels of arrays or objects. */
const DEEP = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

export interface FuzzCase {
  /** How the request was built, for a readable counterexample. */
  mutation: string;
  request: InjectOptions;
}

type Fields = Record<string, unknown>;

/** Replace, or add, one field of a record. */
function withField(record: Fields, name: fc.Arbitrary<string>, value: fc.Arbitrary<unknown>): fc.Arbitrary<Fields> {
  const names = Object.keys(record);
  const key = names.length ? fc.oneof(fc.constantFrom(...names), name) : name;
  return fc.tuple(key, value).map(([k, v]) => ({ ...record, [k]: v }));
}

/** Percent-encoded; a lone surrogate (no UTF-8 form) becomes U+FFFD, as URLSearchParams does. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A path parameter as text: objects as JSON (one without a prototype has no String()), other values as String() does. */
function segmentText(value: unknown): string {
  if (value === undefined || value === null) return 'x';
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  } catch {
    return 'x'; // a bigint inside an object
  }
}

function fill(path: string, params: Fields): string {
  return path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeSegment(segmentText(params[n])));
}

function search(query: Fields, duplicate?: string): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const item of Array.isArray(v) ? v : [v]) s.append(k, typeof item === 'string' ? item : JSON.stringify(item) ?? '');
  }
  if (duplicate && query[duplicate] !== undefined) s.append(duplicate, 'dup');
  const text = s.toString();
  return text ? `?${text}` : '';
}

const objectOf = (schema: JsonSchema | undefined): fc.Arbitrary<Fields> =>
  (schema ? arbitraryOf(schema) : fc.constant({})).map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {}));

/**
 * Requests for `op`: valid from the schemas, then mutated. `key` authenticates most of
 * them; some go without a key, with garbage, or with the key in the query string.
 */
export function fuzzRequests(op: OperationDoc, key: string, bodyLimitBytes: number): fc.Arbitrary<FuzzCase> {
  const base = fc.record({ params: objectOf(op.params), query: objectOf(op.query), body: op.body ? arbitraryOf(op.body) : fc.constant(undefined) });
  const someValue = fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom(...INJECTIONS), UNICODE_TEXT, fc.anything({ maxDepth: 3 }));
  const field = fc.string({ maxLength: 10 });
  const auth = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Record<string, string>>({ authorization: `Bearer ${key}` }) },
    { weight: 1, arbitrary: fc.constantFrom<Record<string, string>>({}, { authorization: 'Bearer svc_live_x' }, { authorization: `Basic ${key}` }, { authorization: `Bearer ${key}\u0000` }) },
  );

  type Shape = {
    mutation: string; params: Fields; query: Fields; body: unknown; raw?: string; contentType?: string; method?: string; duplicate?: string;
    keyInQuery?: boolean; rawPath?: string;
  };
  const mutations: fc.Arbitrary<Shape> = base.chain(({ params, query, body }) => {
    const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Fields) : {};
    return fc.oneof(
      fc.constant<Shape>({ mutation: 'valid', params, query, body }),
      withField(query, field, someValue).map((q): Shape => ({ mutation: 'query value', params, query: q, body })),
      withField(params, field, fc.oneof(someValue, fc.constantFrom('..', '%2F', 'a/b', ' ', '%'))).map((p): Shape => ({ mutation: 'path value', params: p, query, body })),
      // Targeted: the values that used to reach SQL or GraphQL coercion unrefused.
      withField(query, field, NUL_TEXT).map((q): Shape => ({ mutation: 'nul in query', params, query: q, body })),
      withField(b, field, NUL_TEXT).map((x): Shape => ({ mutation: 'nul in body', params, query, body: x })),
      withField(query, field, HUGE).map((q): Shape => ({ mutation: 'huge number in query', params, query: q, body })),
      withField(query, GARBAGE_KEYS, fc.string()).map((q): Shape => ({ mutation: 'garbage query key', params, query: q, body })),
      fc.constantFrom(...Object.keys(query), 'limit', 'q').map((d): Shape => ({ mutation: 'duplicate parameter', params, query, body, duplicate: d })),
      withField(b, field, someValue).map((x): Shape => ({ mutation: 'body value', params, query, body: x })),
      withField(b, GARBAGE_KEYS, fc.anything({ maxDepth: 2 })).map((x): Shape => ({ mutation: 'garbage body key', params, query, body: x })),
      withField(b, fc.constantFrom('name', 'dob', 'patient', 'Email', 'ahv_nr', 'address'), fc.constant(`${PHI_MARKER} 1970-01-01`)).map((x): Shape => ({ mutation: 'phi field', params, query, body: x })),
      fc.oneof(someValue, fc.array(someValue, { maxLength: 3 })).map((x): Shape => ({ mutation: 'body of the wrong type', params, query, body: x })),
      DEEP.map((raw): Shape => ({ mutation: 'deep json', params, query, body, raw: `{"proposed":["a"],"drugs":${raw},"x":${raw}}` })),
      fc.integer({ min: 1000, max: 20_000 }).map((n): Shape => ({ mutation: 'wide json', params, query, body, raw: JSON.stringify({ ...b, wide: Array.from({ length: n }, (_, i) => i) }) })),
      fc.constant<Shape>({ mutation: 'oversize body', params, query, body, raw: `{"x":"${'a'.repeat(bodyLimitBytes + 10)}"}` }),
      fc.constantFrom('{', '{"a":', '[1,]', '\u0000', 'nul', '{"a":1}garbage', '\ufeff{}', '"str"', '1e400', '').map((raw): Shape => ({ mutation: 'malformed json', params, query, body, raw })),
      fc.constantFrom(...CONTENT_TYPES).map((ct): Shape => ({ mutation: 'wrong content type', params, query, body, contentType: ct, raw: JSON.stringify(body ?? {}) })),
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS').map((m): Shape => ({ mutation: 'other verb', params, query, body, method: m })),
      fc.constant<Shape>({ mutation: 'key in query', params, query, body, keyInQuery: true }),
      // Audit findings: identifying values in the query string, a key repeated to hide a first
      // copy, paths the router cannot decode or accept, and many bad values in one body.
      fc.constantFrom('name', 'dob', 'patient', 'mrn').map((k): Shape => ({ mutation: 'phi in query', params, query: { ...query, [k]: `${PHI_MARKER} 1970-01-01` }, body })),
      fc.constantFrom(...Object.keys(b), 'context', 'drugs').map((k): Shape => ({
        mutation: 'repeated body key', params, query, body, raw: `{"${k}":{"name":"${PHI_MARKER}"},${JSON.stringify(b).slice(1, -1)}${Object.keys(b).length ? ',' : ''}"${k}":1}`,
      })),
      fc.constantFrom('%ff', '%E0%A4%A', '%c0%af', '%').map((seg): Shape => ({ mutation: 'bad percent-encoding', params, query, body, rawPath: seg })),
      fc.integer({ min: 101, max: 3000 }).map((n): Shape => ({ mutation: 'long path parameter', params, query, body, rawPath: 'p'.repeat(n) })),
      fc.integer({ min: 200, max: 5000 }).map((n): Shape => ({
        mutation: 'many bad values', params, query, body, raw: JSON.stringify({ ...b, events: Array.from({ length: n }, (_, i) => `bogus${i}`), [`k${n}`]: 1 }),
      })),
    );
  });

  return fc.tuple(mutations, auth).map(([shape, headers]): FuzzCase => {
    const method = (shape.method ?? op.method) as InjectOptions['method'];
    const query = shape.keyInQuery ? { ...shape.query, api_key: key } : shape.query;
    // A raw path segment replaces the first path parameter (or is appended), unencoded.
    const path = shape.rawPath === undefined ? fill(op.path, shape.params)
      : op.path.includes('{') ? fill(op.path.replace(/\{\w+\}/, shape.rawPath), shape.params) : `${op.path}/${shape.rawPath}`;
    const url = `${path}${search(query, shape.duplicate)}`;
    const hasBody = method !== 'GET' && method !== 'HEAD' && (shape.raw !== undefined || shape.body !== undefined);
    const payload = shape.raw ?? (shape.body === undefined ? undefined : JSON.stringify(shape.body));
    const request: InjectOptions = {
      method, url,
      headers: { ...headers, ...(hasBody ? { 'content-type': shape.contentType ?? 'application/json' } : {}) },
      ...(hasBody && payload !== undefined ? { payload } : {}),
    };
    return { mutation: shape.mutation, request };
  });
}
