/**
 * The medications of a CDS Hooks request, read from FHIR (R4, also STU3 and R5 shapes):
 * draft MedicationRequests in `context.draftOrders` (for `order-select`, those named in
 * `context.selections` are the ones being decided; the other drafts count as current) and
 * the active MedicationRequests of the `medications` prefetch. Of each order only the
 * medication's codings are read (`medicationCodeableConcept`, R5 `medication.concept`, or
 * the Medication resource a `medicationReference` points to, contained or in a bundle) and
 * the order's own `id`, so a suggestion can name the draft it replaces. Nothing else of the
 * resources is looked at: not the subject, not the dosage, not the narrative.
 */
import type { DrugReference } from '../interactions/references.ts';
import { atcLevel } from '../../vocabulary/codes.ts';

type Json = Record<string, unknown>;

/** A coding as sent: system and code. */
export interface Coding {
  system: string;
  code: string;
  display?: string;
}

/** One medication order of the request. */
export interface OrderedMedication {
  /** `draft` (being decided), `pending` (another draft order) or `active` (prefetch). */
  role: 'draft' | 'pending' | 'active';
  /** `MedicationRequest/<id>` when the order has an id. */
  resourceId: string | null;
  codings: Coding[];
  /** Drug references to try, most specific first (pack codes, product codes, RxNorm, ATC). */
  candidates: DrugReference[];
  /** RxNorm codes, for the RxNav ingredient fallback. */
  rxcuis: string[];
}

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** Code systems drugref reads, in order of specificity, and the references each code yields. */
const SYSTEMS: Array<{ uris: string[]; refs: (code: string) => DrugReference[] }> = [
  { uris: ['urn:oid:1.3.160', 'https://www.gs1.org/gtin', 'http://www.gs1.org/gtin'], refs: (code) => [{ system: 'gtin', code }] },
  // FHIR NDCs come dashed (10 digits) or as 11 digits; the catalogue's code reading knows every layout.
  { uris: ['http://hl7.org/fhir/sid/ndc'], refs: (code) => [/^NDC/i.test(code) ? code : `NDC ${code}`] },
  { uris: ['http://fhir.de/CodeSystem/ifa/pzn'], refs: (code) => [{ system: 'pzn', code }] },
  { uris: ['https://smt.esante.gouv.fr/terminologie-cip_ucd'], refs: (code) => [{ system: 'cip13', code }, { system: 'cip7', code }] },
  { uris: ['https://smt.esante.gouv.fr/terminologie-bdpm'], refs: (code) => [{ system: 'cis', code }] },
  // dm+d ids are SNOMED CT ids; the level (AMPP, VMPP, AMP, VMP, VTM) is not told by the code.
  {
    uris: ['https://dmd.nhs.uk', 'http://snomed.info/sct'],
    refs: (code) => (['dmd_amppid', 'dmd_vmppid', 'dmd_apid', 'dmd_vmpid', 'dmd_vtmid'] as const).map((system) => ({ system, code })),
  },
  { uris: [RXNORM], refs: (code) => [`rxcui:${code}`] },
  { uris: ['http://fdasis.nlm.nih.gov'], refs: (code) => [code] },
  { uris: ['http://www.whocc.no/atc', 'http://fhir.de/CodeSystem/bfarm/atc', 'https://smt.esante.gouv.fr/terminologie-atc'], refs: (code) => (atcLevel(code.toUpperCase()) === 5 ? [code.toUpperCase()] : []) },
];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

function codingsOf(concept: unknown): Coding[] {
  if (!isObject(concept) || !Array.isArray(concept.coding)) return [];
  return concept.coding.flatMap((c: unknown): Coding[] => {
    if (!isObject(c)) return [];
    const system = text(c.system);
    const code = text(c.code);
    return system && code ? [{ system, code, ...(text(c.display) ? { display: text(c.display)! } : {}) }] : [];
  });
}

/** Resources of a Bundle (entries without a resource are skipped). */
export function bundleResources(bundle: unknown): Json[] {
  if (!isObject(bundle) || !Array.isArray(bundle.entry)) return [];
  return bundle.entry.flatMap((e: unknown) => (isObject(e) && isObject(e.resource) ? [e.resource] : []));
}

/** The Medication a reference points to: contained (`#id`) or elsewhere in the request. */
function referencedMedication(reference: unknown, order: Json, medications: readonly Json[]): Json | null {
  const ref = isObject(reference) ? text(reference.reference) : null;
  if (!ref) return null;
  if (ref.startsWith('#')) {
    const contained = Array.isArray(order.contained) ? order.contained.filter(isObject) : [];
    return contained.find((r) => r.resourceType === 'Medication' && r.id === ref.slice(1)) ?? null;
  }
  const id = ref.split('/').pop();
  return medications.find((m) => m.id === id) ?? null;
}

/** The codings naming an order's medication, whichever FHIR version shaped it. */
function medicationCodings(order: Json, medications: readonly Json[]): Coding[] {
  const r5 = isObject(order.medication) ? order.medication : null;
  const direct = [...codingsOf(order.medicationCodeableConcept), ...codingsOf(r5?.concept)];
  if (direct.length) return direct;
  const medication = referencedMedication(order.medicationReference ?? r5?.reference, order, medications);
  return medication ? codingsOf(medication.code) : [];
}

function candidatesOf(codings: readonly Coding[]): DrugReference[] {
  const out: DrugReference[] = [];
  for (const { uris, refs } of SYSTEMS) {
    for (const c of codings) if (uris.includes(c.system)) out.push(...refs(c.code));
  }
  return out;
}

function toOrdered(order: Json, role: OrderedMedication['role'], medications: readonly Json[]): OrderedMedication {
  const codings = medicationCodings(order, medications);
  const id = text(order.id);
  return {
    role,
    resourceId: id ? `MedicationRequest/${id}` : null,
    codings,
    candidates: candidatesOf(codings),
    rxcuis: codings.filter((c) => c.system === RXNORM && /^\d{1,9}$/.test(c.code)).map((c) => c.code),
  };
}

/** Prefetched orders that no longer stand (FHIR MedicationRequest.status). */
const ENDED = new Set(['stopped', 'cancelled', 'completed', 'entered-in-error']);

/**
 * Every medication order of the request, drafts first. `selections` (order-select) marks
 * which drafts are being decided; without it (order-sign) every draft is.
 */
export function orderedMedications(draftOrders: unknown, prefetched: unknown, selections?: readonly string[]): OrderedMedication[] {
  const drafts = bundleResources(draftOrders);
  const active = bundleResources(prefetched);
  const medications = [...drafts, ...active].filter((r) => r.resourceType === 'Medication');
  const chosen = selections ? new Set(selections) : null;
  const draftOrders_ = drafts.filter((r) => r.resourceType === 'MedicationRequest').map((order) => {
    const selected = !chosen || chosen.has(`MedicationRequest/${String(order.id)}`);
    return toOrdered(order, selected ? 'draft' : 'pending', medications);
  });
  const draftIds = new Set(draftOrders_.map((d) => d.resourceId).filter(Boolean));
  const current = active
    .filter((r) => r.resourceType === 'MedicationRequest' && !ENDED.has(String(r.status)))
    .map((order) => toOrdered(order, 'active', medications))
    // A draft revising an active order is screened as the draft, not against itself.
    .filter((m) => !m.resourceId || !draftIds.has(m.resourceId));
  return [...draftOrders_, ...current];
}

/** `system|code` of a coding, as cards print it. */
export function codingText(c: Coding): string {
  return `${c.system}|${c.code}`;
}
