/**
 * Checks an answer the server gave against the OpenAPI document it serves: the status must
 * be documented for the operation, the media type listed for that status, and a JSON body
 * must match the schema. Objects that name their fields are closed here (an unknown field
 * is a drift) unless the schema says otherwise. Used by the shared test app only; the
 * serving path never validates its own answers.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { serviceDocument } from '../../facades/app.ts';

type Schema = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Answer {
  method: string;
  /** The request URL, query string included. */
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body as sent; null for a stream, whose body is not checked. */
  body: string | null;
}

/** Requests whose answers the document does not describe: pages, and paths outside the API. */
const API_PATH = /^\/(v1|api\/v1|fhir|cds-services|\.well-known)(\/|$)/;
/** Media types whose body is one JSON value; others (NDJSON, CSV, text) are checked for status and media type only. */
const JSON_TYPE = /^application\/(.+\+)?json$/;

/** A schema with every object that names its fields closed, unless it says how it is open. */
function closeObjects(node: unknown, inAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((item) => closeObjects(item, inAllOf));
  if (!node || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value, key === 'allOf');
  const closable = out.properties && !('additionalProperties' in out) && !('unevaluatedProperties' in out) && !inAllOf && !out.allOf;
  return closable ? { ...out, additionalProperties: false } : out;
}

function pathPattern(template: string): RegExp {
  const source = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}$`);
}

/** The URL's path, percent-decoded where it can be (`$lookup` comes as `%24lookup`). */
function decodedPath(url: string): string {
  const raw = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function pointer(...keys: string[]): string {
  return keys.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

class DocumentCheck {
  private readonly ajv: Ajv2020;
  private readonly doc: Schema;
  /** Templates with fewer parameters first, so `/v1/drugs/search` wins over `/v1/drugs/{id}`. */
  private readonly templates: Array<{ template: string; pattern: RegExp }>;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    this.doc = closeObjects(serviceDocument()) as Schema;
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
    this.ajv.addSchema(this.doc, 'openapi');
    this.templates = Object.keys(this.doc.paths as Schema)
      .map((template) => ({ template, pattern: pathPattern(template), params: (template.match(/\{/g) ?? []).length }))
      .sort((a, b) => a.params - b.params);
  }

  private template(path: string): string | undefined {
    const plain = path === '/api/v1/openapi.json' ? '/v1/openapi.json' : path;
    return this.templates.find(({ pattern }) => pattern.test(plain))?.template;
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi#/${ref}`);
      if (!validate) throw new Error(`no schema at ${ref}`);
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** What is wrong with `answer`, as sentences; empty when it matches or is not described. */
  check(answer: Answer): string[] {
    const method = answer.method.toLowerCase();
    if (method === 'head' || method === 'options') return [];
    const path = decodedPath(answer.url);
    if (!API_PATH.test(path)) return [];
    const template = this.template(path);
    const operation = template ? ((this.doc.paths as Record<string, Schema>)[template]?.[method] as Schema | undefined) : undefined;
    // A path or verb the API does not have: its 404 and 405 are the framework's, not an operation's.
    if (!template || !operation) return [];
    const responses = operation.responses as Record<string, Schema>;
    const response = responses[String(answer.status)];
    if (!response) return [`status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const content = response.content as Record<string, Schema> | undefined;
    const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase();
    if (!content) return answer.body ? [`status ${answer.status} is documented without a body, but one came (${mediaType})`] : [];
    if (!mediaType || !content[mediaType]) return [`media type ${mediaType ?? '(none)'} is not documented for ${answer.status} (documented: ${Object.keys(content).join(', ')})`];
    if (!JSON_TYPE.test(mediaType) || answer.body === null) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`the ${mediaType} body is not JSON`];
    }
    const validate = this.validator(pointer('paths', template, method, 'responses', String(answer.status), 'content', mediaType, 'schema'));
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 8).map((error) => {
      const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : '';
      return `${error.instancePath || '(body)'} ${error.message ?? error.keyword}${extra} [${error.schemaPath}]`;
    });
  }

  /** `METHOD template` of the operation answering `answer`, for messages. */
  describe(answer: Answer): string {
    const path = decodedPath(answer.url);
    return `${answer.method} ${this.template(path) ?? path} → ${answer.status}`;
  }
}

let shared: DocumentCheck | undefined;

/** The check of the document the server serves, built once per test worker. */
export function documentCheck(): DocumentCheck {
  return (shared ??= new DocumentCheck());
}
