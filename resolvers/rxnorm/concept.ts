/**
 * An RxNorm concept from NLM RxNav's public REST API, assembled from five calls:
 * properties (required), related concepts, ATC classes, NDCs and, when licensed, the
 * crosswalk. Every part but the properties degrades: a failed part is empty and named in
 * `missing`, so a caller still gets what RxNav could give.
 */
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { fetchSource, upstreamOf } from '../enrichment/upstream.ts';

/** A related RxNorm concept. */
export interface RxTerm {
  rxcui: string;
  name: string;
  tty: string;
}

/** The enriched concept, as the GraphQL type RxNormConcept. */
export interface RxConcept {
  rxcui: string;
  name: string;
  tty: string | null;
  synonym: string | null;
  ingredients: RxTerm[];
  brands: RxTerm[];
  doseFormDrugs: RxTerm[];
  atcClasses: Array<{ code: string; name: string; ingredientRxcui: string | null; ingredientName: string | null }>;
  ndcs: string[];
  crosswalk: Array<{ system: string; code: string; name: string | null }> | null;
  missing: string[];
}

interface RxProperties {
  properties?: { rxcui: string; name: string; synonym?: string; tty?: string };
}
interface RxRelated {
  relatedGroup?: { conceptGroup?: Array<{ tty: string; conceptProperties?: RxTerm[] }> };
}
interface RxClassByRxcui {
  rxclassDrugInfoList?: {
    rxclassDrugInfo?: Array<{ minConcept?: { rxcui?: string; name?: string }; rxclassMinConceptItem?: { classId: string; className: string; classType?: string } }>;
  };
}
interface RxNdcs {
  ndcGroup?: { ndcList?: { ndc?: string[] } };
}
interface CrosswalkAnswer {
  mappings?: Array<{ system?: string; code?: string; name?: string }>;
}

/** RxNav's properties of one rxcui, or null when RxNorm has no such concept. */
export async function rxProperties(ctx: RequestContext, rxcui: string): Promise<RxProperties['properties'] | null> {
  const answer = await fetchSource<RxProperties>(ctx, 'rxnav', { path: `/REST/rxcui/${encodeURIComponent(rxcui)}/properties.json` });
  return answer.status === 404 ? null : (answer.body?.properties ?? null);
}

/**
 * Runs one optional part: an upstream failure (502) becomes an empty part named in
 * `missing`; a switched-off source (503) and programming errors still propagate.
 */
async function part<T>(name: string, missing: string[], empty: T, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isApiError(err) && err.code === 'upstream_error') {
      missing.push(name);
      return empty;
    }
    throw err;
  }
}

function termsOf(body: RxRelated, ttys: string[]): RxTerm[] {
  const groups = body.relatedGroup?.conceptGroup ?? [];
  return groups
    .filter((g) => ttys.includes(g.tty))
    .flatMap((g) => g.conceptProperties ?? [])
    .map((c) => ({ rxcui: c.rxcui, name: c.name, tty: c.tty }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function atcOf(body: RxClassByRxcui): RxConcept['atcClasses'] {
  const seen = new Map<string, RxConcept['atcClasses'][number]>();
  for (const info of body.rxclassDrugInfoList?.rxclassDrugInfo ?? []) {
    const item = info.rxclassMinConceptItem;
    if (!item) continue;
    // RxClass repeats a class once per path to it; one entry per class and ingredient.
    const key = `${item.classId} ${info.minConcept?.rxcui ?? ''}`;
    if (!seen.has(key)) seen.set(key, { code: item.classId, name: item.className, ingredientRxcui: info.minConcept?.rxcui ?? null, ingredientName: info.minConcept?.name ?? null });
  }
  return [...seen.values()];
}

async function crosswalkOf(ctx: RequestContext, rxcui: string, key: string): Promise<RxConcept['crosswalk']> {
  const answer = await fetchSource<CrosswalkAnswer>(ctx, 'crosswalk', { path: `/rxcui/${encodeURIComponent(rxcui)}`, headers: { authorization: `Bearer ${key}` } });
  if (answer.status === 404) return [];
  return (answer.body?.mappings ?? [])
    .filter((m): m is { system: string; code: string; name?: string } => typeof m.system === 'string' && typeof m.code === 'string')
    .map((m) => ({ system: m.system, code: m.code, name: m.name ?? null }));
}

/** The enriched concept, or null when RxNorm does not know `rxcui`. */
export async function rxConcept(ctx: RequestContext, rxcui: string): Promise<RxConcept | null> {
  const props = await rxProperties(ctx, rxcui);
  if (!props) return null;
  const missing: string[] = [];
  const base = `/REST/rxcui/${encodeURIComponent(rxcui)}`;
  const licence = upstreamOf(ctx).crosswalkKey;
  const [related, atc, ndcs, crosswalk] = await Promise.all([
    part<RxRelated>('related', missing, {}, async () => (await fetchSource<RxRelated>(ctx, 'rxnav', { path: `${base}/related.json`, query: { tty: 'IN BN SCD SBD' } })).body ?? {}),
    part('atc', missing, [], async () => atcOf((await fetchSource<RxClassByRxcui>(ctx, 'rxnav', { path: '/REST/rxclass/class/byRxcui.json', query: { rxcui, relaSource: 'ATC' } })).body ?? {})),
    part('ndcs', missing, [], async () => (await fetchSource<RxNdcs>(ctx, 'rxnav', { path: `${base}/ndcs.json` })).body?.ndcGroup?.ndcList?.ndc ?? []),
    licence ? part('crosswalk', missing, null, () => crosswalkOf(ctx, rxcui, licence)) : Promise.resolve(null),
  ]);
  return {
    rxcui: props.rxcui,
    name: props.name,
    tty: props.tty || null,
    synonym: props.synonym || null,
    ingredients: termsOf(related, ['IN']),
    brands: termsOf(related, ['BN']),
    doseFormDrugs: termsOf(related, ['SCD', 'SBD']),
    atcClasses: atc,
    ndcs: [...new Set(ndcs)],
    crosswalk,
    // Sorted so the answer (and its ETag) does not depend on which part failed first.
    missing: missing.sort(),
  };
}

/**
 * The ingredients (tty IN) of an RxNorm concept, from the same RxNav call (and cache row) as
 * `rxConcept`'s related part; null when RxNorm does not know the rxcui. Upstream failures
 * propagate as ApiErrors (502, or 503 when the source is switched off).
 */
export async function rxIngredients(ctx: RequestContext, rxcui: string): Promise<RxTerm[] | null> {
  const answer = await fetchSource<RxRelated>(ctx, 'rxnav', { path: `/REST/rxcui/${encodeURIComponent(rxcui)}/related.json`, query: { tty: 'IN BN SCD SBD' } });
  if (answer.status === 404) return null;
  return termsOf(answer.body ?? {}, ['IN']);
}
