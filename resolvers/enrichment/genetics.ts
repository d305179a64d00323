/**
 * `/v1/targets/genetics`: human genetic evidence linking a target to a disease (Open
 * Targets), reduced to the direction genetics favours for a drug (inhibit or activate
 * the target), and, when a drug is named, whether the drug's action agrees.
 *
 * Direction rule: a loss-of-function variant that protects, or a gain-of-function
 * variant that raises risk, says lowering the target's activity helps → `inhibit`.
 * LoF-risk and GoF-protect say → `activate`. Rows without both annotations count as
 * evidence but carry no direction.
 */
import type { RequestContext } from '../context.ts';
import { drugTargets, otDrug, otQuery, otSearch } from './opentargets.ts';

/** Sources of human genetic evidence in Open Targets. */
export const GENETIC_SOURCES = ['gwas_credible_sets', 'gene_burden', 'eva', 'genomics_england', 'gene2phenotype', 'uniprot_literature', 'uniprot_variants', 'orphanet', 'clingen'];

const EVIDENCE = `query Genetics($target: String!, $disease: String!, $sources: [String!]) {
  target(ensemblId: $target) { id approvedSymbol approvedName }
  disease(efoId: $disease) {
    id name
    evidences(ensemblIds: [$target], enableIndirect: true, datasourceIds: $sources, size: 100) {
      count rows { datasourceId score variantEffect directionOnTrait variantRsId studyId beta oddsRatio }
    }
  }
}`;

interface EvidenceRow {
  datasourceId: string;
  score: number;
  variantEffect: string | null;
  directionOnTrait: string | null;
  variantRsId: string | null;
  studyId: string | null;
  beta: number | null;
  oddsRatio: number | null;
}
interface EvidenceAnswer {
  target: { id: string; approvedSymbol: string; approvedName: string } | null;
  disease: { id: string; name: string; evidences: { count: number; rows: EvidenceRow[] } } | null;
}

/** Which way a change in target activity should go to help. */
export type Direction = 'inhibit' | 'activate';

const INHIBITING = ['INHIBITOR', 'ANTAGONIST', 'BLOCKER', 'NEGATIVE ALLOSTERIC MODULATOR', 'INVERSE AGONIST', 'DEGRADER', 'NEGATIVE MODULATOR', 'ANTISENSE INHIBITOR', 'RNAI INHIBITOR', 'DISRUPTING AGENT'];
const ACTIVATING = ['AGONIST', 'ACTIVATOR', 'POSITIVE ALLOSTERIC MODULATOR', 'PARTIAL AGONIST', 'OPENER', 'STABILISER', 'POSITIVE MODULATOR'];

/** What a drug's action type does to its target's activity; null when it says neither. */
export function actionDirection(actionType: string | null): Direction | null {
  const a = (actionType ?? '').toUpperCase();
  if (INHIBITING.includes(a)) return 'inhibit';
  if (ACTIVATING.includes(a)) return 'activate';
  return null;
}

/** The therapeutic direction one evidence row supports, or null when it is unannotated. */
export function rowDirection(row: { variantEffect: string | null; directionOnTrait: string | null }): Direction | null {
  const effect = row.variantEffect?.toLowerCase();
  const trait = row.directionOnTrait?.toLowerCase();
  if (!effect || !trait) return null;
  if ((effect === 'lof' && trait === 'protect') || (effect === 'gof' && trait === 'risk')) return 'inhibit';
  if ((effect === 'lof' && trait === 'risk') || (effect === 'gof' && trait === 'protect')) return 'activate';
  return null;
}

/** Ensembl gene ids pass through; a symbol is resolved by search. */
async function resolveGene(ctx: RequestContext, gene: string): Promise<string | null> {
  if (/^ENSG\d{11}$/i.test(gene.trim())) return gene.trim().toUpperCase();
  return (await otSearch(ctx, 'target', gene))?.id ?? null;
}

