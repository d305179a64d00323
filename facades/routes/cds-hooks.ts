/**
 * Route-table entries of the CDS Hooks 2.0 service (cds-hooks.hl7.org): the discovery
 * document at GET /cds-services (keyless, limited per address) and one service call at
 * POST /cds-services/{id} (the caller's API key as the CDS client's bearer, scope
 * interactions:write, one request counted). The paths are the protocol's, not /v1: a CDS
 * client appends them to the base URL it is given. Answers keep the protocol's camelCase
 * (explicit aliases in the documents), drugref's own facts travel in `extension`.
 */
import { OPAQUE_CONTEXT_IDS, screenCdsRequest } from '../../resolvers/cds/screen.ts';
import { CDS_SERVICES, MEDICATIONS_PREFETCH } from '../../resolvers/cds/services.ts';
import { datasetsOfMeta } from '../http/receipts.ts';
import { SOURCES } from './catalogue.ts';
import type { JsonSchema, RouteDef } from './types.ts';
import { closedObject, member, withoutNull, withoutNullMembers } from '../rest/answer-schema.ts';

/** Names of drugref's members of a CDS Hooks answer's `extension` object. */
export const CDS_EXTENSION = {
  receipt: 'drugref.receipt',
  decision: 'drugref.decision',
  sources: 'drugref.sources',
  notice: 'drugref.notice',
} as const;

const FHIR_ID = '^[A-Za-z0-9.-]{1,64}$';
const RESOURCE: JsonSchema = { type: 'object', required: ['resourceType'], properties: { resourceType: { type: 'string', minLength: 1, maxLength: 64 } } };
const BUNDLE: JsonSchema = {
  type: 'object', required: ['resourceType'], description: 'A FHIR Bundle (R4; STU3 and R5 medication shapes are read too).',
  properties: {
    resourceType: { type: 'string', enum: ['Bundle'] },
    entry: { type: 'array', maxItems: 200, items: { type: 'object', properties: { resource: RESOURCE } } },
  },
};

const REQUEST: JsonSchema = {
  type: 'object', required: ['hook', 'hookInstance', 'context'], additionalProperties: false,
  properties: {
    hook: { type: 'string', enum: [...new Set(CDS_SERVICES.map((s) => s.hook))], description: 'The hook that fired; must be the service\'s own.' },
    hookInstance: { type: 'string', minLength: 1, maxLength: 128, description: 'UUID of this hook call.' },
    fhirServer: { type: 'string', maxLength: 2048, description: 'Accepted and never used: drugref does not call the client\'s FHIR server.' },
    fhirAuthorization: { type: 'object', description: 'Accepted and never used or logged: drugref does not call the client\'s FHIR server.' },
    context: {
      type: 'object', required: ['draftOrders'], additionalProperties: false,
      properties: {
        [OPAQUE_CONTEXT_IDS[0]]: { type: 'string', pattern: FHIR_ID, description: 'Opaque FHIR Patient.id; never read, echoed or stored.' },
        [OPAQUE_CONTEXT_IDS[1]]: { type: 'string', pattern: '^(?:[A-Za-z]{1,32}/)?[A-Za-z0-9.-]{1,64}$', description: 'Opaque user reference (Practitioner/123); never read.' },
        [OPAQUE_CONTEXT_IDS[2]]: { type: 'string', pattern: FHIR_ID, description: 'Opaque FHIR Encounter.id; never read.' },
        selections: { type: 'array', maxItems: 50, items: { type: 'string', pattern: '^[A-Za-z]{1,64}/[A-Za-z0-9.-]{1,64}$' }, description: 'order-select: the newly selected orders, e.g. MedicationRequest/103.' },
        draftOrders: BUNDLE,
      },
    },
    prefetch: {
      type: 'object', additionalProperties: false, description: 'Only the key the discovery document asks for.',
      properties: { [MEDICATIONS_PREFETCH]: { anyOf: [BUNDLE, { type: 'null' }] } },
    },
    extension: { type: 'object' },
  },
};

type Answer = { cards: unknown[]; decision: string; _meta: { sources: unknown[]; notice: string | null } };
type Shaped = { cards: unknown[]; extension: Record<string, unknown> };

