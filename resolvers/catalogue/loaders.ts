/**
 * Per-request dataloaders of the catalogue. Each batch is one `WHERE key = ANY($1)` query
 * whose rows come back in key order, so a list of N drugs with nested ingredients, packs,
 * prices and identifiers costs a constant number of round trips.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { lazyGroup } from '../../platform/lazy-group.ts';
import { loadDrugs } from './drug-rows.ts';
import { centralAuthorisationLoader } from './central-authorisation.ts';
import { productFactsLoader } from './facts.ts';
import type { DrugRow } from './drug-rows.ts';
import { createMoietyDrugsLoader, createSaltLoader, createSubstanceClassLoader, createSubstanceLoader } from './substances.ts';
import { createIdentityMembersLoader, createSubstanceIdentityLoader } from './substance-links.ts';
import { historyStarts } from './change-history.ts';
import { packSupplyLoader, productSupplyLoader } from './supply-rows.ts';

export interface IngredientRow {
  unii: string;
  name: string | null;
  moietyUnii: string | null;
  strengthValue: number | null;
  strengthUnit: string | null;
}

export interface IdentifierRow {
  system: string;
  code: string;
  packId: string | null;
  validFrom: string | null;
  validTo: string | null;
  previous: boolean;
}

export interface PackRow {
  id: string;
  productId: string;
  source: string;
  /** Every source whose rows this pack merges, its own first (0600_merge.sql). */
  sources: string[];
  description: string;
  units: number | null;
  unit: string | null;
  marketingStatus: string;
  /** The SL entry, completed by the merged rows' entries (the pack's own values win). */
  sl: unknown;
  dispensingCategory: string | null;
  narcoticList: string | null;
  availability: string | null;
  tariffCategory: string | null;
}

export interface PriceRow {
  kind: string;
  amount: number;
  currency: string;
  validFrom: string | null;
}

export interface MonographRow {
  productId: string;
  lang: string;
  title: string;
  sections: Record<string, string>;
}

export interface ClassRefRow {
  system: string;
  code: string;
  label: string;
}

/** Groups rows by key and answers in key order, [] for keys without rows. */
function grouped<K, R>(keys: readonly K[], rows: R[], keyOf: (row: R) => K): R[][] {
  const byKey = new Map<K, R[]>();
  for (const row of rows) {
    const list = byKey.get(keyOf(row));
    if (list) list.push(row);
    else byKey.set(keyOf(row), [row]);
  }
  return keys.map((k) => byKey.get(k) ?? []);
}

function ingredientLoader(db: Queryable) {
  return new DataLoader<string, IngredientRow[]>(async (ids) => {
    const { rows } = await db.query<IngredientRow & { productId: string }>(BATCH_SQL.ingredients, [ids]);
    return grouped(ids, rows, (r) => r.productId).map(toIngredients);
  });
}

function identifierLoader(db: Queryable) {
  return new DataLoader<string, IdentifierRow[]>(async (ids) => {
    const { rows } = await db.query<IdentifierRow & { drugId: string }>(BATCH_SQL.identifiers, [ids]);
    return grouped(ids, rows, (r) => r.drugId).map((list) => list.map(({ drugId: _, ...rest }) => rest));
  });
}

/**
 * A representative pack (alias `k`, product `p`) with the facts of the rows merged into it:
 * each fact from the pack itself when it has it, else from the first merged row that does.
 */
const PACK_COLUMNS = `k.id, k.source, k.description, k.units::float8 AS units, k.unit,
  k.marketing_status AS "marketingStatus", m.sls, m.sources,
  m.facts[1] AS "dispensingCategory", m.facts[2] AS "narcoticList", m.facts[3] AS "availability", m.facts[4] AS "tariffCategory"`;

const PACK_FACTS = `LEFT JOIN LATERAL (
    SELECT array_agg(x.source ORDER BY x.id <> k.id, x.source) AS sources,
           jsonb_agg(x.sl ORDER BY x.id = k.id, x.source) FILTER (WHERE x.sl IS NOT NULL) AS sls,
           ARRAY[(array_agg(x.record ->> 'dispensing_category' ORDER BY x.id <> k.id) FILTER (WHERE x.record ? 'dispensing_category'))[1],
                 (array_agg(x.record ->> 'narcotic_list' ORDER BY x.id <> k.id) FILTER (WHERE x.record ? 'narcotic_list'))[1],
                 (array_agg(x.record ->> 'availability' ORDER BY x.id <> k.id) FILTER (WHERE x.record ? 'availability'))[1],
                 (array_agg(x.record ->> 'tariff_category' ORDER BY x.id <> k.id) FILTER (WHERE x.record ? 'tariff_category'))[1]] AS facts
      FROM packs x WHERE x.id = k.id OR x.merged_into = k.id) m ON true`;

/**
 * The statements of the loaders below, over a set of ids given as an SQL `uuid[]` expression:
 * `$1::uuid[]` in a batch, or one product's ids inside the drug record's single statement
 * (record-rows.ts), so both read exactly the same rows in the same order.
 */
