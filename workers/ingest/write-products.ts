/**
 * Products (the drug record) with their ingredients, classes, registration identifiers and
 * monographs, and the columns derived from other records (signatures, reimbursement rate).
 * Child rows are derived from the product's image, so they are replaced whenever the product
 * row is written. The engine writes a snapshot's products one chunk at a time: each chunk is
 * diffed against the stored rows of its own keys only, and the products the snapshot no longer
 * has are deleted set-based at the end (deletions.ts). Ids of new products are assigned here,
 * so the packs of the same chunk can point at them.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { Imaged } from './images.ts';
import { productImage } from './images.ts';
import { changesOf, countsOf, inChunks, recordset } from './plan.ts';
import type { TableCounts } from './plan.ts';
import { storedHashesOf, storedImages } from './records.ts';
import { medicineSignature, substanceSignature } from './signatures.ts';
import type { ProductEntry } from './snapshot.ts';
import type { IngestStage } from './staging.ts';
import type { MoietyResolver } from './write-derived.ts';

export interface ProductChunk {
  counts: TableCounts;
  /** Row id of every product of the chunk, by natural key. */
  idByKey: Map<string, string>;
}

/** Columns a product takes from other records: signatures (via substance moieties) and its packs' highest rate. */
interface Derived {
  substance_signature: string | null;
  medicine_signature: string | null;
  reimbursement_rate_percent: number | null;
}

function derive(entry: ProductEntry, moieties: ReadonlyMap<string, string>): Derived {
  const parts = entry.ingredients.map((i) => ({ moiety: moieties.get(i.unii) ?? i.unii, value: i.strength_value ?? null, unit: i.strength_unit ?? null }));
  const rates = entry.packs.map((p) => p.reimbursement_rate_percent).filter((r): r is number => typeof r === 'number');
  return {
    substance_signature: substanceSignature(parts),
    medicine_signature: medicineSignature(parts, entry.dose_form, entry.route),
    reimbursement_rate_percent: rates.length > 0 ? Math.max(...rates) : null,
  };
}

/** Same text as the stored columns give in records.ts, to spot stale derived columns. */
function derivedKey(d: Derived): string {
  return [d.substance_signature ?? '', d.medicine_signature ?? '', d.reimbursement_rate_percent?.toString() ?? ''].join('#');
}

