/**
 * GET /fhir/metadata: the CapabilityStatement of the terminology service, or with
 * `mode=terminology` its TerminologyCapabilities, listing each served code system with
 * its version, the last confirmed sync of the registers it comes from.
 */
import type { SourceStatus } from '../sources/status.ts';
import { TERMINOLOGY_SYSTEMS, languagesOf } from './systems.ts';
import type { TerminologySystem } from './systems.ts';

export const FHIR_VERSION = '4.0.1';

const IMPLEMENTATION = 'drugref FHIR R4 terminology service over national drug codes, ATC/DDD, RxNorm and UNII';

/** The operations /fhir serves, by resource type (names as the FHIR R4 operation definitions). */
export const FHIR_OPERATIONS: Record<string, string[]> = {
  CodeSystem: ['lookup', 'validate-code'],
  ValueSet: ['expand', 'validate-code'],
  ConceptMap: ['translate'],
};

/** The newest sync among the sources that date `system`, ISO 8601; null when none has synced. */
export function systemVersion(system: TerminologySystem, sources: SourceStatus[]): string | null {
  const dating = sources.filter((s) =>
    system.sourceIds ? system.sourceIds.includes(s.id) : system.country ? s.country === system.country : s.country !== null);
  const times = dating.map((s) => s.lastSyncedAt?.getTime()).filter((t): t is number => t !== undefined);
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
}

/** The CapabilityStatement: a terminology server instance with its operations. */
export function capabilityStatement(date: Date): Record<string, unknown> {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: date.toISOString(),
    publisher: 'drugref',
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/CapabilityStatement/terminology-server'],
    software: { name: 'drugref' },
    implementation: { description: IMPLEMENTATION },
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [{
      mode: 'server',
      security: { description: 'The operations need an API key in `Authorization: Bearer <key>`, the same keys, scopes and quota as /v1; each call counts as one request. /fhir/metadata needs no key and counts against no quota.' },
      resource: Object.entries(FHIR_OPERATIONS).map(([type, ops]) => ({
        type,
        operation: ops.map((op) => ({ name: op, definition: `http://hl7.org/fhir/OperationDefinition/${type}-${op}` })),
      })),
    }],
  };
}

/** The TerminologyCapabilities: every served system with its version and languages. */
export function terminologyCapabilities(date: Date, sources: SourceStatus[]): Record<string, unknown> {
  return {
    resourceType: 'TerminologyCapabilities',
    status: 'active',
    date: date.toISOString(),
    publisher: 'drugref',
    kind: 'instance',
    software: { name: 'drugref' },
    // An instance's statement names the installation (R4 invariant tcp-3 on kind = instance).
    implementation: { description: IMPLEMENTATION },
    codeSystem: TERMINOLOGY_SYSTEMS.map((system) => {
      const version = systemVersion(system, sources);
      return {
        uri: system.uri,
        version: [{ ...(version ? { code: version } : {}), isDefault: true, language: languagesOf(system.country), property: propertiesOf(system) }],
        subsumption: false,
      };
    }),
    expansion: { hierarchical: false, paging: true, incomplete: false, textFilter: 'Words or a code: pack and product codes as the /v1/drugs typeahead matches them; ATC as a code or class prefix, else by the words of its names.' },
    codeSearch: 'explicit',
    validateCode: { translations: false },
    translation: { needsMap: false },
  };
}

function propertiesOf(system: TerminologySystem): string[] {
  if (system.kind === 'atc') return ['level', 'parent', 'child', 'ddd', 'status'];
  if (system.kind === 'unii') return ['status', 'atc', 'rxnorm'];
  return ['status', 'country', 'drugref-id', 'source', 'atc', 'dose-form', 'holder'];
}
