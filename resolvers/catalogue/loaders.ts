/**
 * Per-request dataloaders of the catalogue. Each batch is one `WHERE key = ANY($1)` query
 * whose rows come back in key order, so a list of N drugs with nested ingredients, packs,
 * prices and identifiers costs a constant number of round trips.
 */
import DataLoader from 'dataloader';
import type { Queryable } from '../../platform/db.ts';
import { loadDrugs } from './drug-rows.ts';
import type { DrugRow } from './drug-rows.ts';
import { createMoietyDrugsLoader, createSaltLoader, createSubstanceClassLoader, createSubstanceLoader } from './substances.ts';

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
}

export interface PackRow {
  id: string;
  productId: string;
  source: string;
  description: string;
  units: number | null;
  unit: string | null;
  marketingStatus: string;
  sl: unknown;
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
    const { rows } = await db.query<IngredientRow & { productId: string }>(
      `SELECT i.product_id AS "productId", i.unii, s.name, s.moiety_unii AS "moietyUnii",
              i.strength_value::float8 AS "strengthValue", i.strength_unit AS "strengthUnit"
         FROM product_ingredients i LEFT JOIN substances s ON s.unii = i.unii
        WHERE i.product_id = ANY($1::uuid[]) ORDER BY i.product_id, i.position`,
      [ids],
    );
    return grouped(ids, rows, (r) => r.productId).map((list) => list.map(({ productId: _, ...rest }) => rest));
  });
}

function identifierLoader(db: Queryable) {
  return new DataLoader<string, IdentifierRow[]>(async (ids) => {
    // Product-level identifiers first, then each pack's, so the list reads top-down.
    const { rows } = await db.query<IdentifierRow & { drugId: string }>(
      `SELECT drug_id AS "drugId", system, code, pack_id AS "packId" FROM identifiers
        WHERE drug_id = ANY($1::uuid[]) ORDER BY drug_id, pack_id NULLS FIRST, system, code`,
      [ids],
    );
    return grouped(ids, rows, (r) => r.drugId).map((list) => list.map(({ drugId: _, ...rest }) => rest));
  });
}

const PACK_COLUMNS = `id, product_id AS "productId", source, description, units::float8 AS units, unit,
  marketing_status AS "marketingStatus", sl`;

function packsByProductLoader(db: Queryable) {
  return new DataLoader<string, PackRow[]>(async (ids) => {
    const { rows } = await db.query<PackRow>(
      `SELECT ${PACK_COLUMNS} FROM packs WHERE product_id = ANY($1::uuid[]) ORDER BY product_id, units NULLS LAST, description, id`,
      [ids],
    );
    return grouped(ids, rows, (r) => r.productId);
  });
}

function packLoader(db: Queryable) {
  return new DataLoader<string, PackRow | null>(async (ids) => {
    const { rows } = await db.query<PackRow>(`SELECT ${PACK_COLUMNS} FROM packs WHERE id = ANY($1::uuid[])`, [ids]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

function priceLoader(db: Queryable) {
  return new DataLoader<string, PriceRow[]>(async (ids) => {
    const { rows } = await db.query<PriceRow & { packId: string }>(
      `SELECT pack_id AS "packId", kind, amount::float8 AS amount, currency, valid_from::text AS "validFrom"
         FROM pack_prices WHERE pack_id = ANY($1::uuid[]) ORDER BY pack_id, kind`,
      [ids],
    );
    return grouped(ids, rows, (r) => r.packId).map((list) => list.map(({ packId: _, ...rest }) => rest));
  });
}

function monographLanguageLoader(db: Queryable) {
  return new DataLoader<string, string[]>(async (ids) => {
    const { rows } = await db.query<{ productId: string; lang: string }>(
      `SELECT product_id AS "productId", lang FROM monographs WHERE product_id = ANY($1::uuid[]) ORDER BY product_id, lang`,
      [ids],
    );
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
    const { rows } = await db.query<ClassRefRow & { productId: string }>(
      `SELECT pc.product_id AS "productId", pc.system, pc.code, coalesce(c.label, pc.code) AS label
         FROM product_classes pc LEFT JOIN classes c ON c.system = pc.system AND c.code = pc.code
        WHERE pc.product_id = ANY($1::uuid[]) ORDER BY pc.product_id, pc.system, pc.code`,
      [ids],
    );
    return grouped(ids, rows, (r) => r.productId).map((list) => list.map(({ productId: _, ...rest }) => rest));
  });
}

/** Every catalogue loader of one request. */
export function createCatalogueLoaders(db: Queryable) {
  return {
    drug: new DataLoader<string, DrugRow | null>((ids) => loadDrugs(db, ids)),
    ingredients: ingredientLoader(db),
    identifiers: identifierLoader(db),
    packs: packsByProductLoader(db),
    pack: packLoader(db),
    prices: priceLoader(db),
    monographLanguages: monographLanguageLoader(db),
    monograph: monographLoader(db),
    productClasses: productClassLoader(db),
    substance: createSubstanceLoader(db),
    salts: createSaltLoader(db),
    substanceClasses: createSubstanceClassLoader(db),
    moietyDrugs: createMoietyDrugsLoader(db),
  };
}

export type CatalogueLoaders = ReturnType<typeof createCatalogueLoaders>;
