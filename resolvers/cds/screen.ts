/**
 * What a CDS Hooks request may carry, checked before schema validation (so an identifying
 * body is refused as such and never echoed in validation details): the service must exist
 * (404), and nothing may identify a person (422 `phi_field_rejected`, exactly as
 * POST /v1/prescriptions/validate refuses, through the same detector).
 *
 * CDS Hooks requires `context.patientId` and `context.userId` (and allows `encounterId`):
 * opaque FHIR logical ids of the client's own server, meaningless outside it. They are
 * exempt from the field-name screen, checked by the schema to look like FHIR ids, and then
 * never read, echoed, stored or logged. Everything else goes through the detector, with
 * two FHIR rules added: a person resource (Patient, RelatedPerson, Person) anywhere, and a
 * reference to a person that carries a `display` (a name) or an `identifier` (an MRN).
 */
import { refusePhi } from '../prescriptions/phi.ts';
import type { PhiRule } from '../prescriptions/phi.ts';
import { cdsService } from './services.ts';

/** The context members CDS Hooks requires as opaque ids. */
export const OPAQUE_CONTEXT_IDS = ['patientId', 'userId', 'encounterId'] as const;

const PERSON_RESOURCES = new Set(['Patient', 'RelatedPerson', 'Person']);
const PERSON_REFERENCE = /^(?:.*\/)?(?:Patient|RelatedPerson|Person)\/[^/]+$/;
/** FHIR elements that reference the patient (MedicationRequest.subject, Coverage.beneficiary ...). */
const PERSON_LINKS = new Set(['subject', 'patient', 'beneficiary', 'informationSource']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A person resource, or a reference to a person that names or identifies them. */
export const fhirPersonRule: PhiRule = (key, value) => {
  if (!isObject(value)) return false;
  if (typeof value.resourceType === 'string' && PERSON_RESOURCES.has(value.resourceType)) return true;
  const pointsAtPerson = (typeof key === 'string' && PERSON_LINKS.has(key))
    || (typeof value.reference === 'string' && PERSON_REFERENCE.test(value.reference));
  return pointsAtPerson && ('display' in value || 'identifier' in value);
};

/** The body without the opaque context ids the protocol requires (they are not screened by name). */
function withoutOpaqueIds(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.context)) return body;
  const context = { ...body.context };
  for (const key of OPAQUE_CONTEXT_IDS) {
    // Only a plain string is exempt: an object under `patientId` is screened like anything else.
    if (typeof context[key] === 'string') delete context[key];
  }
  return { ...body, context };
}

/** Route screen of POST /cds-services/{id}: unknown service → 404, identifying content → 422. */
export function screenCdsRequest(body: unknown, params: Record<string, unknown>): void {
  cdsService(params.id);
  refusePhi(withoutOpaqueIds(body), fhirPersonRule);
}
