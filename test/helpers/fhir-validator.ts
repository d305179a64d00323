/**
 * FHIR R4 validation of the /fhir answers with the `fhir` package (FHIR.js): each resource
 * is checked against the R4 structure definitions the package ships (elements and their
 * types, cardinalities, required bindings' value sets, primitive formats), with unknown
 * elements refused so a misspelt element fails the test; then against the R4 invariants
 * that validator does not evaluate (test/helpers/fhir-invariants.ts).
 */
import { Fhir } from 'fhir';
import { invariantProblems } from './fhir-invariants.ts';

const fhir = new Fhir();

/** The validator's errors for a resource, as `<location> <message>`; empty when it conforms. */
export function fhirProblems(resource: unknown): string[] {
  if (typeof (resource as { resourceType?: unknown } | null)?.resourceType !== 'string') return ['no resourceType'];
  const { messages } = fhir.validate(resource as object, { errorOnUnexpected: true });
  const structure = messages.filter((m) => m.severity === 'error').map((m) => `${m.location ?? '/'} ${m.message ?? 'is invalid'}`);
  return [...structure, ...invariantProblems(resource as { resourceType: string })];
}
