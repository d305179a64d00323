/**
 * GraphQL errors of the public endpoint in the spec's vocabulary: every error carries
 * `extensions.code` from the one error table; a resolver's ApiError keeps its code and
 * context fields, anything unexpected is logged and masked as `internal_error`.
 */
import type { GraphQLError } from 'graphql';
import { ApiError, ERRORS, MAX_DETAILS, clip } from '../../platform/errors.ts';
import type { ErrorCode } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';

/** The JSON form of one GraphQL error (GraphQL over HTTP `errors[]` element). */
export interface PublicError {
  message: string;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  path?: ReadonlyArray<string | number>;
  extensions: { code: ErrorCode } & Record<string, unknown>;
}

function position(error: GraphQLError): Pick<PublicError, 'locations' | 'path'> {
  return {
    ...(error.locations?.length ? { locations: error.locations } : {}),
    ...(error.path?.length ? { path: error.path } : {}),
  };
}

/** Errors of a document the endpoint refused (parse or validation): their text is safe. */
export function rejectionErrors(errors: readonly GraphQLError[]): PublicError[] {
  return errors.map((error) => ({
    message: error.message,
    ...position(error),
    extensions: { reason: 'invalid', ...error.extensions, code: 'graphql_rejected' },
  }));
}

/** Errors raised while executing: ApiErrors keep their code, the rest is masked and logged. */
export function executionErrors(errors: readonly GraphQLError[], log: Logger): PublicError[] {
  return errors.map((error) => {
    const original = error.originalError;
    if (original instanceof ApiError) {
      return { message: original.message, ...position(error), extensions: { code: original.code, ...original.fields } };
    }
    log.error({ err: original ?? error, path: error.path }, 'public graphql field failed');
    return { message: ERRORS.internal_error.message, ...position(error), extensions: { code: 'internal_error' } };
  });
}

/** Longest error text of a refusal: a parse error quotes the offending token, which may be huge. */
const MAX_ERROR_TEXT = 300;

/**
 * The 400 answer: the spec's error body (`error` first) plus `errors` for GraphQL clients,
 * bounded like every error body (at most MAX_DETAILS errors, texts cut).
 */
export function refusalBody(error: ApiError, errors: PublicError[]): Record<string, unknown> {
  const shown = errors.slice(0, MAX_DETAILS).map((e) => ({ ...e, message: clip(e.message, MAX_ERROR_TEXT) }));
  return { ...error.toBody(), message: clip(error.message, MAX_ERROR_TEXT), errors: shown, ...(errors.length > MAX_DETAILS ? { errors_total: errors.length } : {}) };
}
