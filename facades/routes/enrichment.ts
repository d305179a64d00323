/**
 * Route-table entries of the enrichment domain: RxNorm and the passthrough resolvers
 * over public data sets. Every answer carries `x-service-cache` (set by the resolvers).
 */
import type { RouteDef } from './types.ts';

const NAME = { type: 'string', minLength: 2, maxLength: 200 } as const;
const ENRICHMENT_STATUSES = [200, 401, 403, 404, 422, 502, 503];

const RX_CONCEPT = `rxcui name tty synonym ingredients { rxcui name tty } brands { rxcui name tty } doseFormDrugs { rxcui name tty }
  atcClasses { code name ingredientRxcui ingredientName } ndcs crosswalk { system code name } missing`;

/** RxNorm concept and name resolution. */
export const rxnormRoutes: RouteDef[] = [
  {
    operationId: 'resolveRxnorm',
    method: 'GET',
    path: '/v1/rxnorm/resolve',
    scope: 'drugs:read',
    summary: 'Map a free-text drug name to an RxNorm rxcui (exact normalised match first, then approximate).',
    tags: ['rxnorm'],
    query: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { ...NAME, description: 'Drug name, e.g. "Lipitor" or "atorvastatin 10 mg tablet".' } } },
    document: 'query ($name: String!) { rxnormResolve(name: $name) { query normalizedName rxcui name matchType score candidates { rxcui name score rank } } }',
    notFound: 'RxNorm concept for that name',
    statuses: ENRICHMENT_STATUSES,
    mcp: {
      name: 'resolve_rxnorm',
      description: 'Find the RxNorm concept id (rxcui) for a US drug name (brand, ingredient or clinical drug string). Tries an exact normalised match first, then approximate matching; match_type says which, and approximate answers list the ranked candidates.',
    },
  },
  {
    operationId: 'getRxnormConcept',
    method: 'GET',
    path: '/v1/rxnorm/{rxcui}',
    scope: 'drugs:read',
    summary: 'One RxNorm concept: name, ingredients, brands, dose-form drugs, ATC classes, NDCs (and a licensed crosswalk when configured).',
    description: 'Parts that failed upstream are empty and listed in `missing`; the answer is still 200.',
    tags: ['rxnorm'],
    params: { type: 'object', required: ['rxcui'], additionalProperties: false, properties: { rxcui: { type: 'string', pattern: '^[0-9]{1,10}$', description: 'RxNorm concept id, digits only, e.g. 617312.' } } },
    query: { type: 'object', additionalProperties: false, properties: {} },
    document: `query ($rxcui: String!) { rxnorm(rxcui: $rxcui) { ${RX_CONCEPT} } }`,
    notFound: 'RxNorm concept',
    statuses: ENRICHMENT_STATUSES,
    mcp: {
      name: 'get_rxnorm_concept',
      description: 'Get an RxNorm concept by rxcui: its name and term type, ingredients, brand names, clinical and branded dose-form drugs, WHO ATC classes and US NDC package codes. If some parts could not be fetched they are empty and named in "missing".',
    },
  },
];

/** A GET whose answer is one JSON field of the internal schema; null → 404. */
function passthrough(def: Omit<RouteDef, 'method' | 'scope' | 'tags' | 'statuses' | 'document'> & { field: string; args: Record<string, string> }): RouteDef {
  const { field, args, ...rest } = def;
  const vars = Object.entries(args).map(([k, t]) => `$${k}: ${t}`).join(', ');
  const call = Object.keys(args).map((k) => `${k}: $${k}`).join(', ');
  return { ...rest, method: 'GET', scope: 'drugs:read', tags: ['enrichment'], statuses: ENRICHMENT_STATUSES, document: `query (${vars}) { ${field}(${call}) }` };
}

const nameQuery = (description: string) => ({ type: 'object', required: ['name'], additionalProperties: false, properties: { name: { ...NAME, description } } });

