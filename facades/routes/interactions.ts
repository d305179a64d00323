/** Route-table entries of interaction screening and prescription validation. */
import { LOOKUP_SYSTEMS, EXTRA_SYSTEMS } from '../../vocabulary/systems.ts';
import { AGE_BANDS, CONDITIONS, EGFR_BANDS, PREGNANCY, SEXES } from '../../resolvers/prescriptions/cautions.ts';
import { refusePhi } from '../../resolvers/prescriptions/phi.ts';
import { SOURCES } from './catalogue.ts';
import { datasetsOfMeta } from '../http/receipts.ts';
import type { RouteDef, RouteInput } from './types.ts';

/** A drug reference: a string (uuid, any code, ATC, name) or an explicit `{ system, code }`. */
export const DRUG_REFERENCE = {
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 200, description: 'Drug uuid, pack or registration code (GTIN, pharmacode, NDC, CIP13, PZN ...), UNII, "rxcui:<n>", level-5 ATC code, substance or product name.' },
    {
      type: 'object', required: ['system', 'code'], additionalProperties: false,
      properties: {
        system: { type: 'string', enum: [...LOOKUP_SYSTEMS, ...EXTRA_SYSTEMS], description: 'Code system.' },
        code: { type: 'string', minLength: 1, maxLength: 100, description: 'The code as printed.' },
      },
    },
  ],
} as const;

const RESOLVED = 'index reference resolved matchedBy label substances { unii name } atcCodes matches { kind id name atcCodes } reason';
const ROW = 'atcCodes inputs rule { key a b } severity evidence description commercial licence attributions mechanism management source crossReferences { system code atc name } interactionType';

const checkRoute: RouteDef = {
  operationId: 'checkInteractions',
  method: 'POST',
  path: '/v1/interactions/check',
  scope: null,
  summary: 'N-way interaction check over 2 to 50 drugs.',
  description: 'Resolves each reference to its ATC code(s) and checks the unique sorted pairs. Non-commercial rows are returned to every plan and are not metered; commercially licensed rows (mechanism, management) need interactions:write and quota left (one request is counted when they are delivered), otherwise they are counted in `locked`.',
  tags: ['interactions'],
  body: {
    type: 'object', required: ['drugs'], additionalProperties: false,
    properties: { drugs: { type: 'array', minItems: 2, maxItems: 50, items: DRUG_REFERENCE, description: 'The drugs to check, 2 to 50.' } },
  },
  document: `query ($drugs: [JSON!]!) { checkInteractions(drugs: $drugs) {
    inputs { ${RESOLVED} } unresolved pairsChecked interactions { ${ROW} } locked { count why } ${SOURCES} } }`,
  metered: false,
  statuses: [200, 401, 403, 422],
  mcp: { name: 'check_interactions', description: 'Check 2 to 50 drugs (names, brand names, ATC codes, UNIIs, pack codes such as GTIN or pharmacode, or drug uuids) for drug-drug interactions. Returns what each input resolved to, every interacting pair with severity (contraindicated/major/moderate/minor), evidence and description, with licence and attributions; mechanism and management texts when the plan includes them (otherwise counted in locked).' },
};

const CONTEXT = {
  type: 'object', additionalProperties: false, description: 'Coarse, non-identifying context only.',
  properties: {
    age_band: { type: 'string', enum: [...AGE_BANDS], description: 'Age band in years.' },
    sex: { type: 'string', enum: [...SEXES] },
    pregnancy: { type: 'string', enum: [...PREGNANCY] },
    egfr_band: { type: 'string', enum: [...EGFR_BANDS], description: 'KDIGO GFR category: g1 ≥90, g2 60–89, g3a 45–59, g3b 30–44, g4 15–29, g5 <15 mL/min/1.73 m².' },
    conditions: { type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'string', enum: [...CONDITIONS] } },
    allergies: { type: 'array', maxItems: 20, items: DRUG_REFERENCE, description: 'Allergens: substances, drugs or ATC class codes (e.g. J01C for penicillins).' },
  },
} as const;

/** REST snake_case context → the resolver's camelCase. */
function prescriptionVariables(input: RouteInput): Record<string, unknown> {
  const body = input.body as { proposed: unknown[]; current?: unknown[]; context?: Record<string, unknown> };
  const c = body.context ?? {};
  return {
    proposed: body.proposed,
    current: body.current ?? [],
    context: { ageBand: c.age_band, sex: c.sex, pregnancy: c.pregnancy, egfrBand: c.egfr_band, conditions: c.conditions, allergies: c.allergies },
  };
}

const validateRoute: RouteDef = {
  operationId: 'validatePrescription',
  method: 'POST',
  path: '/v1/prescriptions/validate',
  scope: 'interactions:write',
  summary: 'Screen a proposed prescription against current medications and coarse context.',
  description: 'Accepts drug identifiers and coarse context only. Any identifying field (name, dob, mrn, email, ssn, ahv, address, phone ...) at any depth and in any letter case is refused with 422 phi_field_rejected before validation; such a body is never stored or logged. A 200 answer carries `receipt`: a compact JWS (EdDSA, Ed25519) whose payload holds the SHA-256 (base64url) of the body bytes as received, the decision, the data set versions (`datasets`), `iat`, `iss` and `retention: "none"`; verify it with the keys at /.well-known/jwks.json.',
  tags: ['interactions'],
  body: {
    type: 'object', required: ['proposed'], additionalProperties: false,
    properties: {
      proposed: { type: 'array', minItems: 1, maxItems: 10, items: DRUG_REFERENCE, description: 'Drugs to be prescribed, 1 to 10.' },
      current: { type: 'array', maxItems: 50, items: DRUG_REFERENCE, description: 'Current medications, up to 50.' },
      context: CONTEXT,
    },
  },
  screenBody: (body) => refusePhi(body),
  variables: prescriptionVariables,
  receipt: (body) => ({ decision: (body as { decision: string }).decision, datasets: datasetsOfMeta(body) }),
  document: `query ($proposed: [JSON!]!, $current: [JSON!], $context: JSON) { validatePrescription(proposed: $proposed, current: $current, context: $context) {
    decision reasons { kind level proposedIndex atcCode message related } proposed { ${RESOLVED} } current { ${RESOLVED} } allergies { ${RESOLVED} }
    interactions { ${ROW} } ${SOURCES} } }`,
  statuses: [200, 401, 403, 422],
  // Patient context is not offered to language-model tools: a tool call's arguments would
  // bypass the pre-validation PHI screen's guarantees about what reaches logs and traces.
  mcp: false,
};

export const interactionRoutes: RouteDef[] = [checkRoute, validateRoute];
