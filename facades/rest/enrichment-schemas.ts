/**
 * Answer schemas of the enrichment passthroughs (`Query.<field>` of the JSON scalar): each
 * resolver in resolvers/enrichment/ maps an upstream's record to the stable snake_case shape
 * docs/enrichment.md describes, and these schemas state that shape field by field.
 */
import type { JsonSchema } from '../routes/types.ts';
import { openObject } from './answer-schema.ts';

type Props = Record<string, JsonSchema>;

const S: JsonSchema = { type: 'string' };
const SN: JsonSchema = { type: ['string', 'null'] };
const N: JsonSchema = { type: 'number' };
const NN: JsonSchema = { type: ['number', 'null'] };
const I: JsonSchema = { type: 'integer' };
const IN: JsonSchema = { type: ['integer', 'null'] };
const B: JsonSchema = { type: 'boolean' };
const BN: JsonSchema = { type: ['boolean', 'null'] };
const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
/** A closed object whose every property is always present. */
const obj = (properties: Props, description?: string): JsonSchema =>
  ({ type: 'object', required: Object.keys(properties), properties, additionalProperties: false, ...(description ? { description } : {}) });
const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const source = (id: string): JsonSchema => ({ type: 'string', const: id, description: 'The source the answer comes from.' });

const MOLECULE = obj({
  chembl_id: S, pref_name: SN, molecule_type: SN, max_phase: NN, first_approval: IN, oral: BN, black_box_warning: BN,
  withdrawn: BN, indication_class: SN, atc_codes: arr(S), synonyms: arr(S), trade_names: arr(S),
  structure: obj({ smiles: SN, inchi_key: SN }),
  properties: obj({ molecular_formula: SN, molecular_weight: NN, alogp: NN, hba: NN, hbd: NN, psa: NN, rotatable_bonds: NN, ro5_violations: NN, qed: NN }),
  source: source('chembl'),
}, 'A ChEMBL molecule.');

const US_APPROVALS = obj({
  query: S, total: I, source: source('openfda'),
  applications: arr(obj({
    application_number: S, application_type: SN, sponsor_name: SN, brand_names: arr(S), generic_names: arr(S),
    original_approval_date: SN, review_priority: SN,
    latest_submission: orNull(obj({ type: SN, number: SN, status: SN, date: SN, class: SN })),
    products: arr(obj({
      product_number: SN, brand_name: SN, dosage_form: SN, route: SN, marketing_status: SN, reference_drug: B, te_code: SN, active_ingredients: arr(obj({ name: S, strength: S })),
    })),
  })),
}, 'US FDA applications, oldest approval first.');

const PHARMACOLOGY_TARGETS = obj({
  ligand: obj({ id: I, name: S, inn: SN, type: SN, approved: BN, withdrawn: BN, who_essential: BN, approval_source: SN }),
  interactions: arr(obj({
    target_id: I, target_name: SN, target_symbol: SN, target_type: SN, species: SN, primary_target: B, type: SN, action: SN,
    affinity: SN, affinity_type: SN, pmids: arr(I),
  })),
  source: source('gtopdb'),
}, 'IUPHAR/BPS targets of a ligand, primary human targets first.');

const US_NDC_CLASS = obj({
  query: S,
  classes: obj({ epc: arr(S), moa: arr(S), pe: arr(S), cs: arr(S) }, 'FDA pharmacologic class names by axis.'),
  products: arr(obj({ product_ndc: S, brand_name: SN, generic_name: SN, labeler_name: SN, marketing_category: SN, dosage_form: SN })),
  total: I, source: source('openfda'),
});

const PGX = obj({
  drug: obj({ name: S, cpic_drug_id: S, pharmgkb_id: SN, rxcui: SN, drugbank_id: SN, atc_codes: arr(S) }),
  pairs: arr(obj({
    gene: S, cpic_level: SN, cpic_level_status: SN, pharmgkb_level: SN, pgx_testing: SN, used_for_recommendation: B,
    guideline: orNull(obj({ name: S, url: SN })), pmids: arr({ type: ['string', 'integer'] }),
  })),
  source: source('cpic'),
}, 'CPIC gene–drug pairs, strongest level first.');

const OT_TARGET = obj({ ensembl_id: S, symbol: S, name: S, mechanism: S, action_type: SN });
const TARGETS = obj({
  drug: obj({ chembl_id: S, name: S, type: SN, max_phase: NN, approved: BN }),
  targets: arr(OT_TARGET),
  indications: arr(obj({ disease_id: S, disease_name: S, max_phase: NN })),
  source: source('opentargets'),
});

const DIRECTION = { type: 'string', enum: ['inhibit', 'activate', 'unclear', 'none'] };
const CONCORDANCE = orNull(obj({
  drug: S, drug_chembl_id: SN, drug_action: SN, drug_direction: { type: ['string', 'null'], enum: ['inhibit', 'activate', null] }, genetic_direction: DIRECTION,
  verdict: { type: ['string', 'null'], enum: ['concordant', 'discordant', null] }, reason: S,
}, 'Null without `drug`.'));
const GENETIC_TARGET = obj({ ensembl_id: S, symbol: S, name: SN });
const TARGET_GENETICS = obj({
  target: GENETIC_TARGET,
  disease: obj({ id: S, name: S }),
  evidence_count: I,
  genetic_direction: DIRECTION,
  direction_votes: obj({ inhibit: I, activate: I }),
  evidence: arr(obj({
    source: S, score: NN, variant_effect: SN, direction_on_trait: SN, supports: { type: ['string', 'null'], enum: ['inhibit', 'activate', null] },
    variant_rsid: SN, study_id: SN, beta: NN, odds_ratio: NN,
  })),
  concordance: CONCORDANCE,
  source: source('opentargets'),
});

