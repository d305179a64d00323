/**
 * Open Targets Platform (GraphQL API): name → id searches and a drug's mechanisms and
 * indications, behind `/v1/targets` and used by genetics and the assessment.
 */
import { ApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { fetchSource } from './upstream.ts';

interface GqlAnswer<T> {
  data?: T | null;
  errors?: Array<{ message: string }>;
}

/** Runs one query; a GraphQL-level error from Open Targets is an upstream failure. */
export async function otQuery<T>(ctx: RequestContext, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetchSource<GqlAnswer<T>>(ctx, 'opentargets', {
    method: 'POST', path: '/graphql', body: { query, variables },
    accept: (body) => Boolean((body as GqlAnswer<T> | null)?.data),
  });
  if (!res.body?.data) {
    ctx.log.warn({ source: 'opentargets', errors: res.body?.errors?.map((e) => e.message) }, 'open targets query failed');
    throw new ApiError('upstream_error', 'An upstream data source failed; try again later.');
  }
  return res.body.data;
}

const SEARCH = `query Search($q: String!, $entity: String!) {
  search(queryString: $q, entityNames: [$entity], page: { index: 0, size: 5 }) { total hits { id name entity } }
}`;

/** The best search hit of one entity type: an exact name (or id) match, else the first. */
export async function otSearch(ctx: RequestContext, entity: 'drug' | 'target' | 'disease', q: string): Promise<{ id: string; name: string } | null> {
  const term = q.trim().toLowerCase();
  const data = await otQuery<{ search: { hits: Array<{ id: string; name: string; entity: string }> } }>(ctx, SEARCH, { q: term, entity });
  const hits = data.search.hits.filter((h) => h.entity === entity);
  return hits.find((h) => h.name.toLowerCase() === term || h.id.toLowerCase() === term) ?? hits[0] ?? null;
}

const DRUG = `query Drug($id: String!) {
  drug(chemblId: $id) {
    id name drugType maximumClinicalTrialPhase isApproved
    mechanismsOfAction { rows { mechanismOfAction actionType targetName targets { id approvedSymbol approvedName } } }
    indications { count rows { disease { id name } maxPhaseForIndication } }
  }
}`;

/** The slice of an Open Targets drug this service reads. */
export interface OtDrug {
  id: string;
  name: string;
  drugType: string | null;
  maximumClinicalTrialPhase: number | null;
  isApproved: boolean | null;
  mechanismsOfAction: { rows: Array<{ mechanismOfAction: string; actionType: string | null; targetName: string | null; targets: Array<{ id: string; approvedSymbol: string; approvedName: string }> }> } | null;
  indications: { count: number; rows: Array<{ disease: { id: string; name: string }; maxPhaseForIndication: number | null }> } | null;
}

/** A drug by name, through search then `drug(chemblId)`; null when Open Targets has none. */
export async function otDrug(ctx: RequestContext, name: string): Promise<OtDrug | null> {
  const hit = await otSearch(ctx, 'drug', name);
  if (!hit) return null;
  return (await otQuery<{ drug: OtDrug | null }>(ctx, DRUG, { id: hit.id })).drug;
}

/** One row per (mechanism, target): what the drug does to which gene. */
export function drugTargets(drug: OtDrug): Array<{ ensembl_id: string; symbol: string; name: string; mechanism: string; action_type: string | null }> {
  return (drug.mechanismsOfAction?.rows ?? []).flatMap((row) =>
    row.targets.map((t) => ({ ensembl_id: t.id, symbol: t.approvedSymbol, name: t.approvedName, mechanism: row.mechanismOfAction, action_type: row.actionType })),
  );
}

/** A drug's targets and indications; null when Open Targets has no such drug. */
export async function targets(ctx: RequestContext, name: string): Promise<Record<string, unknown> | null> {
  const drug = await otDrug(ctx, name);
  if (!drug) return null;
  const indications = [...(drug.indications?.rows ?? [])]
    .sort((a, b) => (b.maxPhaseForIndication ?? 0) - (a.maxPhaseForIndication ?? 0) || a.disease.name.localeCompare(b.disease.name))
    .map((r) => ({ disease_id: r.disease.id, disease_name: r.disease.name, max_phase: r.maxPhaseForIndication }));
  return {
    drug: { chembl_id: drug.id, name: drug.name, type: drug.drugType, max_phase: drug.maximumClinicalTrialPhase, approved: drug.isApproved },
    targets: drugTargets(drug),
    indications,
    source: 'opentargets',
  };
}
