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
  gone: { status: 410, message: 'This operation is retired.' },
  validation: { status: 422, message: 'The request was understood but refused.' },
  phi_field_rejected: { status: 422, message: 'The body carries identifying fields; only drug identifiers and coarse context are accepted.' },
  quota_exceeded: { status: 429, message: 'The request quota of this account is used up.' },
  rate_limited: { status: 429, message: 'Too many requests from this address.' },
  internal_error: { status: 500, message: 'An unexpected error occurred.' },
  upstream_error: { status: 502, message: 'An upstream data source failed.' },
  bad_gateway: { status: 502, message: 'A backend service failed.' },
  unavailable: { status: 503, message: 'This feature is unavailable right now.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

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

  /** The JSON body: `error` first, then `message`, then the context fields. */
  toBody(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.fields };
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
