/**
 * Route-table entries of the FHIR R4 terminology service under /fhir: metadata (keyless),
 * then CodeSystem/$lookup, CodeSystem/$validate-code, ValueSet/$validate-code,
 * ConceptMap/$translate and ValueSet/$expand, each as GET (query string) and POST
 * (a Parameters resource). Same keys, scope and quota as /v1: one request per call.
 * Answers are application/fhir+json; errors become OperationOutcome in facades/http/errors.ts.
 */
import type { JsonSchema, RouteDef, RouteInput } from './types.ts';
import { FHIR_OPERATION_OUTCOME } from '../rest/fhir-schemas.ts';
import { FHIR_JSON, fhirArgs, fhirQuery, intParam, param, parametersBody, requireArgs } from './fhir-parameters.ts';

const STATUSES = [200, 401, 403, 404, 405, 422, 429];
const headers = (): Record<string, string> => ({ 'content-type': FHIR_JSON });
/** Every /fhir error is an OperationOutcome (facades/http/errors.ts). */
const ERROR_BODIES = { default: { type: 'application/fhir+json', schema: FHIR_OPERATION_OUTCOME } };

interface OperationSpec {
  id: string;
  path: string;
  summary: string;
  description: string;
  /** GET query parameters (the POST Parameters take the same names). */
  query: Record<string, JsonSchema>;
  /** Parameters POST may also carry (coding). */
  extra?: string[];
  required: string[];
  /** Document with `$`-variables named as the parameters. */
  document: string;
  variables: (args: Record<string, unknown>) => Record<string, unknown>;
  notFound?: string;
  mcp: { name: string; description: string };
}

