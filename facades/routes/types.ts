/**
 * One entry of the route table. Each /v1 operation is declared once here; the REST
 * routes, the OpenAPI document and the MCP tools are all derived from these entries.
 */
import type { Scope } from '../../resolvers/accounts/tiers.ts';
import type { Config } from '../../platform/config.ts';
import type { ApiError } from '../../platform/errors.ts';
import type { ReceiptFacts } from '../http/receipts.ts';
import type { RequestContext } from '../../resolvers/context.ts';

export type JsonSchema = Record<string, unknown>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The validated request, as the route's variable mapping sees it. */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** What the OpenAPI document says of an operation. */
export interface OperationDoc {
  /** Stable camelCase id (OpenAPI operationId). */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/v1/atc/{code}`. */
  path: string;
  /** The one scope the operation needs; null means any valid key. */
  scope: Scope | null;
  summary: string;
  description?: string;
  tags: string[];
  /** JSON Schemas (type object) of path parameters, query string and body. */
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /**
   * A body the operation checks itself (answering its own documented status, e.g. 400
   * `bad_request`, rather than the 422 of schema validation): described in the document only.
   */
  documentedBody?: JsonSchema;
  /**
   * Schema of the success body. Route-table entries leave it out: the document derives it
   * from the route's GraphQL document (facades/rest/route-answers.ts); set it only for an
   * answer no document shapes (streams, and operations outside the route table).
   */
  response?: JsonSchema;
  /** Media type of the success body; default application/json. */
  responseType?: string;
  /**
   * Media types the operation itself answers in (success and its own 400), chosen by the
   * request's Accept, the default first (GraphQL over HTTP). Errors of the shared pipeline
   * (401, 403, 429) stay application/json.
   */
  negotiatedTypes?: string[];
  /** The success answer in other media types, chosen by a parameter (format=fhir). */
  responseAlternatives?: Record<string, JsonSchema>;
  /** Error bodies other than the JSON `Error`, by status ('default': every error status). */
  errorBodies?: Record<string, { type: string; schema: JsonSchema }>;
  /** Status of a successful answer; default 200. */
  successStatus?: number;
  /** Every documented status. */
  statuses: number[];
  /** Needs no key (the OpenAPI document itself). */
  public?: boolean;
}

/** A route-table entry: an operation and how it runs on the internal schema. */
export interface RouteDef extends OperationDoc {
  /** The internal GraphQL document, camelCase; answered with snake_case keys. */
  document: string;
  /** Request → GraphQL variables. Default: params, query and body fields, keys in camelCase. */
  variables?: (input: RouteInput) => Record<string, unknown>;
  /** GraphQL data → response body. Default: the value of the single root field. */
  respond?: (data: Record<string, unknown>, input: RouteInput) => unknown;
  /**
   * The schema counterpart of `respond`: turns the schema of `data` (every root field, as
   * the document selects it) into the schema of the answer. Needed whenever `respond` is.
   */
  answer?: (data: JsonSchema) => JsonSchema;
  /** When the answer is null: 404 `not_found` saying "<notFound> was not found." */
  notFound?: string;
  /** Answers carry an ETag and honour if-none-match with 304. */
  cacheable?: boolean;
  /** Extra response headers decided from the request (e.g. Deprecation). */
  headers?: (input: RouteInput) => Record<string, string>;
  /** Counted against quota (default true). */
  metered?: boolean;
  /** How the operation is offered as an MCP tool; false keeps it off the tool list. */
  mcp?: { name: string; description: string } | false;
  /**
   * A fixed spec outcome answered after auth, quota and scope instead of running
   * `document` (unsupported or retired verbs: BYOL POST → 404, chat/subscribe → 410).
   * Its `document` is then only compiled, never executed.
   */
  refuse?: (config: Config) => ApiError;
  /**
   * The body arrives unparsed as `{ raw, headers }` (raw text and request headers), for
   * callbacks whose signature covers the exact bytes. Use with `public` and no `body` schema.
   */
  rawBody?: boolean;
  /**
   * Runs on the parsed body BEFORE schema validation and throws an ApiError to refuse it
   * (prescription screening refuses identifying fields with `phi_field_rejected`, which must
   * win over `validation` so a PHI body is never echoed in validation details).
   */
  screenBody?: (body: unknown, params: Record<string, unknown>) => void;
  /**
   * The answer carries `receipt`, a signed no-retention receipt over the SHA-256 of the body
   * bytes as received (docs/api-decisions.md "Signed no-retention receipts"); this picks the
   * decision and the data set versions out of the answer.
   */
  receipt?: (body: unknown) => ReceiptFacts;
  /**
   * Where the receipt goes in the answer; default a top-level `receipt` field. CDS Hooks
   * answers carry it in their `extension` object (docs/api-decisions.md "CDS Hooks").
   */
  placeReceipt?: (body: unknown, receipt: string) => unknown;
  /**
   * A keyless (`public`) route limited per client address like the OpenAPI document
   * (PUBLIC_RATE_LIMIT_PER_MINUTE, 429 `rate_limited`): the CDS Hooks discovery document.
   */
  limitPerIp?: boolean;
  /**
   * The answer is streamed (NDJSON exports) instead of running `document`, which is then
   * only compiled. The function checks the request and throws an ApiError to refuse it; it
   * returns the chunks to write. The handler pulls the first chunk before sending anything,
   * so every refusal (and a failure to open the read) is still a normal JSON error; later
   * chunks are written with backpressure (docs/api-decisions.md "Bulk NDJSON exports").
   * Keep such routes off MCP (`mcp: false`): a stream is no tool result.
   */
  stream?: (ctx: RequestContext, input: RouteInput) => Promise<AsyncIterator<string, void, undefined>>;
}
