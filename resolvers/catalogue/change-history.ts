/**
 * Reads of the change log for dated answers (`as_of`): one statement per dated record
 * (`readHistory`), which follows the records' own histories through the indexes of
 * 0820_changes_as_of.sql (by record key, by product id, by code, by source), never a scan of
 * the log. The log holds each record's full normalised image in
 * `after` (workers/ingest/images.ts): a product without its packs, a pack with its
 * identifiers, prices and `product_key`, a recall notice with its `pack_keys`.
 */
import type { Queryable } from '../../platform/db.ts';

/** A record of one source's register, as the change log keys it. */
export interface RecordKey {
  source: string;
  key: string;
}

/** One version of a record: the change that produced it and the image after it (null once deleted). */
export interface Version extends RecordKey {
  id: string;
  at: Date;
  type: 'insert' | 'update' | 'delete' | 'recall';
  /** The product the record belonged to (products: itself; packs and recalls: their product). */
  drugId: string | null;
  image: Record<string, unknown> | null;
}

/** One text per record key, for maps. */
export const keyOf = (k: RecordKey): string => `${k.source}\u0000${k.key}`;

/** Where a dated read starts: a product (by id, a merged row's id standing for its representative) or a code. */
export type HistorySeed = { productId: string } | { systems: readonly string[]; code: string };

/** Every version the statuses of a dated record read, with what the record needs of today's tables. */
export interface HistoryBundle {
  /** The product asked for by id (its representative when merged), else null. */
  productId: string | null;
  /** Records that ever carried the code (a code seed), at most 50. */
  codeRecords: Array<RecordKey & { table: 'products' | 'packs' }>;
  /** Versions of the packs of the seed's products and of the code's packs, by record. */
  packs: Map<string, Version[]>;
  /** Versions (statuses only) of the seed's products and of every product their packs belonged to, by product id. */
  products: Map<string, Version[]>;
  /** Versions (statuses only) of the product records that carried the code, by record. */
  codeProducts: Map<string, Version[]>;
  /** Versions of the recalls naming any of those products, by record. */
  recalls: Map<string, Version[]>;
  /** First change of each source seen. */
  starts: Map<string, Date>;
  /** Row ids of the packs above that still exist, by record. */
  currentPackIds: Map<string, string>;
  /** Code records that are today's representative rows (`table|key`). */
  representatives: Set<string>;
  /** Supply changes (`pack_supply`) of every code the packs and products above ever carried, by `system|code`; `key` is that too. */
  supply: Map<string, Version[]>;
}

/** Columns of a version, as `kind` rows of the history statement. */
const versionColumns = (kind: string, image: string) => `SELECT '${kind}' AS kind, c.id::text AS id, c.natural_key ->> 'source' AS source,
    c.natural_key ->> 'key' AS key, c.occurred_at AS at, c.change_type AS type, c.drug_id::text AS drug_id, ${image} AS image`;

/** Statuses read only these fields of a product image; its monographs stay in the log. */
const LIGHT_IMAGE = `CASE WHEN c.after IS NULL THEN NULL ELSE jsonb_build_object('marketing_status', c.after -> 'marketing_status',
    'identifiers', c.after -> 'identifiers') END`;

/**
 * The statements of the reads below, exported so a test can EXPLAIN exactly them
 * (test/catalogue/as-of-plans.test.ts).
 *
 * `history`: $1 a product id (or null), $2/$3 identifier probes (or null). One statement
 * walks the log by its indexes of 0820_changes_as_of.sql as the statuses need it: the records
 * that carried the code (GIN on identifiers), the products they belonged to and the product
 * asked for (the seeds), every pack that ever belonged to a seed, every product those packs
 * belonged to, the recalls naming those products, the supply reports on any code those packs
 * and products carried, where each source's history starts, and which of the packs and code
 * records still exist today.
 */
