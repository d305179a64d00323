/**
 * Refusal of identifying fields in prescription screening bodies. The service processes no
 * protected health information: a body whose field NAMES (at any depth, in any letter case
 * or spelling with separators) denote a person's identity is refused with 422
 * `phi_field_rejected`, naming the path but never the value. Runs before schema validation
 * (as the route's body screen) and again in the resolver, so every facade refuses alike.
 */
import { ApiError } from '../../platform/errors.ts';

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
]);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Paths of every identifying field in `value` (depth-first, document order). */
export function findPhiFields(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => findPhiFields(item, join(path, i)));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const here = join(path, key);
    return PHI_FIELDS.has(normalise(key)) ? [here, ...findPhiFields(child, here)] : findPhiFields(child, here);
  });
}

/** Throws 422 `phi_field_rejected` when the body carries identifying fields. */
export function refusePhi(body: unknown): void {
  const fields = findPhiFields(body);
  if (fields.length === 0) return;
  throw new ApiError('phi_field_rejected',
    `The body carries identifying field(s) ${fields.join(', ')}; only drug identifiers and coarse context are accepted. Nothing was stored or logged.`,
    { fields });
}
