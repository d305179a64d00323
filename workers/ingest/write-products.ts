/**
 * Products (the drug record) with their ingredients, classes, registration identifiers and
 * monographs. Child rows are derived from the product's image, so they are replaced
 * whenever the product row is written. Ids of new products are assigned here, before any
 * write, so packs and recalls of the same snapshot can point at them.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { Imaged } from './images.ts';
import { productImage } from './images.ts';
import { changesOf, countsOf, recordset } from './plan.ts';
import type { KindPlan } from './plan.ts';
import { storedHashes, storedImages } from './records.ts';
import type { ProductEntry } from './snapshot.ts';

export interface ProductPlan extends KindPlan {
  /** Row id of every product of the snapshot, by natural key. */
  idByKey: Map<string, string>;
  /** Products written by this plan (their signatures are recomputed). */
  touched: string[];
}

function productRow(record: Imaged<ProductEntry>, id: string) {
  const e = record.entry;
  return {
    id, natural_key: record.key, country: e.country, product_name: e.product_name, brand: e.brand, generic: e.generic,
    atc_code: e.atc_code?.toUpperCase(), dose_form: e.dose_form, route: e.route, holder: e.holder,
    marketing_status: record.image.marketing_status, authorised_on: e.authorised_on, record: record.image, content_hash: record.hash,
  };
}

/** Child rows of the written products, each list free of duplicate keys. */
function childRows(written: Array<{ record: Imaged<ProductEntry>; id: string }>) {
  const unique = <T>(rows: T[], key: (r: T) => string): T[] => [...new Map(rows.map((r) => [key(r), r])).values()];
  return {
    ingredients: written.flatMap(({ record, id }) => record.entry.ingredients.map((i, position) => ({
      product_id: id, position, unii: i.unii, strength_value: i.strength_value, strength_unit: i.strength_unit,
    }))),
    classes: unique(written.flatMap(({ record, id }) => (record.entry.classes ?? []).map((c) => ({ product_id: id, system: c.system, code: c.code }))),
      (r) => `${r.product_id}|${r.system}|${r.code}`),
    identifiers: unique(written.flatMap(({ record, id }) => record.entry.identifiers.map((i) => ({ drug_id: id, system: i.system, code: i.code }))),
      (r) => `${r.drug_id}|${r.system}|${r.code}`),
    // The first monograph of a language wins: (product, lang) is the key.
    monographs: [...new Map(written.flatMap(({ record, id }) => [...(record.entry.monographs ?? [])].reverse().map((m) =>
      [`${id}|${m.lang}`, { product_id: id, lang: m.lang, title: m.title, sections: m.sections }] as const))).values()],
  };
}

const DELETE_CHILDREN = `
  WITH i AS (DELETE FROM product_ingredients WHERE product_id = ANY($1::uuid[])),
       c AS (DELETE FROM product_classes WHERE product_id = ANY($1::uuid[])),
       m AS (DELETE FROM monographs WHERE product_id = ANY($1::uuid[]))
  DELETE FROM identifiers WHERE drug_id = ANY($1::uuid[]) AND pack_id IS NULL`;

const INSERT_CHILDREN = `
  WITH i AS (INSERT INTO product_ingredients (product_id, position, unii, strength_value, strength_unit)
             SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(product_id uuid, position smallint, unii text, strength_value numeric, strength_unit text)),
       c AS (INSERT INTO product_classes (product_id, system, code)
             SELECT * FROM jsonb_to_recordset($2::jsonb) AS r(product_id uuid, system text, code text)),
       m AS (INSERT INTO monographs (product_id, lang, title, sections)
             SELECT * FROM jsonb_to_recordset($3::jsonb) AS r(product_id uuid, lang text, title text, sections jsonb))
  INSERT INTO identifiers (system, code, drug_id, pack_id)
  SELECT system, code, drug_id, NULL FROM jsonb_to_recordset($4::jsonb) AS r(drug_id uuid, system text, code text)`;

const UPSERT_PRODUCTS = `
  INSERT INTO products (id, source, natural_key, country, product_name, brand, generic, atc_code, dose_form, route, holder,
                        marketing_status, authorised_on, record, content_hash)
  SELECT r.id, $2, r.natural_key, r.country, r.product_name, r.brand, r.generic, r.atc_code, r.dose_form, r.route, r.holder,
         r.marketing_status, r.authorised_on, r.record, r.content_hash
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, natural_key text, country text, product_name text, brand text, generic boolean,
       atc_code text, dose_form text, route text, holder text, marketing_status text, authorised_on date, record jsonb, content_hash text)
  ON CONFLICT (source, natural_key) DO UPDATE SET country = EXCLUDED.country, product_name = EXCLUDED.product_name,
    brand = EXCLUDED.brand, generic = EXCLUDED.generic, atc_code = EXCLUDED.atc_code, dose_form = EXCLUDED.dose_form,
    route = EXCLUDED.route, holder = EXCLUDED.holder, marketing_status = EXCLUDED.marketing_status,
    authorised_on = EXCLUDED.authorised_on, record = EXCLUDED.record, content_hash = EXCLUDED.content_hash`;

/** Plans the products of a snapshot (not their packs: see write-packs.ts). */
export async function planProducts(tx: Queryable, source: string, entries: readonly ProductEntry[]): Promise<ProductPlan> {
  const records = entries.map(productImage);
  assertUniqueKeys('product', records);
  const stored = await storedHashes(tx, 'products', source);
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'products', source, [...diff.updates, ...diff.deletes].map((r) => r.key));
  const idByKey = new Map<string, string>();
  for (const r of records) idByKey.set(r.key, stored.get(r.key)?.id ?? randomUUID());
  const written = diff.upserts.map(({ record }) => ({ record, id: idByKey.get(record.key)! }));
  return {
    table: 'products',
    counts: countsOf(diff),
    changes: changesOf(diff, {
      table: 'products', source, naturalKey: (key) => ({ source, key }), before,
      drugOfRecord: (r) => idByKey.get(r.key) ?? null, drugOfStored: (row) => row.id ?? null,
    }),
    idByKey,
    touched: written.map((w) => w.id),
    async upsert(q) {
      if (written.length === 0) return;
      await q.query(UPSERT_PRODUCTS, [recordset(written.map((w) => productRow(w.record, w.id))), source]);
      await q.query(DELETE_CHILDREN, [diff.updates.map((u) => u.stored.id)]);
      const children = childRows(written);
      await q.query(INSERT_CHILDREN, [children.ingredients, children.classes, children.monographs, children.identifiers].map(recordset));
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query('DELETE FROM products WHERE source = $1 AND id = ANY($2::uuid[])', [source, diff.deletes.map((d) => d.id)]);
    },
  };
}