export const HISTORY_SQL = {
  history: `WITH code_records AS MATERIALIZED (
      SELECT DISTINCT c.table_name, c.natural_key, c.natural_key ->> 'source' AS source, c.natural_key ->> 'key' AS key FROM changes c
       WHERE ((c.after -> 'identifiers') @> $2::jsonb OR (c.after -> 'identifiers') @> $3::jsonb) AND c.table_name IN ('products', 'packs')
       ORDER BY 1, 3, 4 LIMIT 50),
    code_versions AS MATERIALIZED (
      SELECT c.* FROM code_records r JOIN changes c ON c.table_name = r.table_name AND c.natural_key = r.natural_key),
    asked AS MATERIALIZED (
      SELECT coalesce((SELECT coalesce(m.merged_into, m.id) FROM products m WHERE m.id = $1::uuid), $1::uuid) AS id),
    seeds AS MATERIALIZED (
      SELECT id FROM asked WHERE id IS NOT NULL UNION SELECT drug_id FROM code_versions WHERE drug_id IS NOT NULL),
    pack_keys AS MATERIALIZED (
      SELECT DISTINCT c.natural_key FROM seeds s JOIN changes c ON c.drug_id = s.id AND c.table_name = 'packs'
      UNION SELECT natural_key FROM code_records WHERE table_name = 'packs'),
    pack_versions AS MATERIALIZED (
      SELECT c.* FROM pack_keys k JOIN changes c ON c.table_name = 'packs' AND c.natural_key = k.natural_key),
    product_ids AS MATERIALIZED (
      SELECT id FROM seeds UNION SELECT drug_id FROM pack_versions WHERE drug_id IS NOT NULL),
    product_versions AS MATERIALIZED (
      SELECT c.* FROM product_ids i JOIN changes c ON c.drug_id = i.id AND c.table_name = 'products'),
    recall_keys AS MATERIALIZED (
      SELECT DISTINCT c.natural_key FROM product_ids i JOIN changes c ON c.drug_id = i.id AND c.table_name = 'recalls'),
    recall_versions AS MATERIALIZED (
      SELECT c.* FROM recall_keys k JOIN changes c ON c.table_name = 'recalls' AND c.natural_key = k.natural_key),
    supply_keys AS MATERIALIZED (
      SELECT DISTINCT jsonb_build_object('system', i ->> 'system', 'code', i ->> 'code') AS natural_key
        FROM (SELECT after FROM pack_versions UNION ALL SELECT after FROM product_versions) v,
             jsonb_array_elements(CASE jsonb_typeof(v.after -> 'identifiers') WHEN 'array' THEN v.after -> 'identifiers' ELSE '[]'::jsonb END) i),
    supply_versions AS MATERIALIZED (
      SELECT c.* FROM supply_keys k JOIN changes c ON c.table_name = 'pack_supply' AND c.natural_key = k.natural_key),
    versions AS MATERIALIZED (
      ${versionColumns('packs', 'c.after')} FROM pack_versions c
      UNION ALL ${versionColumns('products', LIGHT_IMAGE)} FROM product_versions c
      UNION ALL ${versionColumns('code_products', LIGHT_IMAGE)} FROM code_versions c WHERE c.table_name = 'products'
      UNION ALL ${versionColumns('recalls', 'c.after')} FROM recall_versions c)
    SELECT v.kind, v.id, v.source, v.key, v.at, v.type, v.drug_id, v.image FROM versions v
    UNION ALL SELECT 'supply', c.id::text, c.source, (c.natural_key ->> 'system') || '|' || (c.natural_key ->> 'code'), c.occurred_at, c.change_type,
        c.drug_id::text, c.after FROM supply_versions c
    UNION ALL SELECT 'asked', a.id::text, NULL, NULL, NULL, NULL, NULL, NULL FROM asked a
    UNION ALL SELECT 'code_record', r.table_name, r.source, r.key, NULL, NULL, NULL, NULL FROM code_records r
    UNION ALL SELECT 'start', NULL, s.source, NULL,
        (SELECT c.occurred_at FROM changes c WHERE c.source = s.source ORDER BY c.occurred_at LIMIT 1), NULL, NULL, NULL
      FROM (SELECT DISTINCT source FROM versions) s
    UNION ALL SELECT 'pack_id', k.id::text, k.source, k.natural_key, NULL, NULL, NULL, NULL
      FROM packs k JOIN (SELECT DISTINCT natural_key ->> 'source' AS source, natural_key ->> 'key' AS key FROM pack_keys) w
        ON k.source = w.source AND k.natural_key = w.key
    UNION ALL SELECT 'representative', r.table_name, r.source, r.key, NULL, NULL, NULL, NULL FROM code_records r
     WHERE (r.table_name = 'packs' AND EXISTS (SELECT 1 FROM packs k WHERE k.source = r.source AND k.natural_key = r.key AND k.merged_into IS NULL))
        OR (r.table_name = 'products' AND EXISTS (SELECT 1 FROM products p WHERE p.source = r.source AND p.natural_key = r.key AND p.merged_into IS NULL))
    ORDER BY 5 NULLS FIRST, 2`,
  starts: `SELECT s.source, (SELECT c.occurred_at FROM changes c WHERE c.source = s.source ORDER BY c.occurred_at LIMIT 1) AS start
    FROM unnest($1::text[]) AS s(source)`,
};

