/**
 * One concept of a served code system, read the way the /v1 answers read it: an ATC node
 * through the request's ATC loaders, a UNII from the substance table, any pack or product
 * code through its stored identifier (normalised as the adapters stored it, as
 * /v1/drugs/lookup does). Each kind is one SQL statement (ATC: node, then children).
 */
import type { Queryable } from '../../platform/db.ts';
import type { RequestContext } from '../context.ts';
import { normaliseIdentifier } from '../../vocabulary/codes.ts';
import { PRODUCT_COLUMNS, toDrug } from '../catalogue/drug-rows.ts';
import type { DrugRow, ProductRecord } from '../catalogue/drug-rows.ts';
import { isValidUnii } from '../../vocabulary/check-digits.ts';
import { languagesOf } from './systems.ts';
import { currentVersion } from './versions.ts';
import type { TerminologySystem } from './systems.ts';

/** A property of a concept as $lookup lists it (FHIR Parameters `property` part). */
export interface ConceptProperty {
  code: string;
  value: { valueCode: string } | { valueString: string } | { valueBoolean: boolean } | { valueCoding: { system: string; code: string; display?: string } };
}

export interface Concept {
  system: TerminologySystem;
  /** The code as stored (normalised). */
  code: string;
  display: string;
  /** The system's version (resolvers/terminology/versions.ts), ISO 8601; null before the first sync. */
  version: string | null;
  /** `active` or `withdrawn` (ATC and UNII concepts are always active). */
  status: string;
  designations: Array<{ language: string; value: string }>;
  properties: ConceptProperty[];
  /** The drug record an identifier resolves to (for $translate). */
  drug?: DrugRow;
  /** The identifier names a pack (not a product). */
  packLevel?: boolean;
}

/** Either the concept, or why the code is no concept of the system (malformed or unknown). */
export type ConceptAnswer = { concept: Concept } | { concept: null; problem: string };

const code = (c: string, v: string): ConceptProperty => ({ code: c, value: { valueCode: v } });
const text = (c: string, v: string): ConceptProperty => ({ code: c, value: { valueString: v } });

async function atcConcept(ctx: RequestContext, system: TerminologySystem, raw: string): Promise<ConceptAnswer> {
  const wanted = raw.trim().toUpperCase();
  const [node, children] = await Promise.all([ctx.loaders.atcNode.load(wanted), ctx.loaders.atcChildren.load(wanted)]);
  if (!node) return { concept: null, problem: `${raw} is not an ATC code drugref holds.` };
  const properties: ConceptProperty[] = [text('level', String(node.level))];
  if (node.parentCode) properties.push(code('parent', node.parentCode));
  for (const child of children) properties.push(code('child', child.code));
  for (const ddd of node.ddd) properties.push(text('ddd', `${ddd.value} ${ddd.unit} ${ddd.route}${ddd.note ? ` (${ddd.note})` : ''}`));
  properties.push(code('status', 'active'));
  return {
    concept: {
      system, code: node.code, display: node.name, version: await currentVersion(ctx, system), status: 'active',
      designations: [{ language: 'en', value: node.name }], properties,
    },
  };
}

interface SubstanceRow { unii: string; name: string; names: Record<string, string> | null; rxcui: string | null; atc_codes: string[] }

async function uniiConcept(ctx: RequestContext, system: TerminologySystem, raw: string): Promise<ConceptAnswer> {
  const wanted = raw.trim().toUpperCase();
  if (!isValidUnii(wanted)) return { concept: null, problem: `${raw} is not a well-formed UNII (shape or check character).` };
  const { rows } = await ctx.db.query<SubstanceRow>('SELECT unii, name, names, rxcui, atc_codes FROM substances WHERE unii = $1', [wanted]);
  const row = rows[0];
  if (!row) return { concept: null, problem: `${raw} is not a UNII drugref holds.` };
  const designations = Object.entries(row.names ?? {}).filter(([, v]) => typeof v === 'string' && v !== '').map(([language, value]) => ({ language, value }));
  const properties = [code('status', 'active'), ...row.atc_codes.map((a) => code('atc', a)), ...(row.rxcui ? [code('rxnorm', row.rxcui)] : [])];
  return { concept: { system, code: row.unii, display: row.name, version: await currentVersion(ctx, system), status: 'active', designations, properties } };
}

type IdentifierMatch = ProductRecord & { matched_system: string; matched_code: string; pack_id: string | null; pack_status: string | null; pack_description: string | null };

/**
 * The drug of a stored identifier in any of the system's stored forms, with the matched
 * pack. Same precedence as /v1/drugs/lookup: pack rows first, representatives before the
 * rows merged into them, marketed before withdrawn.
 */
async function identifierMatch(db: Queryable, pairs: Array<[string, string]>): Promise<IdentifierMatch | null> {
  const { rows } = await db.query<IdentifierMatch>(
    `SELECT ${PRODUCT_COLUMNS}, i.system AS matched_system, i.code AS matched_code, coalesce(k.merged_into, k.id) AS pack_id,
            k.marketing_status AS pack_status, k.description AS pack_description
       FROM identifiers i JOIN products m ON m.id = i.drug_id JOIN products p ON p.id = coalesce(m.merged_into, m.id)
       LEFT JOIN packs k ON k.id = i.pack_id
      WHERE (i.system, i.code) IN (SELECT * FROM unnest($1::text[], $2::text[]))
      ORDER BY (i.pack_id IS NULL), (k.merged_into IS NOT NULL), (p.marketing_status = 'withdrawn'), p.id LIMIT 1`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  return rows[0] ?? null;
}

async function identifierConcept(ctx: RequestContext, system: TerminologySystem, raw: string): Promise<ConceptAnswer> {
  const pairs = system.stored.map((s) => [s, normaliseIdentifier(s, raw)] as const).filter((p): p is [string, string] => p[1] !== null);
  if (!pairs.length) return { concept: null, problem: `"${raw}" is not a well-formed ${system.name} code (shape or check digit).` };
  const row = await identifierMatch(ctx.db, pairs);
  if (!row) return { concept: null, problem: `${system.name} code ${raw} is not in any register drugref holds.` };
  const drug = toDrug(row);
  const status = row.pack_status ?? drug.marketingStatus;
  const display = row.pack_description ? `${drug.productName}, ${row.pack_description}` : drug.productName;
  const properties: ConceptProperty[] = [code('status', status), code('country', drug.country), text('drugref-id', drug.id), text('source', drug.source)];
  if (drug.atcCode) properties.push(code('atc', drug.atcCode));
  if (drug.doseForm) properties.push(text('dose-form', drug.doseForm));
  if (drug.holder) properties.push(text('holder', drug.holder));
  const concept: Concept = {
    system, code: row.matched_code, display, version: await currentVersion(ctx, system), status,
    designations: [{ language: languagesOf(drug.country)[0] ?? 'en', value: display }], properties, drug, packLevel: row.pack_id !== null,
  };
  return { concept };
}

/** The concept `raw` names in `system`, or why there is none. */
export function readConcept(ctx: RequestContext, system: TerminologySystem, raw: string): Promise<ConceptAnswer> {
  if (system.kind === 'atc') return atcConcept(ctx, system, raw);
  if (system.kind === 'unii') return uniiConcept(ctx, system, raw);
  return identifierConcept(ctx, system, raw);
}