export const RECORD_SQL = {
  ingredients: (ids: string) => `SELECT i.product_id AS "productId", i.unii, s.name, s.moiety_unii AS "moietyUnii",
              i.strength_value::float8 AS "strengthValue", i.strength_unit AS "strengthUnit"
         FROM product_ingredients i LEFT JOIN substances s ON s.unii = i.unii
        WHERE i.product_id = ANY(${ids}) ORDER BY i.product_id, i.position`,
  // Product-level identifiers first, then each pack's, so the list reads top-down. The
  // identifiers of merged rows count as the representative's, once each.
  identifiers: (ids: string) => `SELECT DISTINCT coalesce(p.merged_into, p.id) AS "drugId", i.system, i.code, coalesce(k.merged_into, k.id) AS "packId",
              i.valid_from::text AS "validFrom", i.valid_to::text AS "validTo", i.previous
         FROM products p JOIN identifiers i ON i.drug_id = p.id LEFT JOIN packs k ON k.id = i.pack_id
        WHERE p.id = ANY(${ids}) OR p.merged_into = ANY(${ids})
        ORDER BY 1, 4 NULLS FIRST, 2, 3`,
  packs: (ids: string) => `WITH g AS (SELECT DISTINCT coalesce(p.merged_into, p.id) AS product, coalesce(own.merged_into, own.id) AS pack
                    FROM products p JOIN packs own ON own.product_id = p.id
                   WHERE p.id = ANY(${ids}) OR p.merged_into = ANY(${ids}))
       SELECT g.product AS "productId", ${PACK_COLUMNS} FROM g JOIN packs k ON k.id = g.pack ${PACK_FACTS}
        ORDER BY g.product, k.units NULLS LAST, k.description, k.id`,
  packIdentifiers: (ids: string) => `SELECT DISTINCT coalesce(k.merged_into, k.id) AS "packId", i.system, i.code,
              i.valid_from::text AS "validFrom", i.valid_to::text AS "validTo", i.previous
         FROM packs k JOIN identifiers i ON i.pack_id = k.id
        WHERE k.id = ANY(${ids}) OR k.merged_into = ANY(${ids})
        ORDER BY 1, 2, 3`,
  // One price per kind: the pack's own, else the first merged row's.
  prices: (ids: string) => `SELECT DISTINCT ON (1, kind) coalesce(k.merged_into, k.id) AS "packId", kind, amount::float8 AS amount, currency,
              valid_from::text AS "validFrom"
         FROM packs k JOIN pack_prices pp ON pp.pack_id = k.id
        WHERE k.id = ANY(${ids}) OR k.merged_into = ANY(${ids})
        ORDER BY 1, kind, k.merged_into IS NOT NULL, k.source`,
  monographLanguages: (ids: string) =>
    `SELECT product_id AS "productId", lang FROM monographs WHERE product_id = ANY(${ids}) ORDER BY product_id, lang`,
  productClasses: (ids: string) => `SELECT pc.product_id AS "productId", pc.system, pc.code, coalesce(c.label, pc.code) AS label
         FROM product_classes pc LEFT JOIN classes c ON c.system = pc.system AND c.code = pc.code
        WHERE pc.product_id = ANY(${ids}) ORDER BY pc.product_id, pc.system, pc.code`,
};

/** The loaders' statements over one batch of ids (`$1::uuid[]`), built once. */
const BATCH_SQL = Object.fromEntries(Object.entries(RECORD_SQL).map(([name, sql]) => [name, sql('$1::uuid[]')])) as Record<keyof typeof RECORD_SQL, string>;

/**
 * Row shapers below build literals, not rest copies (`({ productId: _, ...rest }) => rest`):
 * they run once per row, and a rest copy is a slow generic property copy on Node 20, a
 * visible part of a 50-drug page's CPU. Keys keep the statements' column order.
 */
const toIngredient = (r: IngredientRow): IngredientRow =>
  ({ unii: r.unii, name: r.name, moietyUnii: r.moietyUnii, strengthValue: r.strengthValue, strengthUnit: r.strengthUnit });

/** Ingredient rows without the product id they were read by. */
export const toIngredients = (rows: Array<IngredientRow & { productId: string }>): IngredientRow[] => rows.map(toIngredient);

export type PackQueryRow = Omit<PackRow, 'sl'> & { sls: Array<Record<string, unknown>> | null };

/** The pack without its SL entries, merged: later entries win, and the pack's own entry comes last. */
export function toPack(row: PackQueryRow): PackRow {
  let sl: Record<string, unknown> | null = null;
  if (row.sls) {
    sl = {};
    for (const entry of row.sls) Object.assign(sl, entry);
  }
  return {
    productId: row.productId, id: row.id, source: row.source, description: row.description, units: row.units, unit: row.unit,
    marketingStatus: row.marketingStatus, sources: row.sources, dispensingCategory: row.dispensingCategory,
    narcoticList: row.narcoticList, availability: row.availability, tariffCategory: row.tariffCategory, sl,
  };
}

