/**
 * Query fields of the FHIR terminology service (schema/terminology.graphql). Each answers a
 * whole FHIR resource (JSON): the facade only maps the request's parameters in and the
 * content type out.
 */
import { validationError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { cachedSourceStatuses } from '../sources/status.ts';
import { capabilityStatement, terminologyCapabilities } from './capabilities.ts';
import { readConcept } from './concepts.ts';
import { expandValueSet } from './expand.ts';
import type { ExpandArgs } from './expand.ts';
import { lookupParameters, validateParameters } from './parameters.ts';
import { systemOfUri } from './systems.ts';
import type { TerminologySystem } from './systems.ts';
import { translateCode } from './translate.ts';
import { parseValueSetUrl } from './value-sets.ts';
import { requestedVersion, requireCurrentVersion } from './versions.ts';

interface CodeArgs { system: string; code: string; version?: string | null; displayLanguage?: string | null }

function servedSystem(uri: string): TerminologySystem {
  const system = systemOfUri(uri);
  if (!system) throw validationError(`Invalid request: ${uri} is not a code system drugref serves (see /fhir/metadata?mode=terminology).`, [{ location: 'query', field: 'system', message: 'is not a served code system' }]);
  return system;
}

async function lookup(ctx: RequestContext, args: CodeArgs) {
  const system = servedSystem(args.system);
  await requireCurrentVersion(ctx, system, requestedVersion(args.system, args.version), 'not-found');
  const answer = await readConcept(ctx, system, args.code);
  return answer.concept ? lookupParameters(answer.concept, args.displayLanguage) : null;
}

async function validateInCodeSystem(ctx: RequestContext, args: CodeArgs & { display?: string | null }) {
  const system = servedSystem(args.system);
  await requireCurrentVersion(ctx, system, requestedVersion(args.system, args.version), 'code-invalid');
  const answer = await readConcept(ctx, system, args.code);
  return validateParameters(answer, { display: args.display, requireActive: false, language: args.displayLanguage });
}

/** Membership in an implicit value set: the right system, country and ATC class, marketed where the set says so. */
async function validateInValueSet(ctx: RequestContext, args: CodeArgs & { url: string; display?: string | null }) {
  const spec = parseValueSetUrl(args.url);
  const system = servedSystem(args.system);
  // A value set version (`url|version`) is its code system's: another is a value set drugref does not hold.
  await requireCurrentVersion(ctx, spec.system, requestedVersion(args.url, null), 'not-found');
  await requireCurrentVersion(ctx, system, requestedVersion(args.system, args.version), 'code-invalid');
  if (system.uri !== spec.system.uri) return validateParameters({ concept: null, problem: `${args.url} holds ${spec.system.name} codes, not ${system.name} codes.` }, { requireActive: true });
  const answer = await readConcept(ctx, system, args.code);
  const drug = answer.concept?.drug;
  if (answer.concept && drug && spec.country && drug.country !== spec.country) {
    return validateParameters({ concept: null, problem: `${system.name} code ${answer.concept.code} is a code of ${drug.country}, not of ${spec.country}.` }, { requireActive: true });
  }
  if (answer.concept && spec.atc && !drug?.atcCode?.startsWith(spec.atc)) {
    return validateParameters({ concept: null, problem: `${system.name} code ${answer.concept.code} is not classed under ATC ${spec.atc}.` }, { requireActive: true });
  }
  return validateParameters(answer, { display: args.display, requireActive: spec.marketedOnly, language: args.displayLanguage });
}

export const terminologyResolvers = {
  Query: {
    fhirCapabilities: async (_: unknown, args: { mode?: string | null }, ctx: RequestContext) =>
      (args.mode === 'terminology' ? terminologyCapabilities(ctx.now(), await cachedSourceStatuses(ctx.db, ctx.now())) : capabilityStatement(ctx.now())),
    fhirLookup: (_: unknown, args: CodeArgs, ctx: RequestContext) => lookup(ctx, args),
    fhirValidateCode: (_: unknown, args: CodeArgs & { url?: string | null; display?: string | null }, ctx: RequestContext) =>
      (args.url ? validateInValueSet(ctx, { ...args, url: args.url }) : validateInCodeSystem(ctx, args)),
    fhirTranslate: (_: unknown, args: { system: string; code: string; version?: string | null; target?: string | null }, ctx: RequestContext) => translateCode(ctx, args),
    fhirExpand: (_: unknown, args: ExpandArgs, ctx: RequestContext) => expandValueSet(ctx, args),
  },
};
