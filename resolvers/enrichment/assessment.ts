/**
 * `/v1/assessment`: one drug for one indication, composed from the other resolvers —
 * targets, genetic concordance per target, a de-risking profile, the reversal signature,
 * guidelines and HTA — with a `summary` rollup. Only the drug and the indication must
 * resolve; every other section degrades to null and is named in `missing`, because a
 * composite answer with an empty section is still a useful 200.
 */
import { isApiError } from '../../platform/errors.ts';
import type { RequestContext } from '../context.ts';
import { drugTargets, otDrug } from './opentargets.ts';
import type { OtDrug } from './opentargets.ts';
import { resolveDisease, targetGenetics } from './genetics.ts';
import { chemblById } from './molecule.ts';
import { pgx } from './pgx.ts';
import { guidelines, hta } from './guidelines.ts';
import { curatedSignature } from './signatures.ts';

/** Genetics is checked for at most this many targets, to bound the fan-out. */
const MAX_GENETIC_TARGETS = 3;

/** Runs an optional section: an upstream failure or a switched-off source leaves it null. */
async function section<T>(name: string, missing: string[], load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (isApiError(err) && ['upstream_error', 'unavailable', 'not_found'].includes(err.code)) {
      // not_found of a section (no signature for the indication) is absence, not failure.
      if (err.code !== 'not_found') missing.push(name);
      return null;
    }
    throw err;
  }
}

async function deRisking(ctx: RequestContext, drug: OtDrug, diseaseId: string, missing: string[]): Promise<Record<string, unknown>> {
  const [molecule, pharmacogenomics] = await Promise.all([
    section('de_risking.chembl', missing, () => chemblById(ctx, drug.id)),
    section('de_risking.pgx', missing, () => pgx(ctx, drug.name)),
  ]);
  const forIndication = drug.indications?.rows.find((r) => r.disease.id === diseaseId);
  const actionable = ((pharmacogenomics?.pairs as Array<{ gene: string; cpic_level: string | null }> | undefined) ?? []).filter((p) => p.cpic_level === 'A' || p.cpic_level === 'B').map((p) => p.gene);
  const flags = [
    ...(molecule?.black_box_warning === 1 ? ['black_box_warning'] : []),
    ...(molecule?.withdrawn_flag ? ['withdrawn'] : []),
    ...actionable.map((g) => `pgx_actionable:${g}`),
    ...(drug.isApproved ? [] : ['not_approved']),
  ];
  return {
    approved: drug.isApproved,
    max_phase: drug.maximumClinicalTrialPhase,
    max_phase_for_indication: forIndication?.maxPhaseForIndication ?? null,
    black_box_warning: molecule ? molecule.black_box_warning === 1 : null,
    withdrawn: molecule ? Boolean(molecule.withdrawn_flag) : null,
    pgx_actionable_genes: pharmacogenomics ? actionable : null,
    flags,
  };
}

function reversalOf(sig: Record<string, unknown> | null, drug: OtDrug): Record<string, unknown> | null {
  if (!sig) return null;
  type Row = { compound: string; chembl_id: string | null; score: number };
  const reversers = sig.reversers as Row[];
  const mimickers = sig.mimickers as Row[];
  const isDrug = (r: Row) => r.chembl_id === drug.id || r.compound.toLowerCase() === drug.name.toLowerCase();
  const own = [...reversers, ...mimickers].find(isDrug);
  const signature = sig.signature as { id: string; provenance: unknown };
  return {
    signature_id: signature.id,
    provenance: signature.provenance,
    drug_score: own?.score ?? null,
    drug_reversal_rank: own && own.score < 0 ? reversers.findIndex(isDrug) + 1 : null,
    top_reversers: reversers.slice(0, 5),
  };
}

/** The composed assessment of `drug` for `indication`; null when either does not resolve. */
export async function assessment(ctx: RequestContext, args: { drug: string; indication: string }): Promise<Record<string, unknown> | null> {
  const [drug, diseaseId] = await Promise.all([otDrug(ctx, args.drug), resolveDisease(ctx, args.indication)]);
  if (!drug || !diseaseId) return null;
  const missing: string[] = [];
  const targets = drugTargets(drug);
  const geneIds = [...new Set(targets.map((t) => t.ensembl_id))].slice(0, MAX_GENETIC_TARGETS);
  const [genetics, deRisk, signature, guides, decisions] = await Promise.all([
    Promise.all(geneIds.map((g) => section('genetics', missing, () => targetGenetics(ctx, { gene: g, disease: diseaseId, drug: args.drug })))),
    deRisking(ctx, drug, diseaseId, missing),
    section('signature', missing, () => curatedSignature(ctx, { efo: diseaseId })),
    section('guidelines', missing, () => guidelines(ctx, { indication: args.indication })),
    section('hta', missing, () => hta(ctx, { drug: args.drug, indication: args.indication })),
  ]);
  const geneticsRows = genetics.filter((g): g is Record<string, unknown> => g !== null).map((g) => ({
    target: g.target, genetic_direction: g.genetic_direction, evidence_count: g.evidence_count, concordance: g.concordance,
  }));
  const reversal = reversalOf(signature, drug);
  return {
    drug: { chembl_id: drug.id, name: drug.name, type: drug.drugType },
    indication: { query: args.indication, id: diseaseId },
    targets,
    genetics: geneticsRows,
    de_risking: deRisk,
    reversal,
    guidelines: guides ? { count: guides.count, results: guides.results, coverage: guides.coverage } : null,
    hta: decisions ? { count: decisions.count, results: decisions.results, coverage: decisions.coverage } : null,
    summary: summarise(geneticsRows, deRisk, reversal, guides, decisions, args.drug),
    missing: [...new Set(missing)].sort(),
  };
}

function summarise(
  genetics: Array<{ concordance: unknown }>, deRisk: Record<string, unknown>, reversal: Record<string, unknown> | null,
  guides: Record<string, unknown> | null, decisions: Record<string, unknown> | null, drugName: string,
): Record<string, unknown> {
  const verdicts = genetics.map((g) => (g.concordance as { verdict: string | null } | null)?.verdict).filter((v): v is string => Boolean(v));
  const score = reversal?.drug_score as number | null | undefined;
  const mentions = ((guides?.results as Array<{ drugs: string[] }> | undefined) ?? []).filter((r) => r.drugs.some((d) => d.toLowerCase() === drugName.trim().toLowerCase())).length;
  return {
    genetic_concordance: verdicts.includes('discordant') ? 'discordant' : verdicts.includes('concordant') ? 'concordant' : 'no_verdict',
    clinical_stage: deRisk.max_phase_for_indication ?? null,
    risk_flags: deRisk.flags,
    reversal: reversal === null ? 'no_signature' : score === null || score === undefined ? 'not_profiled' : score < 0 ? 'reverses' : 'mimics',
    guideline_recommendations: guides ? (guides.count as number) : null,
    guidelines_naming_drug: guides ? mentions : null,
    hta_decisions: decisions ? (decisions.count as number) : null,
  };
}
