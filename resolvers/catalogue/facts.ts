/**
 * Register facts of a drug record that have no column of their own (dispensing category,
 * generic groups, previous names, assessments ...): read from the stored product images of
 * the record and of every source row merged into it (0600_merge.sql). Each fact comes from
 * the representative when it states it, else from the first merged row that does.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import type { RequestContext } from '../context.ts';
import { readerOf } from './reader.ts';
import type { CatalogueReader } from './reader.ts';
import type { IngredientRow } from './loaders.ts';

/** The product-image members read here (snapshot ProductEntry field names). */
export const FACT_KEYS = [
  'dispensing_category', 'generic_groups', 'previous_names', 'additional_monitoring', 'authorisation_status',
  'veterinary', 'assessments', 'attributes', 'ingredients',
] as const;
type FactKey = (typeof FACT_KEYS)[number];

export type ProductFacts = Partial<Record<FactKey, unknown>>;

/**
 * Facts by representative product id, one query per batch. Only the fact members leave the
 * database: a whole product image is several times larger, and a page of 50 drugs spent
 * more on parsing images than on anything else it read.
 */
export function productFactsLoader(db: Queryable) {
  return new DataLoader<string, ProductFacts>(async (ids) => {
    const { rows } = await db.query<FactRow>(factsSql('$1::uuid[]', '$2::text[]'), [ids, FACT_KEYS], { prepare: true });
    const byId = factsById(rows);
    return ids.map((id) => byId.get(id) ?? {});
  });
}

/** The fact members of each product row and of the rows merged into it, representative first. */
export interface FactRow {
  id: string;
  record: Record<string, unknown> | null;
}

/** The facts statement over SQL expressions of the ids (`uuid[]`) and of `FACT_KEYS` (`text[]`). */
export const factsSql = (ids: string, keys: string): string => `SELECT coalesce(x.merged_into, x.id) AS id,
              (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(x.record) e WHERE e.key = ANY(${keys})) AS record
         FROM products x
        WHERE x.id = ANY(${ids}) OR x.merged_into = ANY(${ids})
        ORDER BY x.merged_into IS NOT NULL, x.source`;

/** Facts by representative id from rows in the statement's order (the first to state a fact wins). */
export function factsById(rows: readonly FactRow[]): Map<string, ProductFacts> {
  const byId = new Map<string, ProductFacts>();
  for (const { id, record } of rows) byId.set(id, addFacts(byId.get(id) ?? {}, record ?? {}));
  return byId;
}

/** Adds the facts `record` states that `facts` lacks (the first record to state a fact wins). */
export function addFacts(facts: ProductFacts, record: Record<string, unknown>): ProductFacts {
  for (const key of FACT_KEYS) if (facts[key] === undefined && record[key] !== undefined && record[key] !== null) facts[key] = record[key];
  return facts;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** A drug as the fact fields see it; a dated record (`as_of`) reads its facts as they stood (dated-record.ts). */
type FactDrug = { id: string; dated?: { reader: CatalogueReader } };

const drugFacts = (drug: FactDrug, ctx: RequestContext): Promise<ProductFacts> => readerOf(drug, ctx.loaders.catalogue).facts.load(drug.id);
const field = <T>(pick: (facts: ProductFacts) => T) =>
  async (drug: FactDrug, _: unknown, ctx: RequestContext): Promise<T> => pick(await drugFacts(drug, ctx));

/** GraphQL fields of a Drug answered from its facts. */
export const factFields = {
  dispensingCategory: field((f) => textOf(f.dispensing_category)),
  genericGroups: field((f) => list(f.generic_groups)),
  previousNames: field((f) => list(f.previous_names)),
  additionalMonitoring: field((f) => flag(f.additional_monitoring)),
  authorisationStatus: field((f) => textOf(f.authorisation_status)),
  veterinary: field((f) => f.veterinary === true),
  assessments: field((f) => list(f.assessments)),
  attributes: field((f) => (f.attributes && typeof f.attributes === 'object' ? f.attributes : null)),
};

/** An ingredient row with the drug it belongs to and its register order, for the fields read from the drug's facts. */
export type DrugIngredient = IngredientRow & { drug: FactDrug; position: number };

/**
 * The drug's ingredient rows. Their strength text and moiety strength come from the
 * drug's facts, read only when a query selects them (`ingredientFields`): a page of 50
 * drugs' ingredients without them costs no facts query.
 */
export async function ingredientsOf(drug: FactDrug, ctx: RequestContext): Promise<DrugIngredient[]> {
  const rows = await readerOf(drug, ctx.loaders.catalogue).ingredients.load(drug.id);
  // A literal, not a spread plus properties or Object.assign: per row (50 drugs: 50 or more),
  // and both copy generically on Node 20 (resolvers/context.ts).
  return rows.map((r, position) => ({
    unii: r.unii, name: r.name, moietyUnii: r.moietyUnii, strengthValue: r.strengthValue, strengthUnit: r.strengthUnit, drug, position,
  }));
}

/** The stored ingredient entry at the ingredient's position (register order). */
async function entryOf(ingredient: DrugIngredient, ctx: RequestContext): Promise<Record<string, unknown> | null> {
  const entry = list((await drugFacts(ingredient.drug, ctx)).ingredients)[ingredient.position];
  return entry && typeof entry === 'object' ? entry as Record<string, unknown> : null;
}

/** GraphQL fields of an Ingredient answered from its drug's facts. */
export const ingredientFields = {
  strengthText: async (ingredient: DrugIngredient, _: unknown, ctx: RequestContext) => textOf((await entryOf(ingredient, ctx))?.strength_text),
  moietyStrength: async (ingredient: DrugIngredient, _: unknown, ctx: RequestContext) => {
    const entry = await entryOf(ingredient, ctx);
    const moiety = entry?.moiety && typeof entry.moiety === 'object' ? entry.moiety as Record<string, unknown> : null;
    return moiety && typeof moiety.unii === 'string'
      ? { unii: moiety.unii, strengthValue: moiety.strength_value ?? null, strengthUnit: moiety.strength_unit ?? null, strengthText: moiety.strength_text ?? null }
      : null;
  },
};
