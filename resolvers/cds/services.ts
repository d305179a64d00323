/**
 * The CDS Hooks 2.0 services drugref offers (GET /cds-services): medication screening on
 * `order-select` and `order-sign`. The one prefetch template asks for the patient's active
 * medication orders only; no Patient, Observation or user resource is ever requested, so a
 * client that follows the discovery document sends nothing that identifies the patient.
 */
import { notFound } from '../../platform/errors.ts';

/** One service of the discovery document. */
export interface CdsService {
  id: string;
  hook: 'order-select' | 'order-sign';
  title: string;
  description: string;
  prefetch: Record<string, string>;
}

/** The prefetch key of the active medications, and its FHIR R4 search. */
export const MEDICATIONS_PREFETCH = 'medications';
const PREFETCH = { [MEDICATIONS_PREFETCH]: 'MedicationRequest?patient={{context.patientId}}&status=active' };

export const CDS_SERVICES: readonly CdsService[] = [
  {
    id: 'drugref-order-select',
    hook: 'order-select',
    title: 'drugref medication screening (order select)',
    description: 'Screens the newly selected medication orders against the other draft orders and the active medications: drug-drug interactions and duplicate therapy from drugref\'s reviewed interaction table, with alternatives where the table shows none. Reads medication codes only (RxNorm, ATC, GTIN, NDC, PZN, CIP, dm+d); refuses requests carrying identifying fields.',
    prefetch: PREFETCH,
  },
  {
    id: 'drugref-order-sign',
    hook: 'order-sign',
    title: 'drugref medication screening (order sign)',
    description: 'Screens every draft medication order about to be signed against the active medications and against each other: drug-drug interactions and duplicate therapy from drugref\'s reviewed interaction table, with alternatives where the table shows none. Reads medication codes only (RxNorm, ATC, GTIN, NDC, PZN, CIP, dm+d); refuses requests carrying identifying fields.',
    prefetch: PREFETCH,
  },
];

/** The service with this id, or 404 `not_found`. */
export function cdsService(id: unknown): CdsService {
  const service = CDS_SERVICES.find((s) => s.id === id);
  if (!service) throw notFound(`CDS service "${String(id).slice(0, 100)}"`);
  return service;
}
