/**
 * The drug record as a FHIR R4 Medication (GET /v1/drugs/{id}?format=fhir). Pure mapping
 * from rows the loaders already hold, so `format=fhir` costs the same round trips as JSON.
 */
import { isValidUnii } from '../../vocabulary/check-digits.ts';
import type { DrugRow } from './drug-rows.ts';
import type { IdentifierRow, IngredientRow } from './loaders.ts';
import { systemOfStored } from '../terminology/systems.ts';

export const ATC_SYSTEM = 'http://www.whocc.no/atc';
export const UNII_SYSTEM = 'http://fdasis.nlm.nih.gov';
const UCUM = 'http://unitsofmeasure.org';

/**
 * The FHIR system URI of a stored identifier system: the published one of the terminology
 * service's table (resolvers/terminology/systems.ts, docs/fhir-terminology.md), else a
 * stable URN of ours (docs/api-decisions.md), because inventing an authority's URL would mislead.
 */
export function identifierSystemUri(system: string): string {
  const served = systemOfStored(system);
  return served?.published ? served.uri : `urn:drugref:identifier:${system}`;
}

interface Quantity {
  value: number;
  unit: string;
  system?: string;
  code?: string;
}

function quantity(value: number, unit: string): Quantity {
  return { value, unit, system: UCUM, code: unit };
}

/**
 * Strength as a FHIR Ratio: `500 mg` is 500 mg per 1 unit of presentation, `40 mg/ml`
 * is 40 mg per 1 ml, `100 mg/5 ml` is 100 mg per 5 ml.
 */
export function strengthRatio(value: number, unit: string | null): { numerator: Quantity; denominator: Quantity } {
  const [num = '', den] = (unit ?? '1').split('/').map((s) => s.trim());
  if (den === undefined) return { numerator: quantity(value, num || '1'), denominator: quantity(1, '1') };
  const m = /^(\d+(?:\.\d+)?)?\s*(.+)$/.exec(den);
  return { numerator: quantity(value, num), denominator: quantity(m?.[1] ? Number(m[1]) : 1, m?.[2] ?? den) };
}

function ingredient(row: IngredientRow) {
  const display = row.name ?? row.unii;
  // Provisional keys (name:…, bdpm:…) are not UNIIs: they travel as text only.
  const coding = isValidUnii(row.unii) ? [{ system: UNII_SYSTEM, code: row.unii, display }] : [];
  return {
    itemCodeableConcept: { ...(coding.length ? { coding } : {}), text: display },
    isActive: true,
    ...(row.strengthValue !== null ? { strength: strengthRatio(row.strengthValue, row.strengthUnit) } : {}),
  };
}

/** The FHIR R4 Medication resource of a drug. */
export function fhirMedication(
  drug: DrugRow,
  ingredients: IngredientRow[],
  identifiers: IdentifierRow[],
  atcName: string | null,
): Record<string, unknown> {
  const coding = drug.atcCode ? [{ system: ATC_SYSTEM, code: drug.atcCode, ...(atcName ? { display: atcName } : {}) }] : [];
  return {
    resourceType: 'Medication',
    id: drug.id,
    identifier: identifiers.map((i) => ({ system: identifierSystemUri(i.system), value: i.code })),
    code: { ...(coding.length ? { coding } : {}), text: drug.productName },
    status: drug.marketingStatus === 'active' ? 'active' : 'inactive',
    ...(drug.holder ? { manufacturer: { display: drug.holder } } : {}),
    ...(drug.doseForm ? { form: { text: drug.doseForm } } : {}),
    ingredient: ingredients.map(ingredient),
  };
}
