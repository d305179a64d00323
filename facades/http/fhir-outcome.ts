/**
 * Errors of the /fhir paths as FHIR R4 OperationOutcome. Code and status still come from
 * the one error table (platform/errors.ts); only the body's shape changes, and the
 * table's code travels in `issue.details.coding` so clients can branch on it.
 */
import type { ApiError, ErrorCode } from '../../platform/errors.ts';

/** Media type of /fhir answers and errors. */
export const FHIR_JSON_TYPE = 'application/fhir+json; charset=utf-8';

/** Code system of drugref's error codes inside an OperationOutcome. */
export const ERROR_CODE_SYSTEM = 'urn:drugref:error';

/** FHIR IssueType (http://hl7.org/fhir/issue-type) of each error code; `processing` otherwise. */
const ISSUE_TYPES: Partial<Record<ErrorCode, string>> = {
  bad_request: 'invalid', validation: 'invalid', phi_field_rejected: 'security',
  unauthorized: 'login', forbidden: 'forbidden', upgrade_required: 'forbidden',
  not_found: 'not-found', method_not_allowed: 'not-supported', gone: 'deleted',
  request_timeout: 'timeout', uri_too_long: 'too-long', headers_too_large: 'too-long',
  quota_exceeded: 'throttled', rate_limited: 'throttled',
  internal_error: 'exception', upstream_error: 'transient', bad_gateway: 'transient', unavailable: 'transient',
};

/** Whether a request path is served by the FHIR facade. */
export function isFhirPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path === '/fhir' || path.startsWith('/fhir/');
}

/** IssueTypes an error may name itself in its `issue_type` field (a code refused as invalid). */
const OWN_ISSUE_TYPES = new Set(['code-invalid', 'not-found']);

/** The OperationOutcome of an error: its message as diagnostics, its code as a coding. */
export function operationOutcome(error: ApiError): Record<string, unknown> {
  const body = error.toBody();
  const own = typeof error.fields.issue_type === 'string' && OWN_ISSUE_TYPES.has(error.fields.issue_type) ? error.fields.issue_type : null;
  // The fields a validation names become the issue's expressions (the elements at fault).
  const fields = Array.isArray(body.details) ? body.details.map((d: { field?: unknown }) => d?.field).filter((f): f is string => typeof f === 'string') : [];
  return {
    resourceType: 'OperationOutcome',
    issue: [{
      severity: error.status >= 500 ? 'fatal' : 'error',
      code: own ?? ISSUE_TYPES[error.code] ?? 'processing',
      details: { coding: [{ system: ERROR_CODE_SYSTEM, code: error.code }], text: String(body.message) },
      diagnostics: String(body.message),
      ...(fields.length ? { expression: [...new Set(fields)] } : {}),
    }],
  };
}

/**
 * The URL routed for a request: FHIR clients percent-encode the `$` of an operation
 * (`/fhir/CodeSystem/%24lookup`), which the router would not match; only /fhir paths change.
 */
export function routedUrl(url: string): string {
  return isFhirPath(url) ? url.replace(/\/%24(?=[A-Za-z-]+(?:[?#]|$))/i, '/$') : url;
}
