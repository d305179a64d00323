/**
 * FHIR R4 `Parameters` as the terminology operations answer them: $lookup (name, version,
 * display, designation, property) and $validate-code (result, message, display).
 */
import type { Concept, ConceptAnswer } from './concepts.ts';

export interface Parameter {
  name: string;
  valueString?: string;
  valueBoolean?: boolean;
  valueCode?: string;
  valueUri?: string;
  valueCoding?: { system: string; code: string; display?: string };
  part?: Parameter[];
}

export interface ParametersResource {
  resourceType: 'Parameters';
  parameter: Parameter[];
}

export const parameters = (parameter: Parameter[]): ParametersResource => ({ resourceType: 'Parameters', parameter });

/** The display in `language` where the concept has a designation in it, else the register's own. */
export function displayIn(concept: Concept, language: string | null | undefined): string {
  if (!language) return concept.display;
  const base = language.toLowerCase().split('-')[0];
  return concept.designations.find((d) => d.language.toLowerCase().split('-')[0] === base)?.value ?? concept.display;
}

/** The $lookup answer of a concept. */
export function lookupParameters(concept: Concept, displayLanguage?: string | null): ParametersResource {
  return parameters([
    { name: 'name', valueString: concept.system.name },
    ...(concept.version ? [{ name: 'version', valueString: concept.version }] : []),
    { name: 'display', valueString: displayIn(concept, displayLanguage) },
    ...concept.designations.map((d) => ({ name: 'designation', part: [{ name: 'language', valueCode: d.language }, { name: 'value', valueString: d.value }] })),
    ...concept.properties.map((p) => ({ name: 'property', part: [{ name: 'code', valueCode: p.code }, { name: 'value', ...p.value }] })),
  ]);
}

/** Why a withdrawn concept is not current, for $validate-code's message. */
export function inactiveMessage(concept: Concept): string | null {
  if (concept.status === 'active') return null;
  return `${concept.system.name} code ${concept.code} is ${concept.status}: the register lists it as no longer marketed.`;
}

/**
 * The $validate-code answer. `requireActive` is true for value sets of marketed codes: a
 * withdrawn code is then no member (result false); in the code system it stays a valid code
 * whose message says it is withdrawn. A display that differs from the register's is reported.
 */
export function validateParameters(answer: ConceptAnswer, options: { display?: string | null; requireActive: boolean; language?: string | null }): ParametersResource {
  if (!answer.concept) return parameters([{ name: 'result', valueBoolean: false }, { name: 'message', valueString: answer.problem }]);
  const { concept } = answer;
  const inactive = inactiveMessage(concept);
  const display = displayIn(concept, options.language);
  const wrongDisplay = options.display && !concept.designations.some((d) => d.value.toLowerCase() === options.display!.toLowerCase()) && options.display.toLowerCase() !== concept.display.toLowerCase()
    ? `The display "${options.display}" is not the register's; it is "${display}".` : null;
  const result = !(options.requireActive && inactive) && !wrongDisplay;
  const message = [inactive, wrongDisplay].filter(Boolean).join(' ');
  return parameters([
    { name: 'result', valueBoolean: result },
    ...(message ? [{ name: 'message', valueString: message }] : []),
    { name: 'display', valueString: display },
    ...(concept.version ? [{ name: 'version', valueString: concept.version }] : []),
  ]);
}