/** A product's packs: those of its rows and of the rows merged into it, each as its representative pack. */
function packsByProductLoader(db: Queryable) {
  return new DataLoader<string, PackRow[]>(async (ids) => {
    const { rows } = await db.query<PackQueryRow>(BATCH_SQL.packs, [ids]);
    return grouped(ids, rows.map(toPack), (r) => r.productId);
  });
}

/** Packs by id; the id of a merged pack answers with its representative. */
function packLoader(db: Queryable) {
  return new DataLoader<string, PackRow | null>(async (ids) => {
    const { rows } = await db.query<PackQueryRow & { requested: string }>(
      `SELECT r.id AS requested, coalesce(p.merged_into, p.id) AS "productId", ${PACK_COLUMNS}
         FROM packs r JOIN packs k ON k.id = coalesce(r.merged_into, r.id)
         JOIN products p ON p.id = k.product_id ${PACK_FACTS}
        WHERE r.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.requested, toPack(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** Identifiers of a pack and of the packs merged into it, once each. */
function packIdentifierLoader(db: Queryable) {
  return new DataLoader<string, IdentifierRow[]>(async (ids) => {
    const { rows } = await db.query<IdentifierRow>(BATCH_SQL.packIdentifiers, [ids]);
    return grouped(ids, rows, (r) => r.packId!);
  });
}

/** Price rows without the pack id they were read by. */
export const toPrices = (rows: Array<PriceRow & { packId: string }>): PriceRow[] =>
  rows.map((r) => ({ kind: r.kind, amount: r.amount, currency: r.currency, validFrom: r.validFrom }));

function priceLoader(db: Queryable) {
  return new DataLoader<string, PriceRow[]>(async (ids) => {
    const { rows } = await db.query<PriceRow & { packId: string }>(BATCH_SQL.prices, [ids]);
    return grouped(ids, rows, (r) => r.packId).map(toPrices);
  });
}

function monographLanguageLoader(db: Queryable) {
  return new DataLoader<string, string[]>(async (ids) => {
    const { rows } = await db.query<{ productId: string; lang: string }>(BATCH_SQL.monographLanguages, [ids]);
    return grouped(ids, rows, (r) => r.productId).map((list) => list.map((r) => r.lang));
  });
}

/** Key: `<product id>|<lang>`. */
function monographLoader(db: Queryable) {
  return new DataLoader<string, MonographRow | null>(async (keys) => {
    const pairs = keys.map((k) => k.split('|') as [string, string]);
    const { rows } = await db.query<MonographRow>(
      `SELECT m.product_id AS "productId", m.lang, m.title, m.sections
         FROM monographs m JOIN unnest($1::uuid[], $2::text[]) AS k(id, lang) ON m.product_id = k.id AND m.lang = k.lang`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    const byKey = new Map(rows.map((r) => [`${r.productId}|${r.lang}`, r]));
    return keys.map((k) => byKey.get(k) ?? null);
  });
}

function productClassLoader(db: Queryable) {
  return new DataLoader<string, ClassRefRow[]>(async (ids) => {
    const { rows } = await db.query<ClassRefRow & { productId: string }>(BATCH_SQL.productClasses, [ids]);
    return grouped(ids, rows, (r) => r.productId).map((list) => list.map(({ productId: _, ...rest }) => rest));
  });
}

/** Every catalogue loader of one request. */
/** The catalogue's loaders of one request, each built when first used (platform/lazy-group.ts). */
export const createCatalogueLoaders = lazyGroup<Queryable>()({
  drug: (db) => new DataLoader<string, DrugRow | null>((ids) => loadDrugs(db, ids)),
  ingredients: (db) => ingredientLoader(db),
  identifiers: (db) => identifierLoader(db),
  packIdentifiers: (db) => packIdentifierLoader(db),
  packs: (db) => packsByProductLoader(db),
  pack: (db) => packLoader(db),
  prices: (db) => priceLoader(db),
  packSupply: (db) => packSupplyLoader(db),
  productSupply: (db) => productSupplyLoader(db),
  monographLanguages: (db) => monographLanguageLoader(db),
  monograph: (db) => monographLoader(db),
  productClasses: (db) => productClassLoader(db),
  facts: (db) => productFactsLoader(db),
  centralAuthorisation: (db) => centralAuthorisationLoader(db),
  substance: (db) => createSubstanceLoader(db),
  salts: (db) => createSaltLoader(db),
  substanceClasses: (db) => createSubstanceClassLoader(db),
  moietyDrugs: (db) => createMoietyDrugsLoader(db),
  substanceIdentity: (db) => createSubstanceIdentityLoader(db),
  identityMembers: (db) => createIdentityMembersLoader(db),
  historyStart: (db) => new DataLoader<string, Date | null>(async (sources) => {
    const starts = await historyStarts(db, sources);
    return sources.map((s) => starts.get(s) ?? null);
  }),
});

export type CatalogueLoaders = ReturnType<typeof createCatalogueLoaders>;