/** The four paths with neutral segments (spec, Conventions). */
export const neutralRoutes: RouteDef[] = [
  passthrough({
    operationId: 'getMoleculeEnrichment',
    path: '/v1/molecule-enrichment',
    summary: 'Molecule facts (type, phase, approval year, structure, properties, synonyms) from ChEMBL.',
    query: {
      type: 'object', additionalProperties: false,
      properties: { chembl_id: { type: 'string', pattern: '^[Cc][Hh][Ee][Mm][Bb][Ll][0-9]{1,10}$', description: 'ChEMBL molecule id, e.g. CHEMBL1487.' }, name: { ...NAME, description: 'Preferred name or synonym, e.g. atorvastatin.' } },
    },
    field: 'moleculeEnrichment',
    args: { chemblId: 'String', name: 'String' },
    notFound: 'Molecule',
    mcp: { name: 'get_molecule_enrichment', description: 'Look up a drug molecule in ChEMBL by ChEMBL id (e.g. "CHEMBL1487") or by name (exactly one): molecule type, highest clinical phase, first approval year, ATC codes, synonyms and trade names, SMILES/InChIKey and physico-chemical properties.' },
  }),
  passthrough({
    operationId: 'getUsApprovals',
    path: '/v1/us-approvals',
    summary: 'US FDA applications (NDA, ANDA, BLA) with products and approval dates, from Drugs@FDA.',
    query: nameQuery('Brand or generic name, e.g. Lipitor.'),
    field: 'usApprovals',
    args: { name: 'String!' },
    notFound: 'US approval for that name',
    mcp: { name: 'get_us_approvals', description: 'List US FDA marketing applications (NDA/ANDA/BLA) for a brand or generic drug name from Drugs@FDA: sponsor, original approval date, review priority, latest submission and each product with dosage form, route, strength and marketing status.' },
  }),
  passthrough({
    operationId: 'getPharmacologyTargets',
    path: '/v1/pharmacology-targets',
    summary: 'Targets, actions and affinities of a ligand from the IUPHAR/BPS Guide to PHARMACOLOGY.',
    query: nameQuery('Ligand (drug) name, e.g. atorvastatin.'),
    field: 'pharmacologyTargets',
    args: { name: 'String!' },
    notFound: 'Ligand',
    mcp: { name: 'get_pharmacology_targets', description: 'Get the molecular targets of a drug from the IUPHAR/BPS Guide to PHARMACOLOGY: each target with species, whether it is the primary target, interaction type and action, and affinity (pKi, pIC50 ...) with PubMed references.' },
  }),
  passthrough({
    operationId: 'getUsNdcClass',
    path: '/v1/us-ndc-class',
    summary: 'FDA pharmacologic classes (EPC, MoA, PE, CS) and NDC products for a name, from the NDC directory.',
    query: nameQuery('Brand or generic name, e.g. atorvastatin.'),
    field: 'usNdcClass',
    args: { name: 'String!' },
    notFound: 'NDC product for that name',
    mcp: { name: 'get_us_ndc_class', description: 'Get the FDA Established Pharmacologic Class (EPC), mechanism of action (MoA), physiologic effect (PE) and chemical structure (CS) classes of a US drug by name, with the matching NDC products and labelers.' },
  }),
];

