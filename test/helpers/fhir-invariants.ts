/**
 * What the JSON schema and the `fhir` package leave out, checked beside them: the R4 invariants
 * (FHIRPath rules of the structure definitions, expressions as published) of the resources
 * the /fhir service answers, evaluated by the `fhirpath` package with its R4 model, and the
 * JSON format's rule that an element is never empty (no "" string, {} object, [] array or
 * null; element invariant ele-1).
 */
import fhirpath from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';

interface Invariant { key: string; context: string; expression: string }

/** R4 invariants by resource type: `context` selects the elements each rule holds on. */
const INVARIANTS: Record<string, Invariant[]> = {
  Parameters: [
    { key: 'inv-1', context: 'Parameters.repeat(parameter | part)', expression: '(part.exists() and value.empty()) or (part.empty() and value.exists())' },
  ],
  CapabilityStatement: [
    { key: 'cpb-1', context: 'CapabilityStatement', expression: 'rest.exists() or messaging.exists() or document.exists()' },
    { key: 'cpb-2', context: 'CapabilityStatement', expression: '(description.count() + software.count() + implementation.count()) > 0' },
    { key: 'cpb-14', context: 'CapabilityStatement', expression: "(kind != 'instance') or implementation.exists()" },
  ],
  TerminologyCapabilities: [
    { key: 'tcp-2', context: 'TerminologyCapabilities', expression: '(description.count() + software.count() + implementation.count()) > 0' },
    { key: 'tcp-3', context: 'TerminologyCapabilities', expression: "(kind != 'instance') or implementation.exists()" },
  ],
  ValueSet: [
    { key: 'vsd-6', context: 'ValueSet.expansion.repeat(contains)', expression: 'code.exists() or display.exists()' },
    { key: 'vsd-9', context: 'ValueSet.expansion.repeat(contains)', expression: 'code.exists() or abstract = true' },
    { key: 'vsd-10', context: 'ValueSet.expansion.repeat(contains)', expression: 'code.empty() or system.exists()' },
  ],
  OperationOutcome: [],
};

/** Paths of empty values (FHIR JSON never carries one). */
function emptyValues(value: unknown, path: string): string[] {
  if (value === null || value === '') return [`${path} is empty`];
  if (Array.isArray(value)) return value.length ? value.flatMap((v, i) => emptyValues(v, `${path}[${i}]`)) : [`${path} is an empty array`];
  if (typeof value !== 'object') return [];
  const entries = Object.entries(value);
  return entries.length ? entries.flatMap(([k, v]) => emptyValues(v, `${path}.${k}`)) : [`${path} is an empty object`];
}

/** The R4 invariants and JSON format rules a resource breaks, as `<key> <what>`. */
export function invariantProblems(resource: { resourceType: string }): string[] {
  const rules = INVARIANTS[resource.resourceType];
  if (!rules) return [`no invariants known for ${resource.resourceType}`];
  const broken = rules.flatMap((rule) => {
    const failing = (fhirpath.evaluate(resource, `${rule.context}.where((${rule.expression}).not()).count()`, undefined, r4) as unknown[])[0];
    return failing === 0 ? [] : [`${rule.key} fails on ${String(failing)} element(s) of ${rule.context}: ${rule.expression}`];
  });
  return [...broken, ...emptyValues(resource, resource.resourceType).map((p) => `ele-1 ${p}`)];
}
