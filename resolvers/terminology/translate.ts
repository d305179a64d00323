/**
 * ConceptMap/$translate from a pack or product code: to its ATC class, its RxNorm concept,
 * its active ingredients (UNII), its other codes in the same record, and to the codes of
 * the same medicine in other countries (the /v1 equivalents: same moieties, strengths, form
 * and route; same substance as an inexact match). Each match names the link's basis.
 */
import type { RequestContext } from '../context.ts';
import { ATC_SYSTEM, UNII_SYSTEM } from '../catalogue/fhir.ts';
import { equivalentsOf } from '../catalogue/equivalents.ts';
import type { DrugRow } from '../catalogue/drug-rows.ts';
import { isValidUnii } from '../../vocabulary/check-digits.ts';
import { readConcept } from './concepts.ts';
import { parameters } from './parameters.ts';
import type { Parameter, ParametersResource } from './parameters.ts';
import { systemOfStored, systemOfUri } from './systems.ts';
import { requestedVersion, requireCurrentVersion } from './versions.ts';
import type { TerminologySystem } from './systems.ts';

/** Products of the same medicine listed per country (as /v1/drugs/{id}/equivalents per_country). */
const PER_COUNTRY = 5;

type Equivalence = 'equivalent' | 'wider' | 'relatedto' | 'inexact';

interface Match { equivalence: Equivalence; system: string; code: string; display?: string; basis: string }

function matchParameter(m: Match): Parameter {
  return {
    name: 'match',
    part: [
      { name: 'equivalence', valueCode: m.equivalence },
      { name: 'concept', valueCoding: { system: m.system, code: m.code, ...(m.display ? { display: m.display } : {}) } },
      { name: 'property', part: [{ name: 'code', valueCode: 'basis' }, { name: 'value', valueCode: m.basis }] },
    ],
  };
}

/** Every code of `drug` in the identifier systems, mapped to served systems. */
function codesOf(rows: Array<{ system: string; code: string; previous: boolean }>): Array<{ system: TerminologySystem; code: string }> {
  const out = new Map<string, { system: TerminologySystem; code: string }>();
  for (const row of rows) {
    const system = systemOfStored(row.system);
    if (system && !row.previous) out.set(`${system.uri}|${row.code}`, { system, code: row.code });
  }
  return [...out.values()];
}

async function matchesOf(ctx: RequestContext, drug: DrugRow, sourceUri: string, matchedAtPack: boolean): Promise<Match[]> {
  const equivalents = await equivalentsOf(ctx.db, drug, PER_COUNTRY);
  const medicine = equivalents.sameMedicine.flatMap((g) => g.drugs);
  const substance = equivalents.sameSubstance.flatMap((g) => g.drugs).filter((d) => !medicine.some((m) => m.id === d.id));
  const others = [...medicine, ...substance];
  const [identifiers, ingredients] = await Promise.all([
    ctx.loaders.catalogue.identifiers.loadMany([drug.id, ...others.map((d) => d.id)]),
    ctx.loaders.catalogue.ingredients.load(drug.id),
  ]);
  const rowsOf = (i: number) => { const r = identifiers[i]; return Array.isArray(r) ? r : []; };
  const matches: Match[] = [];
  if (drug.atcCode) matches.push({ equivalence: 'wider', system: ATC_SYSTEM, code: drug.atcCode, basis: 'register-atc' });
  for (const ing of ingredients) {
    if (isValidUnii(ing.unii)) matches.push({ equivalence: 'relatedto', system: UNII_SYSTEM, code: ing.unii, ...(ing.name ? { display: ing.name } : {}), basis: 'active-ingredient' });
  }
  for (const { system, code } of codesOf(rowsOf(0))) {
    if (system.uri === sourceUri) continue;
    // A pack code maps to its product's codes as wider; product-level codes of the record are the same concept.
    matches.push({ equivalence: matchedAtPack && system.kind === 'identifier' ? 'wider' : 'equivalent', system: system.uri, code, display: drug.productName, basis: 'same-record' });
  }
  others.forEach((other, i) => {
    const sameMedicine = i < medicine.length;
    for (const { system, code } of codesOf(rowsOf(i + 1))) {
      matches.push({
        equivalence: sameMedicine ? 'equivalent' : 'inexact', system: system.uri, code, display: `${other.productName} (${other.country})`,
        basis: sameMedicine ? 'same-medicine' : equivalents.basis === 'atc' ? 'same-atc' : 'same-substance',
      });
    }
  });
  return matches;
}

/** The $translate answer; `target` narrows the matches to one system. */
export async function translateCode(ctx: RequestContext, args: { system: string; code: string; version?: string | null; target?: string | null }): Promise<ParametersResource> {
  const system = systemOfUri(args.system);
  const fail = (message: string) => parameters([{ name: 'result', valueBoolean: false }, { name: 'message', valueString: message }]);
  if (!system) return fail(`${args.system} is not a code system drugref serves.`);
  if (system.kind !== 'identifier') return fail(`drugref maps pack and product codes; ${system.name} codes are targets only.`);
  await requireCurrentVersion(ctx, system, requestedVersion(args.system, args.version), 'not-found');
  const answer = await readConcept(ctx, system, args.code);
  if (!answer.concept) return fail(answer.problem);
  const drug = answer.concept.drug!;
  const target = args.target ? (systemOfUri(args.target)?.uri ?? args.target) : null;
  const matches = (await matchesOf(ctx, drug, system.uri, answer.concept.packLevel === true)).filter((m) => !target || m.system === target);
  if (!matches.length) return fail(`No mapping of ${system.name} code ${answer.concept.code}${target ? ` to ${target}` : ''} is known.`);
  return parameters([{ name: 'result', valueBoolean: true }, ...matches.map(matchParameter)]);
}