/** Pharmacogenomics and target evidence. */
export const targetRoutes: RouteDef[] = [
  passthrough({
    operationId: 'getPgx',
    path: '/v1/pgx',
    summary: 'Pharmacogenomic gene–drug pairs (CPIC levels, PharmGKB levels, guidelines) for a drug.',
    query: nameQuery('Drug (ingredient) name, e.g. warfarin.'),
    field: 'pgx',
    args: { name: 'String!' },
    notFound: 'Drug in CPIC',
    mcp: { name: 'get_pgx', description: 'Get the pharmacogenomic genes that affect a drug (e.g. warfarin: CYP2C9, VKORC1) from CPIC: CPIC level (A strongest to D), PharmGKB clinical annotation level, whether testing is actionable, and the CPIC guideline link.' },
  }),
  passthrough({
    operationId: 'getTargets',
    path: '/v1/targets',
    summary: 'A drug\'s molecular targets, mechanisms and indications from the Open Targets Platform.',
    query: nameQuery('Drug name, e.g. atorvastatin.'),
    field: 'targets',
    args: { name: 'String!' },
    notFound: 'Drug in Open Targets',
    mcp: { name: 'get_drug_targets', description: 'Get the molecular targets of a drug from Open Targets: each target gene (Ensembl id, symbol) with the mechanism of action and action type (inhibitor, agonist ...), plus the drug\'s indications with the highest clinical phase reached.' },
  }),
  passthrough({
    operationId: 'getTargetGenetics',
    path: '/v1/targets/genetics',
    summary: 'Human genetic evidence between a target and a disease, with the protective direction and, given a drug, a concordance verdict.',
    query: {
      type: 'object', required: ['gene', 'disease'], additionalProperties: false,
      properties: {
        gene: { type: 'string', minLength: 1, maxLength: 100, description: 'Gene symbol (HMGCR) or Ensembl gene id (ENSG00000113161).' },
        disease: { type: 'string', minLength: 2, maxLength: 200, description: 'Disease label or ontology id (EFO_0001645, MONDO_..., Orphanet_...).' },
        drug: { ...NAME, description: 'Optional drug name; adds a concordance verdict (concordant or discordant).' },
      },
    },
    field: 'targetGenetics',
    args: { gene: 'String!', disease: 'String!', drug: 'String' },
    notFound: 'Gene or disease',
    mcp: { name: 'get_target_genetics', description: 'Check human genetic evidence (GWAS, rare-variant burden, ClinVar ...) linking a gene to a disease in Open Targets, and which way it points: whether inhibiting or activating the target should help. Give a drug name to get a concordance verdict: "concordant" when the drug acts on the target in the genetically supported direction, "discordant" otherwise.' },
  }),
  passthrough({
    operationId: 'getTargetStructure',
    path: '/v1/targets/structure',
    summary: 'A gene\'s reviewed UniProt entry with experimental PDB structures and the AlphaFold model.',
    query: {
      type: 'object', required: ['symbol'], additionalProperties: false,
      properties: {
        symbol: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9-]+$', description: 'Gene symbol, e.g. HMGCR.' },
        organism_id: { type: 'integer', minimum: 1, default: 9606, description: 'NCBI taxonomy id; 9606 (human) by default.' },
      },
    },
    field: 'targetStructure',
    args: { symbol: 'String!', organismId: 'Int!' },
    notFound: 'Reviewed UniProt entry for that gene',
    mcp: { name: 'get_target_structure', description: 'Get protein structure information for a gene: its reviewed UniProt entry (accession, protein name, length), experimental PDB structures sorted by resolution, and the AlphaFold predicted model with its mean pLDDT confidence and download links. organism_id defaults to 9606 (human).' },
  }),
];

const CURATED_STATUSES = [200, 401, 403, 422, 502, 503];

/** Curated guidelines and HTA: never 404, a coverage note instead. */
export const curatedRoutes: RouteDef[] = [
  {
    ...passthrough({
      operationId: 'getGuidelines',
      path: '/v1/guidelines',
      summary: 'Curated guideline recommendations by indication, ATC code or publisher; a coverage note instead of 404 when nothing matches.',
      query: {
        type: 'object', additionalProperties: false,
        properties: {
          indication: { ...NAME, description: 'Indication label (substring) or ontology id, e.g. "lung cancer" or EFO_0003060.' },
          atc: { type: 'string', pattern: '^[A-Za-z]([0-9]{2}([A-Za-z]([A-Za-z]([0-9]{2})?)?)?)?$', description: 'ATC code of any level; matches guidelines on that branch.' },
          source: { type: 'string', enum: ['nccn', 'esmo', 'nice', 'asco'] },
        },
      },
      field: 'guidelines',
      args: { indication: 'String', atc: 'String', source: 'String' },
      mcp: { name: 'find_guidelines', description: 'Find clinical practice guideline recommendations (NCCN, ESMO, NICE, ASCO) in a small curated demonstration index, by indication, ATC code or publisher (at least one). Returns matching recommendations and a coverage note saying what the index covers; an empty result does not mean no guideline exists.' },
    }),
    statuses: CURATED_STATUSES,
  },
  {
    ...passthrough({
      operationId: 'getHta',
      path: '/v1/hta',
      summary: 'Curated HTA decisions with cost-effectiveness and value-based price range; a coverage note instead of 404 when nothing matches.',
      query: {
        type: 'object', additionalProperties: false,
        properties: {
          drug: { ...NAME, description: 'Drug name (substring).' },
          indication: { ...NAME, description: 'Indication label (substring) or ontology id.' },
          country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO alpha-2 country of the HTA body, e.g. GB, US, CA, DE.' },
          source: { type: 'string', enum: ['nice', 'icer', 'cadth', 'iqwig', 'smc'] },
        },
      },
      field: 'hta',
      args: { drug: 'String', indication: 'String', country: 'String', source: 'String' },
      mcp: { name: 'find_hta_decisions', description: 'Find health technology assessment decisions (NICE, ICER, CADTH, IQWiG, SMC) in a curated demonstration set by drug, indication, country or agency (at least one). Each decision has cost-effectiveness economics (cost per QALY, threshold) and, for ICER, the value-based price range hbpb_low/hbpb_high against list_price.' },
    }),
    statuses: CURATED_STATUSES,
  },
];

