/**
 * The one Fastify error handler: every failure becomes drugref's JSON error body with
 * `error` first. Schema failures, malformed JSON, oversize bodies and wrong content
 * types are 422 `validation`; anything unexpected is logged and masked as a 500.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, validationError } from '../../platform/errors.ts';
import { CORS_ANSWER_HEADERS } from './cors.ts';
import { FHIR_JSON_TYPE, isFhirPath, operationOutcome } from './fhir-outcome.ts';

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

const LOCATIONS: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

/** Problems the message names; `details` lists up to MAX_DETAILS and counts the rest. */
const MESSAGE_PROBLEMS = 5;

/** ajv errors → a readable message and structured details. */
function fromSchemaErrors(issues: AjvIssue[], context: string | undefined): ApiError {
  const location = LOCATIONS[context ?? 'body'] ?? 'body';
  const details = issues.map((issue) => {
    const extra = issue.params.additionalProperty ?? issue.params.missingProperty;
    const path = [issue.instancePath.replace(/^\//, '').replace(/\//g, '.'), extra].filter(Boolean).join('.');
    const allowed = issue.keyword === 'enum' ? ` (${(issue.params.allowedValues as unknown[]).join(', ')})` : '';
    const message = issue.keyword === 'additionalProperties' ? 'is not a known parameter' : `${issue.message ?? 'is invalid'}${allowed}`;
    return { location, field: path || null, message };
  });
  const shown = details.slice(0, MESSAGE_PROBLEMS).map((d) => (d.field ? `${d.location} ${d.field} ${d.message}` : `${d.location} ${d.message}`));
  const more = details.length > MESSAGE_PROBLEMS ? `; and ${details.length - MESSAGE_PROBLEMS} more problems (see details)` : '';
  return validationError(`Invalid request: ${shown.join('; ')}${more}.`, details);
}

const BODY_PROBLEMS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty but the content type says JSON.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is larger than the service accepts.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The body must be sent as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The content-length header does not match the body.',
};

/** Maps any thrown value to an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const fastifyError = err as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fastifyError?.validation) return fromSchemaErrors(fastifyError.validation, fastifyError.validationContext);
  const bodyProblem = fastifyError?.code ? BODY_PROBLEMS[fastifyError.code] : undefined;
  if (bodyProblem) return validationError(bodyProblem, [{ location: 'body', field: null, message: bodyProblem }]);
  if (err instanceof SyntaxError && (err as { statusCode?: number }).statusCode === 400) {
    return validationError(BODY_PROBLEMS.FST_ERR_CTP_INVALID_JSON_BODY!);
  }
  return new ApiError('internal_error');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  // CORS headers on every error, also those raised before the CORS hook ran (an OPTIONS that is no preflight).
  const sent = reply.code(error.status).headers({ ...CORS_ANSWER_HEADERS, ...error.headers });
  // The FHIR facade answers errors as OperationOutcome; status and code stay the table's.
  if (isFhirPath(reply.request.url)) return sent.type(FHIR_JSON_TYPE).send(JSON.stringify(operationOutcome(error)));
  return sent.type('application/json').send(JSON.stringify(error.toBody()));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const error = toApiError(err);
    // A deliberate ApiError (a switched-off vault or checkout: 503; an upstream 502) is an
    // expected refusal: warn with its code, no stack. Only the unexpected is an error.
    if (error.status >= 500 && err instanceof ApiError) request.log.warn({ code: error.code, status: error.status, reason: error.message }, 'request refused');
    else if (error.status >= 500) request.log.error({ err }, 'request failed');
    return sendError(reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError('not_found', `No operation answers ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