const TARGET_STRUCTURE = obj({
  symbol: S, organism_id: I,
  uniprot: obj({ accession: S, entry_name: SN, protein_name: SN, gene_names: arr(S), organism: SN, length: IN, url: S }),
  alphafold: orNull(obj({ entry_id: S, version: IN, created: SN, mean_plddt: NN, residues: { type: ['array', 'null'], items: I }, cif_url: SN, pdb_url: SN, pae_image_url: SN })),
  pdb: arr(obj({ id: S, method: SN, resolution_angstrom: NN, chains: SN })),
  missing: arr(S),
  source: source('uniprot'),
});

const GUIDELINE = obj({
  id: S, source: S, title: S, indication: S, efo: SN, atc: arr(S), drugs: arr(S), population: S, recommendation: S, category: S, published: S, url: S,
});
const HTA_RECORD = obj({
  id: S, source: S, country: S, drug: S, indication: S, efo: SN, decision: S, decision_date: S, url: S,
  economics: obj({ icer_per_qaly: NN, threshold_per_qaly: NN, currency: SN, hbpb_low: NN, hbpb_high: NN, list_price: NN, price_unit: SN }),
});
const curatedList = (record: JsonSchema): JsonSchema => obj({
  results: arr(record), count: I, coverage: { type: 'string', description: 'What the curated set covers; says so when nothing matched.' },
  demo: B, source: source('curated'),
});

const PERTURBATION_ROW = obj({ perturbation_id: S, compound: S, chembl_id: SN, cell_line: SN, dose: SN, time: SN, score: N, es_up: N, es_down: N });
const PROVENANCE = { ...openObject('where the signature comes from (for a curated one: its study, data set and method).'), additionalProperties: { type: 'string' } };
const SCORED: Props = {
  matched: obj({ up: arr(S), down: arr(S), unmatched: arr(S) }),
  dataset: obj({ name: S, perturbations: I, genes: I, demo: B, notice: S }),
  reversers: arr(PERTURBATION_ROW), mimickers: arr(PERTURBATION_ROW), method: S,
};
const SIGNATURE = obj({
  signature: obj({ id: S, indication: S, efo: S, provenance: PROVENANCE, up_count: I, down_count: I, up: arr(S), down: arr(S) }),
  ...SCORED,
}, 'A curated disease signature with its reversers and mimickers.');
const SCORED_SIGNATURE = obj({
  signature: obj({ provenance: obj({ source: { type: 'string', const: 'caller' } }), up_count: I, down_count: I }),
  ...SCORED,
}, 'The caller\'s gene sets scored against the perturbation data set.');

const curatedSummary = (record: JsonSchema): JsonSchema => orNull(obj({ count: I, results: arr(record), coverage: S }));
const ASSESSMENT = obj({
  drug: obj({ chembl_id: S, name: S, type: SN }),
  indication: obj({ query: S, id: S }),
  targets: arr(OT_TARGET),
  genetics: arr(obj({ target: GENETIC_TARGET, genetic_direction: DIRECTION, evidence_count: I, concordance: CONCORDANCE })),
  de_risking: obj({
    approved: BN, max_phase: NN, max_phase_for_indication: NN, black_box_warning: BN, withdrawn: BN,
    pgx_actionable_genes: { type: ['array', 'null'], items: S }, flags: arr(S),
  }),
  reversal: orNull(obj({ signature_id: S, provenance: PROVENANCE, drug_score: NN, drug_reversal_rank: IN, top_reversers: arr(PERTURBATION_ROW) })),
  guidelines: curatedSummary(GUIDELINE),
  hta: curatedSummary(HTA_RECORD),
  summary: obj({
    genetic_concordance: { type: 'string', enum: ['concordant', 'discordant', 'no_verdict'] },
    clinical_stage: NN, risk_flags: arr(S),
    reversal: { type: 'string', enum: ['reverses', 'mimics', 'not_profiled', 'no_signature'] },
    guideline_recommendations: IN, guidelines_naming_drug: IN, hta_decisions: IN,
  }),
  missing: arr(S),
}, 'One drug for one indication; sections whose source failed are null and listed in `missing`.');

export const ENRICHMENT_SCHEMAS: Record<string, JsonSchema> = {
  'Query.moleculeEnrichment': MOLECULE,
  'Query.usApprovals': US_APPROVALS,
  'Query.pharmacologyTargets': PHARMACOLOGY_TARGETS,
  'Query.usNdcClass': US_NDC_CLASS,
  'Query.pgx': PGX,
  'Query.targets': TARGETS,
  'Query.targetGenetics': TARGET_GENETICS,
  'Query.targetStructure': TARGET_STRUCTURE,
  'Query.guidelines': curatedList(GUIDELINE),
  'Query.hta': curatedList(HTA_RECORD),
  'Query.signatures': SIGNATURE,
  'Query.scoreSignature': SCORED_SIGNATURE,
  'Query.assessment': ASSESSMENT,
};