interface HistoryRow {
  kind: string;
  id: string | null;
  source: string | null;
  key: string | null;
  at: Date | null;
  type: Version['type'] | null;
  drug_id: string | null;
  image: Record<string, unknown> | null;
}

const toVersion = (r: HistoryRow): Version => ({
  id: r.id!, source: r.source!, key: r.key!, at: r.at!, type: r.type!, drugId: r.drug_id, image: r.image,
});

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The inputs of the identifier probes: at most two systems (gtin and ean read each other's). */
function probes(seed: HistorySeed): [string | null, string | null] {
  if (!('code' in seed)) return [null, null];
  const [first, second] = seed.systems.slice(0, 2).map((system) => JSON.stringify([{ system, code: seed.code }]));
  return [first ?? null, second ?? first ?? null];
}

/**
 * Everything a dated record reads of the log and of today's rows, in one statement
 * (`HISTORY_SQL.history`); versions oldest first within each record. A code is matched in
 * every image that ever carried it, deleted records included.
 */
export async function readHistory(db: Queryable, seed: HistorySeed): Promise<HistoryBundle> {
  const productId = 'productId' in seed ? seed.productId : null;
  const { rows } = await db.query<HistoryRow>(HISTORY_SQL.history, [productId, ...probes(seed)], { prepare: true });
  const bundle: HistoryBundle = {
    productId: null, codeRecords: [], packs: new Map(), products: new Map(), codeProducts: new Map(), recalls: new Map(),
    starts: new Map(), currentPackIds: new Map(), representatives: new Set(), supply: new Map(),
  };
  for (const r of rows) {
    const key = { source: r.source!, key: r.key! };
    if (r.kind === 'packs') push(bundle.packs, keyOf(key), toVersion(r));
    else if (r.kind === 'products') push(bundle.products, r.drug_id!, toVersion(r));
    else if (r.kind === 'code_products') push(bundle.codeProducts, keyOf(key), toVersion(r));
    else if (r.kind === 'recalls') push(bundle.recalls, keyOf(key), toVersion(r));
    else if (r.kind === 'supply') push(bundle.supply, r.key!, toVersion(r));
    else if (r.kind === 'asked') bundle.productId = r.id;
    else if (r.kind === 'code_record') bundle.codeRecords.push({ table: r.id as 'products' | 'packs', ...key });
    else if (r.kind === 'start' && r.at) bundle.starts.set(r.source!, r.at);
    else if (r.kind === 'pack_id') bundle.currentPackIds.set(keyOf(key), r.id!);
    else if (r.kind === 'representative') bundle.representatives.add(`${r.id}|${keyOf(key)}`);
  }
  bundle.codeRecords.sort((a, b) => (a.table + keyOf(a) < b.table + keyOf(b) ? -1 : 1));
  return bundle;
}

/** When each source's history starts: its first change (index changes_source_history); absent without one. */
export async function historyStarts(db: Queryable, sources: readonly string[]): Promise<Map<string, Date>> {
  if (sources.length === 0) return new Map();
  const { rows } = await db.query<{ source: string; start: Date | null }>(HISTORY_SQL.starts, [[...new Set(sources)]]);
  return new Map(rows.filter((r) => r.start !== null).map((r) => [r.source, r.start!]));
}

/** The version in force at `at`: the newest at or before it, or null. */
export function versionAt(versions: readonly Version[] | undefined, at: Date): Version | null {
  let found: Version | null = null;
  for (const v of versions ?? []) {
    if (v.at.getTime() <= at.getTime()) found = v;
    else break;
  }
  return found;
}
