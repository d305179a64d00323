/**
 * Request mapping of the /fhir terminology operations: the GET query string or a POSTed
 * FHIR `Parameters` resource, both read into one flat argument object (a `coding` part
 * gives system, code, display and version), plus the JSON Schemas both forms are validated with.
 */
import { validationError } from '../../platform/errors.ts';
import type { JsonSchema, RouteInput } from './types.ts';

/** Content type of every /fhir answer (errors too, as OperationOutcome). */
export { FHIR_JSON_TYPE as FHIR_JSON } from '../http/fhir-outcome.ts';

const VALUE_KEYS = ['valueUri', 'valueCanonical', 'valueCode', 'valueString', 'valueInteger', 'valueBoolean'] as const;

const VALUE_SCHEMAS: Record<string, JsonSchema> = {
  valueUri: { type: 'string', maxLength: 500 }, valueCanonical: { type: 'string', maxLength: 500 },
  valueCode: { type: 'string', maxLength: 200 }, valueString: { type: 'string', maxLength: 500 },
  valueInteger: { type: 'integer' }, valueBoolean: { type: 'boolean' },
  valueCoding: {
    type: 'object', additionalProperties: false,
    properties: { system: { type: 'string', maxLength: 500 }, code: { type: 'string', maxLength: 200 }, display: { type: 'string', maxLength: 500 }, version: { type: 'string', maxLength: 100 } },
  },
};

/** JSON Schema of a POSTed Parameters resource with the given parameter names. */
export function parametersBody(names: string[]): JsonSchema {
  return {
    type: 'object', required: ['resourceType', 'parameter'], additionalProperties: false,
    description: 'A FHIR R4 Parameters resource.',
    properties: {
      resourceType: { type: 'string', enum: ['Parameters'] },
      id: { type: 'string', maxLength: 64 },
      parameter: {
        type: 'array', maxItems: 20,
        items: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', enum: names }, ...VALUE_SCHEMAS } },
      },
    },
  };
}

const STRING = { type: 'string', minLength: 1, maxLength: 500 } as const;

/** JSON Schema of the GET query string with the given parameters (`_format` json only). */
export function fhirQuery(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: 'object', additionalProperties: false, required,
    properties: { ...properties, _format: { type: 'string', enum: ['json', 'application/fhir+json', 'application/json'], description: 'Only JSON is served.' } },
  };
}

export const param = (description: string): JsonSchema => ({ ...STRING, description });
export const intParam = (description: string, max: number): JsonSchema => ({ type: 'integer', minimum: 0, maximum: max, description });

/** The operation's arguments from the query (GET) or the Parameters body (POST). */
export function fhirArgs(input: RouteInput): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input.query)) if (name !== '_format') args[name] = value;
  const body = input.body as { parameter?: Array<Record<string, unknown>> } | undefined;
  for (const part of body?.parameter ?? []) {
    const name = String(part.name);
    const coding = part.valueCoding as { system?: string; code?: string; display?: string; version?: string } | undefined;
    if (coding) {
      if (coding.system) args.system = coding.system;
      if (coding.code) args.code = coding.code;
      if (coding.display) args.display = coding.display;
      if (coding.version) args.version = coding.version;
      continue;
    }
    const key = VALUE_KEYS.find((k) => part[k] !== undefined);
    if (key) args[name] = part[key];
  }
  return args;
}

/** The named string arguments, a 422 naming the first one missing. */
export function requireArgs(args: Record<string, unknown>, names: string[], location: 'query' | 'body'): void {
  for (const name of names) {
    if (typeof args[name] !== 'string' || args[name] === '') {
      throw validationError(`Invalid request: the parameter ${name} is required.`, [{ location, field: name, message: 'is required' }]);
    }
  }
}