function productRow(record: Imaged<ProductEntry>, id: string, derived: Derived) {
  const e = record.entry;
  return {
    id, natural_key: record.key, country: e.country, product_name: e.product_name, brand: e.brand, generic: e.generic,
    atc_code: e.atc_code?.toUpperCase(), dose_form: e.dose_form, route: e.route, holder: e.holder,
    marketing_status: record.image.marketing_status, authorised_on: e.authorised_on, record: record.image, content_hash: record.hash,
    ...derived,
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
                        marketing_status, authorised_on, record, content_hash, substance_signature, medicine_signature, reimbursement_rate_percent)
  SELECT r.id, $2, r.natural_key, r.country, r.product_name, r.brand, r.generic, r.atc_code, r.dose_form, r.route, r.holder,
         r.marketing_status, r.authorised_on, r.record, r.content_hash, r.substance_signature, r.medicine_signature, r.reimbursement_rate_percent
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, natural_key text, country text, product_name text, brand text, generic boolean,
       atc_code text, dose_form text, route text, holder text, marketing_status text, authorised_on date, record jsonb, content_hash text,
       substance_signature text, medicine_signature text, reimbursement_rate_percent numeric)
  ON CONFLICT (source, natural_key) DO UPDATE SET country = EXCLUDED.country, product_name = EXCLUDED.product_name,
    brand = EXCLUDED.brand, generic = EXCLUDED.generic, atc_code = EXCLUDED.atc_code, dose_form = EXCLUDED.dose_form,
    route = EXCLUDED.route, holder = EXCLUDED.holder, marketing_status = EXCLUDED.marketing_status,
    authorised_on = EXCLUDED.authorised_on, record = EXCLUDED.record, content_hash = EXCLUDED.content_hash,
    substance_signature = EXCLUDED.substance_signature, medicine_signature = EXCLUDED.medicine_signature,
    reimbursement_rate_percent = EXCLUDED.reimbursement_rate_percent`;

// Derived columns of unchanged products whose substances or pack rates changed: no change record.
const REFRESH_DERIVED = `
  UPDATE products p SET substance_signature = r.substance_signature, medicine_signature = r.medicine_signature,
    reimbursement_rate_percent = r.reimbursement_rate_percent
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, substance_signature text, medicine_signature text, reimbursement_rate_percent numeric)
  WHERE p.id = r.id`;

/**
 * Diffs and writes one chunk of a snapshot's products (not their packs: see write-packs.ts)
 * and appends their change records. `moietiesOf` maps ingredient UNIIs to their active moiety
 * for the signatures. A key an earlier chunk stated refuses the snapshot.
 */
export async function writeProductChunk(tx: Queryable, stage: IngestStage, source: string, entries: readonly ProductEntry[],
  moietiesOf: MoietyResolver): Promise<ProductChunk> {
  assertUniqueKeys('product', entries);
  const keys = entries.map((e) => e.key);
  // One statement at a time on the transaction; the images are computed meanwhile.
  const reads = async () => {
    await stage.markSeen('products', 'product', keys);
    return { stored: await storedHashesOf(tx, 'products', source, keys), moieties: await moietiesOf(entries) };
  };
  const [{ stored, moieties }, records] = await Promise.all([reads(), Promise.resolve().then(() => entries.map(productImage))]);
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'products', source, diff.updates.map((r) => r.key));
  const idByKey = new Map<string, string>();
  for (const r of records) idByKey.set(r.key, stored.get(r.key)?.id ?? randomUUID());
  const derived = new Map(records.map((r) => [r.key, derive(r.entry, moieties)]));
  const written = diff.upserts.map(({ record }) => ({ record, id: idByKey.get(record.key)! }));
  const writtenKeys = new Set(written.map((w) => w.record.key));
  const stale = records.filter((r) => {
    const row = stored.get(r.key);
    return row?.source === source && !writtenKeys.has(r.key) && row.derived !== derivedKey(derived.get(r.key)!);
  }).map((r) => ({ id: idByKey.get(r.key)!, ...derived.get(r.key)! }));
  await stage.append(changesOf(diff, {
    table: 'products', source, naturalKey: (key) => ({ source, key }), before,
    drugOfRecord: (r) => idByKey.get(r.key) ?? null, drugOfStored: (row) => row.id ?? null,
  }));
  if (stale.length > 0) await tx.query(REFRESH_DERIVED, [recordset(stale)]);
  if (written.length > 0) {
    await inChunks(written, (chunk) => tx.query(UPSERT_PRODUCTS, [recordset(chunk.map((w) => productRow(w.record, w.id, derived.get(w.record.key)!))), source]));
    if (diff.updates.length > 0) await tx.query(DELETE_CHILDREN, [diff.updates.map((u) => u.stored.id)]);
    await inChunks(written, (chunk) => {
      const children = childRows(chunk);
      return tx.query(INSERT_CHILDREN, [children.ingredients, children.classes, children.monographs, children.identifiers].map(recordset));
    });
  }
  return { counts: countsOf(diff), idByKey };
}

// Loose packs (input.ts) reach their product after it was written: the highest rate of its packs, from the stored images.
const PACK_RATES = `
  UPDATE products p SET reimbursement_rate_percent = r.rate
  FROM (SELECT k.product_id, max((k.record->>'reimbursement_rate_percent')::numeric) AS rate
          FROM packs k JOIN products q ON q.id = k.product_id WHERE q.source = $1 GROUP BY k.product_id) AS r
  WHERE p.id = r.product_id AND p.reimbursement_rate_percent IS DISTINCT FROM r.rate`;

/** Sets the reimbursement rate of the source's products from their stored packs (after loose packs with rates). */
export async function refreshPackRates(tx: Queryable, source: string): Promise<void> {
  await tx.query(PACK_RATES, [source]);
}