/** Ontology ids (EFO_0001645, MONDO_0005148, Orphanet_558 ...) pass through; labels are searched. */
export async function resolveDisease(ctx: RequestContext, disease: string): Promise<string | null> {
  const d = disease.trim().replace(':', '_');
  if (/^[A-Za-z]+_\d+$/.test(d)) return d;
  return (await otSearch(ctx, 'disease', disease))?.id ?? null;
}

/** Arguments of `/v1/targets/genetics`. */
export interface GeneticsArgs {
  gene: string;
  disease: string;
  drug?: string | null;
}

function summarise(rows: EvidenceRow[]): { inhibit: number; activate: number; direction: Direction | 'unclear' | 'none' } {
  const inhibit = rows.filter((r) => rowDirection(r) === 'inhibit').length;
  const activate = rows.filter((r) => rowDirection(r) === 'activate').length;
  const direction = inhibit === 0 && activate === 0 ? 'none' : inhibit > activate ? 'inhibit' : activate > inhibit ? 'activate' : 'unclear';
  return { inhibit, activate, direction };
}

async function concordance(ctx: RequestContext, drugName: string, targetId: string, direction: string): Promise<Record<string, unknown>> {
  const drug = await otDrug(ctx, drugName);
  const action = drug ? drugTargets(drug).find((t) => t.ensembl_id === targetId) : undefined;
  const drugDirection = action ? actionDirection(action.action_type) : null;
  const base = { drug: drugName, drug_chembl_id: drug?.id ?? null, drug_action: action?.action_type ?? null, drug_direction: drugDirection, genetic_direction: direction };
  if (!drug) return { ...base, verdict: null, reason: 'The drug is not known to Open Targets.' };
  if (!action) return { ...base, verdict: null, reason: 'The drug has no recorded mechanism on this target.' };
  if (!drugDirection) return { ...base, verdict: null, reason: 'The drug\'s action type does not say whether it raises or lowers target activity.' };
  if (direction !== 'inhibit' && direction !== 'activate') return { ...base, verdict: null, reason: 'Genetic evidence gives no clear direction of effect.' };
  return { ...base, verdict: drugDirection === direction ? 'concordant' : 'discordant', reason: drugDirection === direction ? 'The drug moves target activity the way human genetics says is protective.' : 'The drug moves target activity against the direction human genetics says is protective.' };
}

/** Genetic evidence, its direction and (with a drug) the concordance; null when gene or disease does not resolve. */
export async function targetGenetics(ctx: RequestContext, args: GeneticsArgs): Promise<Record<string, unknown> | null> {
  const [targetId, diseaseId] = await Promise.all([resolveGene(ctx, args.gene), resolveDisease(ctx, args.disease)]);
  if (!targetId || !diseaseId) return null;
  const data = await otQuery<EvidenceAnswer>(ctx, EVIDENCE, { target: targetId, disease: diseaseId, sources: GENETIC_SOURCES });
  if (!data.target || !data.disease) return null;
  const rows = data.disease.evidences.rows;
  const summary = summarise(rows);
  return {
    target: { ensembl_id: data.target.id, symbol: data.target.approvedSymbol, name: data.target.approvedName },
    disease: { id: data.disease.id, name: data.disease.name },
    evidence_count: data.disease.evidences.count,
    genetic_direction: summary.direction,
    direction_votes: { inhibit: summary.inhibit, activate: summary.activate },
    evidence: rows.map((r) => ({
      source: r.datasourceId, score: r.score, variant_effect: r.variantEffect, direction_on_trait: r.directionOnTrait,
      supports: rowDirection(r), variant_rsid: r.variantRsId, study_id: r.studyId, beta: r.beta, odds_ratio: r.oddsRatio,
    })),
    concordance: args.drug ? await concordance(ctx, args.drug, data.target.id, summary.direction) : null,
    source: 'opentargets',
  };
}