/** Omits nulls at every depth: CDS Hooks (and FHIR) want absent members, never null ones. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

const discoveryRoute: RouteDef = {
  operationId: 'cdsDiscovery',
  method: 'GET',
  path: '/cds-services',
  scope: null,
  public: true,
  limitPerIp: true,
  summary: 'CDS Hooks discovery: the medication screening services for order-select and order-sign.',
  description: 'Keyless (a CDS client reads it when the service is registered; its own Authorization header, often a JWT, is ignored) and limited per address like the OpenAPI document. Each service gives id, hook, title, description and one prefetch template for the active medications.',
  tags: ['cds-hooks'],
  document: '{ cdsServices: cdsServices { id hook title description prefetch } }',
  respond: (data) => ({ services: data.cdsServices }),
  answer: (data) => closedObject({ services: member(data, 'cdsServices') }),
  cacheable: true,
  statuses: [200, 429],
  mcp: false,
};

const serviceRoute: RouteDef = {
  operationId: 'cdsService',
  method: 'POST',
  path: '/cds-services/{id}',
  scope: 'interactions:write',
  summary: 'CDS Hooks service call: cards for the draft medication orders (interactions, duplicate therapy, unrecognised codes).',
  description: 'Reads only medication codes (RxNorm, ATC, GTIN, NDC, PZN, CIP, CIS, dm+d/SNOMED; medicationReference resolved against contained or bundled Medication resources). A request carrying identifying content (field names such as name, birthDate, address, telecom; a Patient, RelatedPerson or Person resource; a reference to the patient with a display or identifier) is refused with 422 phi_field_rejected before validation; context.patientId, userId and encounterId are opaque ids, never read. Nothing is stored or logged. The answer is `{ cards, extension }`; `extension["drugref.receipt"]` is the signed no-retention receipt (verify with /.well-known/jwks.json). One request is counted.',
  tags: ['cds-hooks'],
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100, description: `Service id: ${CDS_SERVICES.map((s) => s.id).join(' or ')}.` } } },
  body: REQUEST,
  screenBody: screenCdsRequest,
  variables: (input) => ({ serviceId: input.params.id, request: input.body }),
  document: `query ($serviceId: String!, $request: JSON!) { cdsHook: cdsHook(serviceId: $serviceId, request: $request) {
    cards { uuid summary detail indicator source { label url topic { system code display } }
      suggestions { label uuid isRecommended: isRecommended actions { type description resource resourceId: resourceId } }
      selectionBehavior: selectionBehavior overrideReasons: overrideReasons { system code display } }
    decision ${SOURCES} } }`,
  respond: (data) => {
    const answer = data.cdsHook as Answer;
    return {
      cards: withoutNulls(answer.cards),
      extension: {
        [CDS_EXTENSION.decision]: answer.decision,
        [CDS_EXTENSION.sources]: answer._meta.sources,
        ...(answer._meta.notice ? { [CDS_EXTENSION.notice]: answer._meta.notice } : {}),
      },
    };
  },
  answer: (data) => {
    const answer = member(data, 'cdsHook');
    const meta = member(answer, '_meta');
    return closedObject({
      cards: withoutNullMembers(member(answer, 'cards')),
      extension: closedObject({
        [CDS_EXTENSION.decision]: member(answer, 'decision'),
        [CDS_EXTENSION.sources]: member(meta, 'sources'),
        [CDS_EXTENSION.notice]: withoutNull(member(meta, 'notice')),
        [CDS_EXTENSION.receipt]: { type: 'string', description: 'Signed no-retention receipt (compact JWS, EdDSA); verify with /.well-known/jwks.json.' },
      }, [CDS_EXTENSION.notice], 'drugref\'s facts: the decision, the data sets used, a notice, the receipt.'),
    });
  },
  receipt: (body) => {
    const { extension } = body as Shaped;
    return { decision: String(extension[CDS_EXTENSION.decision]), datasets: datasetsOfMeta({ _meta: { sources: extension[CDS_EXTENSION.sources] } }) };
  },
  placeReceipt: (body, receipt) => ({ ...(body as Shaped), extension: { ...(body as Shaped).extension, [CDS_EXTENSION.receipt]: receipt } }),
  statuses: [200, 401, 403, 404, 422, 429],
  // A CDS client speaks HTTP; a language model has no draft orders to send.
  mcp: false,
};

export const cdsHooksRoutes: RouteDef[] = [discoveryRoute, serviceRoute];
