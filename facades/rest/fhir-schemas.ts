/**
 * JSON Schemas of the FHIR R4 resources drugref answers (application/fhir+json): the
 * elements it writes, named as FHIR R4 names them (hl7.org/fhir/R4), closed so that an
 * element the service starts to send shows up as a change of this document.
 */
import type { JsonSchema } from '../routes/types.ts';

const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
const closed = (required: string[], properties: Record<string, JsonSchema>, description?: string): JsonSchema =>
  ({ type: 'object', required, properties, additionalProperties: false, ...(description ? { description } : {}) });
const list = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) });
const resourceType = (name: string): JsonSchema => ({ type: 'string', const: name });

const CODING = closed(['system', 'code'], { system: str('Code system URI.'), code: str(), display: str() });
const CODEABLE_CONCEPT = closed([], { coding: list(CODING), text: str() });
const QUANTITY = closed(['value', 'unit'], { value: { type: 'number' }, unit: str(), system: str('http://unitsofmeasure.org'), code: str('UCUM code.') });

/** One `parameter` of a Parameters resource; `part` nests parameters of the same form. */
const PARAMETER: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: str('Parameter name (FHIR R4 operation definition).'),
    valueString: str(),
    valueCode: str(),
    valueUri: str(),
    valueBoolean: { type: 'boolean' },
    valueInteger: { type: 'integer' },
    valueCoding: CODING,
    part: list({ $ref: '#/components/schemas/FhirParameter' }, 'Nested parameters (designation, property, match).'),
  },
};

export const FHIR_PARAMETERS = closed(['resourceType', 'parameter'], {
  resourceType: resourceType('Parameters'),
  parameter: list({ $ref: '#/components/schemas/FhirParameter' }),
}, 'FHIR R4 Parameters: the output of $lookup, $validate-code or $translate.');

export const FHIR_VALUE_SET = closed(['resourceType', 'url', 'status', 'expansion'], {
  resourceType: resourceType('ValueSet'),
  url: str('The implicit value set expanded.'),
  version: str('Version of its code system (the last confirmed sync).'),
  status: { type: 'string', enum: ['active'] },
  expansion: closed(['identifier', 'timestamp', 'offset', 'parameter'], {
    identifier: str('urn:uuid of this expansion.'),
    timestamp: { type: 'string', format: 'date-time' },
    total: { type: 'integer', minimum: 0, description: 'Codes in the whole expansion, where known (the ATC value set).' },
    offset: { type: 'integer', minimum: 0 },
    parameter: list({ $ref: '#/components/schemas/FhirParameter' }, 'The filter, count, offset and displayLanguage applied.'),
    contains: list(closed(['system', 'code', 'display'], {
      system: str(), code: str(), display: str(), inactive: { type: 'boolean', const: true },
      designation: list(closed(['language', 'value'], { language: str(), value: str() })),
    }), 'Absent when nothing matched.'),
  }),
}, 'FHIR R4 ValueSet with its expansion ($expand).');

const CAPABILITY_COMMON = {
  status: { type: 'string', enum: ['active'] },
  date: { type: 'string', format: 'date-time' },
  publisher: str(),
  kind: { type: 'string', enum: ['instance'] },
  software: closed(['name'], { name: str() }),
  implementation: closed(['description'], { description: str() }),
};

const CAPABILITY_STATEMENT = closed(['resourceType', 'status', 'date', 'kind', 'fhirVersion', 'format', 'rest'], {
  resourceType: resourceType('CapabilityStatement'),
  ...CAPABILITY_COMMON,
  instantiates: list(str()),
  fhirVersion: { type: 'string', const: '4.0.1' },
  format: list(str()),
  rest: list(closed(['mode', 'resource'], {
    mode: { type: 'string', enum: ['server'] },
    security: closed(['description'], { description: str() }),
    resource: list(closed(['type', 'operation'], {
      type: str('CodeSystem, ValueSet or ConceptMap.'),
      operation: list(closed(['name', 'definition'], { name: str(), definition: str() })),
    })),
  })),
}, 'FHIR R4 CapabilityStatement (default mode).');

const TERMINOLOGY_CAPABILITIES = closed(['resourceType', 'status', 'date', 'kind', 'codeSystem'], {
  resourceType: resourceType('TerminologyCapabilities'),
  ...CAPABILITY_COMMON,
  codeSystem: list(closed(['uri', 'version'], {
    uri: str(),
    version: list(closed(['isDefault'], {
      code: str('The last confirmed sync of its registers; absent before the first.'),
      isDefault: { type: 'boolean' },
      language: list(str()),
      property: list(str()),
    })),
    subsumption: { type: 'boolean' },
  })),
  expansion: closed([], { hierarchical: { type: 'boolean' }, paging: { type: 'boolean' }, incomplete: { type: 'boolean' }, textFilter: str() }),
  codeSearch: str(),
  validateCode: closed([], { translations: { type: 'boolean' } }),
  translation: closed([], { needsMap: { type: 'boolean' } }),
}, 'FHIR R4 TerminologyCapabilities (mode=terminology).');

export const FHIR_CAPABILITIES: JsonSchema = { oneOf: [CAPABILITY_STATEMENT, TERMINOLOGY_CAPABILITIES] };

export const FHIR_OPERATION_OUTCOME = closed(['resourceType', 'issue'], {
  resourceType: resourceType('OperationOutcome'),
  issue: list(closed(['severity', 'code', 'diagnostics'], {
    severity: { type: 'string', enum: ['fatal', 'error', 'warning', 'information'] },
    code: str('FHIR IssueType (not-found, invalid, forbidden, throttled, …).'),
    details: closed(['coding', 'text'], { coding: list(CODING, 'The drugref error code (system urn of the error table).'), text: str() }),
    diagnostics: str('The error message.'),
    expression: list(str(), 'The parameters at fault.'),
  }), ),
}, 'FHIR R4 OperationOutcome: every /fhir error.');

export const FHIR_MEDICATION = closed(['resourceType', 'id', 'identifier', 'code', 'status', 'ingredient'], {
  resourceType: resourceType('Medication'),
  id: str('The drug id.'),
  identifier: list(closed(['system', 'value'], { system: str(), value: str() })),
  code: CODEABLE_CONCEPT,
  status: { type: 'string', enum: ['active', 'inactive'] },
  manufacturer: closed(['display'], { display: str('Marketing authorisation holder.') }),
  form: closed(['text'], { text: str() }),
  ingredient: list(closed(['itemCodeableConcept', 'isActive'], {
    itemCodeableConcept: CODEABLE_CONCEPT,
    isActive: { type: 'boolean' },
    strength: closed(['numerator', 'denominator'], { numerator: QUANTITY, denominator: QUANTITY }),
  })),
}, 'FHIR R4 Medication of the drug record (format=fhir).');

/** Components the FHIR schemas refer to. */
export const FHIR_COMPONENTS: Record<string, JsonSchema> = { FhirParameter: PARAMETER };
