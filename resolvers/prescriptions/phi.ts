/**
 * Refusal of identifying fields in prescription screening bodies. The service processes no
 * protected health information: a body whose field NAMES (at any depth, in any letter case
 * or spelling with separators) denote a person's identity is refused with 422
 * `phi_field_rejected`, naming the path but never the value. Runs before schema validation
 * (as the route's body screen) and again in the resolver, so every facade refuses alike.
 */
import { ApiError, validationError } from '../../platform/errors.ts';

/** Identifying field names, compared lower case with separators removed (`Date_Of-Birth` → `dateofbirth`). */
export const PHI_FIELDS: ReadonlySet<string> = new Set([
  'name', 'firstname', 'lastname', 'surname', 'givenname', 'familyname', 'fullname', 'middlename', 'maidenname', 'patientname', 'initials',
  'dob', 'dateofbirth', 'birthdate', 'birthday', 'dayofbirth',
  'mrn', 'medicalrecordnumber', 'medicalrecord', 'patientid', 'patientnumber', 'recordnumber', 'casenumber',
  'email', 'emailaddress', 'mail',
  'ssn', 'socialsecuritynumber', 'socialsecurity', 'nationalid', 'nationalidnumber', 'nhsnumber', 'insurancenumber', 'insuranceid',
  'policynumber', 'memberid', 'passport', 'passportnumber', 'driverslicense', 'driverslicence',
  'ahv', 'ahvnumber', 'ahvnr', 'avs', 'avsnumber', 'nss', 'versichertennummer', 'krankenkassennummer',
  'address', 'streetaddress', 'street', 'homeaddress', 'postaladdress', 'postcode', 'postalcode', 'zip', 'zipcode', 'city',
  'phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'mobilenumber', 'cellphone', 'fax',
  'ip', 'ipaddress', 'deviceid',
  // FHIR's contact points and pictures of a person (Patient, RelatedPerson, Practitioner).
  'telecom', 'photo',
]);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * Deepest nesting a screened body may have. The schema's own bodies nest four levels; the
 * margin keeps honest clients far from it while a 2,000-level body is refused in constant
 * stack (the scan below is iterative, so depth never costs stack, only this bound).
 */
export const MAX_BODY_DEPTH = 32;

interface Pending {
  value: unknown;
  path: string;
  depth: number;
  /** The key that led here names an identifying field. */
  phi: boolean;
}

/**
 * A further rule for a body format whose identifying content is not told by field names
 * alone (a FHIR Patient resource, a reference to a person carrying its display name): it
 * sees each member (object key or array index) and its value and says whether that member
 * identifies a person. The CDS Hooks service passes one; field names are still checked.
 */
export type PhiRule = (key: string | number, value: unknown) => boolean;

/**
 * Paths of every identifying field in `value` (depth-first, document order). Iterative with
 * an explicit stack, so hostile nesting cannot overflow the call stack; a body nested deeper
 * than MAX_BODY_DEPTH is refused with 422 `validation` (it cannot be a valid body anyway).
 */
export function findPhiFields(value: unknown, rule?: PhiRule): string[] {
  const found: string[] = [];
  const stack: Pending[] = [{ value, path: '', depth: 0, phi: false }];
  while (stack.length) {
    const { value: node, path, depth, phi } = stack.pop()!;
    // Recorded when visited, so a field comes before the fields nested in it (document order).
    if (phi) found.push(path);
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw validationError(`The body is nested deeper than ${MAX_BODY_DEPTH} levels.`, [
        { location: 'body', field: path || null, message: `nesting deeper than ${MAX_BODY_DEPTH} levels` },
      ]);
    }
    const children: Pending[] = [];
    if (Array.isArray(node)) {
      node.forEach((item, i) => children.push({ value: item, path: join(path, i), depth: depth + 1, phi: rule?.(i, item) ?? false }));
    } else {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        children.push({ value: child, path: join(path, key), depth: depth + 1, phi: PHI_FIELDS.has(normalise(key)) || (rule?.(key, child) ?? false) });
      }
    }
    // Reversed onto the stack so children are visited in document order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** Throws 422 `phi_field_rejected` when the body carries identifying fields (`rule` adds a format's own). */
export function refusePhi(body: unknown, rule?: PhiRule): void {
  const fields = findPhiFields(body, rule);
  if (fields.length === 0) return;
  throw new ApiError('phi_field_rejected',
    `The body carries identifying field(s) ${fields.join(', ')}; only drug identifiers and coarse context are accepted. Nothing was stored or logged.`,
    { fields });
}