/** The GET and POST entries of one FHIR operation. */
function operation(spec: OperationSpec): RouteDef[] {
  const names = [...Object.keys(spec.query), ...(spec.extra ?? [])];
  const base = {
    path: spec.path, scope: 'drugs:read' as const, summary: spec.summary, description: spec.description, tags: ['fhir'],
    document: spec.document, responseType: 'application/fhir+json', errorBodies: ERROR_BODIES, statuses: STATUSES, headers,
    ...(spec.notFound ? { notFound: spec.notFound } : {}),
  };
  const variables = (input: RouteInput) => {
    const args = fhirArgs(input);
    requireArgs(args, spec.required, input.body === undefined ? 'query' : 'body');
    return spec.variables(args);
  };
  return [
    { ...base, operationId: spec.id, method: 'GET', query: fhirQuery(spec.query, spec.required), variables, mcp: spec.mcp },
    { ...base, operationId: `${spec.id}Post`, method: 'POST', query: fhirQuery({}), body: parametersBody(names), variables, mcp: false },
  ];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

const SYSTEM = param('Code system URI, e.g. http://www.whocc.no/atc, https://www.gs1.org/gtin, http://fhir.de/CodeSystem/ifa/pzn.');
const CODE = param('The code, printed forms accepted (dashed NDC, PZN- prefix).');
const VERSION = param('The code system version: only its current one, as /fhir/metadata?mode=terminology lists it, is held; any other is refused.');
const LANGUAGE = param('Language of the display (BCP 47), e.g. de; the register\'s own name where it has none in that language.');

const metadataRoute: RouteDef = {
  operationId: 'fhirMetadata',
  method: 'GET',
  path: '/fhir/metadata',
  scope: null,
  // FHIR clients read the capabilities before they authenticate: keyless, counted against no
  // quota, limited per address like the OpenAPI document (docs/api-decisions.md).
  public: true,
  limitPerIp: true,
  summary: 'FHIR CapabilityStatement of the terminology service; mode=terminology gives its TerminologyCapabilities.',
  description: 'Keyless and counted against no quota (a key sent along is ignored); limited per address like the OpenAPI document (429 `rate_limited`). TerminologyCapabilities lists each code system with its version: the last confirmed sync of the registers it comes from.',
  tags: ['fhir'],
  query: fhirQuery({ mode: { type: 'string', enum: ['full', 'normative', 'terminology'], description: 'terminology: the TerminologyCapabilities.' } }),
  document: 'query ($mode: String) { fhirCapabilities(mode: $mode) }',
  variables: (input) => ({ mode: input.query.mode ?? null }),
  responseType: 'application/fhir+json',
  errorBodies: ERROR_BODIES,
  headers,
  statuses: [200, 422, 429],
  mcp: false,
};

export const fhirTerminologyRoutes: RouteDef[] = [
  metadataRoute,
  ...operation({
    id: 'fhirLookup', path: '/fhir/CodeSystem/$lookup',
    summary: 'CodeSystem/$lookup: display, designations and properties of a code.',
    description: 'ATC (parent, child, level, DDDs), UNII (names, ATC, RxNorm) and every pack or product code drugref holds (status active or withdrawn, country, ATC, drugref id). 404 OperationOutcome when the code, or the version asked for, is not held.',
    query: { system: SYSTEM, code: CODE, version: VERSION, displayLanguage: LANGUAGE }, extra: ['coding'], required: ['system', 'code'],
    document: 'query ($system: String!, $code: String!, $version: String, $displayLanguage: String) { fhirLookup(system: $system, code: $code, version: $version, displayLanguage: $displayLanguage) }',
    variables: (a) => ({ system: a.system, code: a.code, version: str(a.version), displayLanguage: str(a.displayLanguage) }),
    notFound: 'The code in that code system',
    mcp: { name: 'fhir_lookup_code', description: 'FHIR CodeSystem/$lookup: look up a drug code by its FHIR system URI (ATC http://www.whocc.no/atc, GTIN https://www.gs1.org/gtin, NDC http://hl7.org/fhir/sid/ndc, PZN http://fhir.de/CodeSystem/ifa/pzn, RxNorm, UNII, dm+d, CIP ...): display, designations, status (active/withdrawn) and properties.' },
  }),
  ...operation({
    id: 'fhirValidateCodeSystem', path: '/fhir/CodeSystem/$validate-code',
    summary: 'CodeSystem/$validate-code: is the code one of the system, its display, and why not (or why withdrawn).',
    description: 'result true for any code the registers list, withdrawn ones with a message saying so; false with a message for a malformed or unknown code or a wrong display. A version other than the current one is a 422 OperationOutcome (code-invalid).',
    query: { url: param('The code system URI (same as system).'), system: SYSTEM, code: CODE, version: VERSION, display: param('A display to check.'), displayLanguage: LANGUAGE },
    extra: ['coding'], required: ['code'],
    document: 'query ($system: String!, $code: String!, $version: String, $display: String, $displayLanguage: String) { fhirValidateCode(system: $system, code: $code, version: $version, display: $display, displayLanguage: $displayLanguage) }',
    variables: (a) => ({ system: str(a.system) ?? str(a.url) ?? '', code: a.code, version: str(a.version), display: str(a.display), displayLanguage: str(a.displayLanguage) }),
    mcp: { name: 'fhir_validate_code', description: 'FHIR CodeSystem/$validate-code: check a drug code in a FHIR code system (GTIN, PZN, NDC, ATC ...); result, display, and a message for withdrawn, malformed or unknown codes.' },
  }),
  ...operation({
    id: 'fhirValidateValueSet', path: '/fhir/ValueSet/$validate-code',
    summary: 'ValueSet/$validate-code against an implicit value set (all codes of a system, the marketed codes of a country, the products of an ATC class).',
    description: 'url is <system>?fhir_vs, urn:drugref:valueset:marketed:<country>:<system name> or urn:drugref:valueset:atc:<ATC>:<system name>; withdrawn codes are no members of the marketed sets (result false, message why).',
    query: { url: param('The value set canonical URL.'), system: SYSTEM, code: CODE, version: VERSION, systemVersion: param('Alias of version (the R4 name).'), display: param('A display to check.'), displayLanguage: LANGUAGE },
    extra: ['coding'], required: ['url', 'system', 'code'],
    document: 'query ($url: String!, $system: String!, $code: String!, $version: String, $display: String, $displayLanguage: String) { fhirValidateCode(url: $url, system: $system, code: $code, version: $version, display: $display, displayLanguage: $displayLanguage) }',
    variables: (a) => ({ url: a.url, system: a.system, code: a.code, version: str(a.version) ?? str(a.systemVersion), display: str(a.display), displayLanguage: str(a.displayLanguage) }),
    mcp: { name: 'fhir_validate_value_set_code', description: 'FHIR ValueSet/$validate-code: is a drug code in an implicit value set, e.g. urn:drugref:valueset:marketed:DE:PZN (marketed German PZNs) or urn:drugref:valueset:atc:N02BE:GTIN.' },
  }),
  ...operation({
    id: 'fhirTranslate', path: '/fhir/ConceptMap/$translate',
    summary: 'ConceptMap/$translate: a pack or product code to ATC, RxNorm, UNII, its other codes and the same medicine in other countries.',
    description: 'Each match has an equivalence (equivalent, wider, inexact, relatedto) and its basis as a property: register-atc, active-ingredient, same-record, same-medicine, same-substance or same-atc.',
    query: { system: SYSTEM, code: CODE, version: VERSION, targetsystem: param('Only matches in this code system.'), target: param('Alias of targetsystem.') },
    extra: ['coding'], required: ['system', 'code'],
    document: 'query ($system: String!, $code: String!, $version: String, $target: String) { fhirTranslate(system: $system, code: $code, version: $version, target: $target) }',
    variables: (a) => ({ system: a.system, code: a.code, version: str(a.version), target: str(a.targetsystem) ?? str(a.target) }),
    mcp: { name: 'fhir_translate_code', description: 'FHIR ConceptMap/$translate: map a drug pack/product code (e.g. a GTIN or PZN) to its ATC class, RxNorm, UNII ingredients and the same medicine\'s codes in other countries (targetsystem narrows to one system).' },
  }),
  ...operation({
    id: 'fhirExpand', path: '/fhir/ValueSet/$expand',
    summary: 'ValueSet/$expand with a filter: the drug typeahead as a terminology operation.',
    description: 'url as for ValueSet/$validate-code, or http://www.whocc.no/atc?fhir_vs for ATC (codes by prefix, names by words, with expansion.total); filter (words or a code) is required; count up to 100, offset up to 100.',
    query: { url: param('The value set canonical URL.'), version: param('The value set\'s version: that of its code system, only the current one is held.'), valueSetVersion: param('Alias of version (the R4 name).'), filter: param('Words or a code.'), count: intParam('Codes per page (default 20).', 100), offset: intParam('Codes to skip.', 100), displayLanguage: LANGUAGE },
    required: ['url'],
    document: 'query ($url: String!, $version: String, $filter: String, $count: Int, $offset: Int, $displayLanguage: String) { fhirExpand(url: $url, version: $version, filter: $filter, count: $count, offset: $offset, displayLanguage: $displayLanguage) }',
    variables: (a) => ({ url: a.url, version: str(a.version) ?? str(a.valueSetVersion), filter: str(a.filter), count: int(a.count), offset: int(a.offset), displayLanguage: str(a.displayLanguage) }),
    mcp: { name: 'fhir_expand_value_set', description: 'FHIR ValueSet/$expand: search drug codes of a value set by a text filter, e.g. url urn:drugref:valueset:marketed:CH:GTIN with filter "ibuprofen"; count/offset paging.' },
  }),
];
