/**
 * The spec's error codes in one table: code → HTTP status and default message. Every
 * surface (REST, GraphQL extensions, MCP tool results) takes status and text from here,
 * and docs/errors.md lists the same table (a test keeps them equal).
 */

export const ERRORS = {
  bad_request: { status: 400, message: 'The request could not be understood.' },
  graphql_rejected: { status: 400, message: 'The GraphQL document is not accepted by the public endpoint.' },
  unauthorized: { status: 401, message: 'A valid API key is required in the header `Authorization: Bearer <key>`.' },
  ai_allowance_exhausted: { status: 402, message: 'The AI answer allowance and prepaid packs are used up.' },
  forbidden: { status: 403, message: 'The API key does not grant the scope this operation needs.' },
  upgrade_required: { status: 403, message: 'This operation is available on paid plans only.' },
  not_found: { status: 404, message: 'The identifier resolved to nothing.' },
  webhook_not_found: { status: 404, message: 'No webhook subscription with that id belongs to this account.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  gone: { status: 410, message: 'This operation is retired.' },
  uri_too_long: { status: 414, message: 'The request path is too long.' },
  validation: { status: 422, message: 'The request was understood but refused.' },
  phi_field_rejected: { status: 422, message: 'The body carries identifying fields; only drug identifiers and coarse context are accepted.' },
  quota_exceeded: { status: 429, message: 'The request quota of this account is used up.' },
  rate_limited: { status: 429, message: 'Too many requests from this address.' },
  headers_too_large: { status: 431, message: 'The request header fields are larger than the service accepts.' },
  internal_error: { status: 500, message: 'An unexpected error occurred.' },
  upstream_error: { status: 502, message: 'An upstream data source failed.' },
  bad_gateway: { status: 502, message: 'A backend service failed.' },
  unavailable: { status: 503, message: 'This feature is unavailable right now.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Details an error body lists at most; the rest are counted in `details_total`. */
export const MAX_DETAILS = 20;
const MAX_MESSAGE_CHARS = 1_000;
const MAX_DETAIL_TEXT_CHARS = 200;

/** `text` cut to `max` characters, saying how long it was. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all)`;
}

function clipDetail(detail: unknown): unknown {
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) return typeof detail === 'string' ? clip(detail, MAX_DETAIL_TEXT_CHARS) : detail;
  return Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, typeof v === 'string' ? clip(v, MAX_DETAIL_TEXT_CHARS) : v]));
}

/** Extra fields of an error body (`tier`, `missing_scope`, `details` ...). */
export type ErrorFields = Record<string, unknown>;

/** The one error class: a spec code, a client-safe message and context fields. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: ErrorFields;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, fields: ErrorFields = {}, headers: Record<string, string> = {}) {
    super(message ?? ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.fields = fields;
    this.headers = headers;
  }

  /**
   * The JSON body: `error` first, then `message`, then the context fields. Bounded whatever
   * the input: at most MAX_DETAILS details (`details_total` counts them all) and long texts
   * cut, so a large bad request never earns a larger answer nor has its input echoed back.
   */
  toBody(): Record<string, unknown> {
    const { details, ...fields } = this.fields;
    const body: Record<string, unknown> = { error: this.code, message: clip(this.message, MAX_MESSAGE_CHARS), ...fields };
    if (Array.isArray(details)) {
      body.details = details.slice(0, MAX_DETAILS).map(clipDetail);
      if (details.length > MAX_DETAILS) body.details_total = details.length;
    } else if (details !== undefined) body.details = details;
    return body;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** A 422 `validation` with a reason and structured details. */
export function validationError(message: string, details: unknown[] = []): ApiError {
  return new ApiError('validation', message, { details });
}

/** A 404 `not_found` naming what was looked for. */
export function notFound(what: string): ApiError {
  return new ApiError('not_found', `${what} was not found.`);
}
