/**
 * A subset of the official FHIR R4 JSON schema (hl7.org/fhir/R4/fhir.schema.json) for the
 * resources the /fhir terminology service emits: Parameters, ValueSet (expansion),
 * CapabilityStatement, TerminologyCapabilities and OperationOutcome. Cardinalities,
 * required elements, value sets of required bindings and primitive patterns are the
 * specification's; unknown elements are refused so a misspelt element fails the test.
 */
import { Ajv } from 'ajv';

const code = { type: 'string', pattern: '^[^\\s]+(\\s[^\\s]+)*$' };
const uri = { type: 'string', pattern: '^\\S*$' };
const str = { type: 'string', pattern: '^[ \\r\\n\\t\\S]+$' };
const dateTime = { type: 'string', pattern: '^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$' };
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });
const coding = closed({ system: uri, version: str, code, display: str, userSelected: { type: 'boolean' } });
const codeableConcept = closed({ coding: { type: 'array', items: coding, minItems: 1 }, text: str });
const publication = { status: { enum: ['draft', 'active', 'retired', 'unknown'] }, date: dateTime, publisher: str, kind: { enum: ['instance', 'capability', 'requirements'] } };

const VALUE_KEYS = ['valueString', 'valueBoolean', 'valueCode', 'valueUri', 'valueCoding', 'valueInteger', 'valueDateTime'];
const parameter: Record<string, unknown> = {
  type: 'object', additionalProperties: false, required: ['name'],
  properties: {
    name: str, valueString: str, valueBoolean: { type: 'boolean' }, valueCode: code, valueUri: uri, valueCoding: coding,
    valueInteger: { type: 'integer' }, valueDateTime: dateTime, part: { type: 'array', minItems: 1, items: { $ref: '#/$defs/parameter' } },
  },
  // inv-1: one and only one of value[x] or part.
  oneOf: [...VALUE_KEYS, 'part'].map((k) => ({ required: [k] })),
};

const contains: Record<string, unknown> = closed({
  system: uri, abstract: { type: 'boolean' }, inactive: { type: 'boolean' }, version: str, code, display: str,
  designation: { type: 'array', items: closed({ language: code, use: coding, value: str }, ['value']) },
  contains: { type: 'array', items: { $ref: '#/$defs/contains' } },
});

const SCHEMAS: Record<string, unknown> = {
  Parameters: closed({ resourceType: { const: 'Parameters' }, id: str, parameter: { type: 'array', items: { $ref: '#/$defs/parameter' } } }, ['resourceType']),
  ValueSet: closed({
    resourceType: { const: 'ValueSet' }, id: str, url: uri, status: publication.status,
    expansion: closed({
      identifier: uri, timestamp: dateTime, total: { type: 'integer' }, offset: { type: 'integer' },
      parameter: { type: 'array', items: closed({ name: str, valueString: str, valueInteger: { type: 'integer' }, valueCode: code, valueBoolean: { type: 'boolean' }, valueUri: uri }, ['name']) },
      contains: { type: 'array', items: { $ref: '#/$defs/contains' } },
    }, ['timestamp']),
  }, ['resourceType', 'status']),
  CapabilityStatement: closed({
    resourceType: { const: 'CapabilityStatement' }, ...publication, instantiates: { type: 'array', items: uri },
    software: closed({ name: str, version: str }, ['name']), implementation: closed({ description: str, url: uri }, ['description']),
    fhirVersion: { enum: ['4.0.0', '4.0.1'] }, format: { type: 'array', minItems: 1, items: code },
    rest: { type: 'array', items: closed({
      mode: { enum: ['client', 'server'] }, security: closed({ description: str }),
      resource: { type: 'array', items: closed({ type: code, operation: { type: 'array', items: closed({ name: str, definition: uri }, ['name', 'definition']) } }, ['type']) },
    }, ['mode']) },
  }, ['resourceType', 'status', 'date', 'kind', 'fhirVersion', 'format']),
  TerminologyCapabilities: closed({
    resourceType: { const: 'TerminologyCapabilities' }, ...publication, software: closed({ name: str }, ['name']),
    codeSystem: { type: 'array', items: closed({
      uri,
      version: { type: 'array', items: closed({ code: str, isDefault: { type: 'boolean' }, compositional: { type: 'boolean' }, language: { type: 'array', items: code }, property: { type: 'array', items: code } }) },
      subsumption: { type: 'boolean' },
    }) },
    expansion: closed({ hierarchical: { type: 'boolean' }, paging: { type: 'boolean' }, incomplete: { type: 'boolean' }, textFilter: str }),
    codeSearch: { enum: ['explicit', 'all'] }, validateCode: closed({ translations: { type: 'boolean' } }, ['translations']),
    translation: closed({ needsMap: { type: 'boolean' } }, ['needsMap']),
  }, ['resourceType', 'status', 'date', 'kind']),
  OperationOutcome: closed({
    resourceType: { const: 'OperationOutcome' }, id: str,
    issue: { type: 'array', minItems: 1, items: closed({
      severity: { enum: ['fatal', 'error', 'warning', 'information'] },
      code: { enum: ['invalid', 'structure', 'required', 'value', 'invariant', 'security', 'login', 'unknown', 'expired', 'forbidden', 'suppressed', 'processing', 'not-supported', 'duplicate', 'multiple-matches', 'not-found', 'deleted', 'too-long', 'code-invalid', 'extension', 'too-costly', 'business-rule', 'conflict', 'transient', 'lock-error', 'no-store', 'exception', 'timeout', 'incomplete', 'throttled', 'informational'] },
      details: codeableConcept, diagnostics: str, expression: { type: 'array', items: str },
    }, ['severity', 'code']) },
  }, ['resourceType', 'issue']),
};

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = Object.fromEntries(Object.entries(SCHEMAS).map(([type, schema]) => [
  type, ajv.compile({ $defs: { parameter, contains }, ...(schema as object) }),
]));

/** The schema errors of a resource (by its resourceType), empty when it conforms. */
export function fhirProblems(resource: unknown): string[] {
  const type = (resource as { resourceType?: string } | null)?.resourceType;
  const validate = type ? validators[type] : undefined;
  if (!validate) return [`no schema for resourceType ${String(type)}`];
  return validate(resource) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