const GENE_LIST = { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$' } } as const;

/** Disease signatures and connectivity scoring. */
export const signatureRoutes: RouteDef[] = [
  passthrough({
    operationId: 'getSignature',
    path: '/v1/signatures',
    summary: 'A curated disease signature with the perturbations that reverse or mimic it (connectivity score).',
    description: 'A 404 lists the curated indications in `indications`.',
    query: {
      type: 'object', additionalProperties: false,
      properties: {
        indication: { ...NAME, description: 'Indication label (substring), e.g. "inflammatory bowel".' },
        efo: { type: 'string', pattern: '^[A-Za-z]+[_:][0-9]+$', description: 'Ontology id, e.g. EFO_0003767.' },
      },
    },
    field: 'signatures',
    args: { indication: 'String', efo: 'String' },
    mcp: { name: 'get_disease_signature', description: 'Get a curated disease gene-expression signature (by indication name or EFO id) and the compounds whose expression profiles reverse it (negative connectivity score, candidate therapeutics) or mimic it (positive). If no signature matches, the error lists the curated indications.' },
  }),
  {
    operationId: 'scoreSignature',
    method: 'POST',
    path: '/v1/signatures',
    scope: 'drugs:read',
    summary: 'Score your own disease signature (up- and down-regulated genes) against the perturbation data set.',
    description: 'Answers are cached by the order-independent gene sets. 404 when no gene is in the data set.',
    tags: ['enrichment'],
    body: {
      type: 'object', additionalProperties: false,
      properties: {
        up: { ...GENE_LIST, description: 'Up-regulated gene symbols of the disease signature.' },
        down: { ...GENE_LIST, description: 'Down-regulated gene symbols of the disease signature.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Reversers and mimickers returned, each.' },
      },
    },
    document: 'query ($up: [String!], $down: [String!], $limit: Int) { scoreSignature(up: $up, down: $down, limit: $limit) }',
    statuses: ENRICHMENT_STATUSES,
    mcp: { name: 'score_signature', description: 'Score a disease gene-expression signature given as lists of up-regulated and down-regulated gene symbols against a perturbation database, returning the top reversers (negative connectivity score, down to −1) and mimickers (positive, up to +1) with compound name and ChEMBL id.' },
  },
];

/** The composed drug-for-indication assessment. */
export const assessmentRoutes: RouteDef[] = [
  passthrough({
    operationId: 'getAssessment',
    path: '/v1/assessment',
    summary: 'One drug for one indication: targets, genetic concordance, de-risking profile, reversal signature, guidelines, HTA and a summary.',
    description: 'Sections whose source failed are null and named in `missing`; the answer is still 200.',
    query: {
      type: 'object', required: ['drug', 'indication'], additionalProperties: false,
      properties: {
        drug: { ...NAME, description: 'Drug name, e.g. atorvastatin.' },
        indication: { ...NAME, description: 'Indication label or ontology id, e.g. "coronary artery disease" or EFO_0001645.' },
      },
    },
    field: 'assessment',
    args: { drug: 'String!', indication: 'String!' },
    notFound: 'Drug or indication',
    mcp: { name: 'assess_drug_for_indication', description: 'Assess a drug for an indication in one call: its targets; whether human genetics supports acting on each target in the drug\'s direction (concordant/discordant); a de-risking profile (approval, clinical phase for the indication, boxed warning, actionable pharmacogenes); whether it reverses the curated disease signature; matching guidelines and HTA decisions; and a summary. Sections that could not be fetched are null and listed in "missing".' },
  }),
];

/** Every route of the enrichment domain, spread into the route table. */
export const enrichmentRoutes: RouteDef[] = [...rxnormRoutes, ...neutralRoutes, ...targetRoutes, ...curatedRoutes, ...signatureRoutes, ...assessmentRoutes];
