/**
 * Safety recalls. A newly published recall is a `recall` change (not an insert) whose
 * `after` is the notice and whose `before` is the recalled product's record when the product
 * is known (docs/api-decisions.md); a changed notice is an update, a notice gone from the
 * register a delete. The recalled product is found
 * in the recall's own source first, else among every source's products of the recall's
 * country with that natural key (recall registers refer to products they do not list).
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import type { JsonValue } from './canonical.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import { recallImage } from './images.ts';
import { changesOf, countsOf, recordset } from './plan.ts';
import type { KindPlan } from './plan.ts';
import { rowsOfKeys, storedHashes, storedImages } from './records.ts';
import type { RecallEntry } from './snapshot.ts';

const UPSERT_RECALLS = `
  INSERT INTO recalls (id, source, natural_key, product_id, country, published_on, reason, level, pack_keys, record, content_hash)
  SELECT r.id, $2, r.natural_key, r.product_id, r.country, r.published_on, r.reason, r.level,
         ARRAY(SELECT jsonb_array_elements_text(r.pack_keys)), r.record, r.content_hash
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, natural_key text, product_id uuid, country text, published_on date, reason text,
       level text, pack_keys jsonb, record jsonb, content_hash text)
  ON CONFLICT (source, natural_key) DO UPDATE SET product_id = EXCLUDED.product_id, country = EXCLUDED.country,
    published_on = EXCLUDED.published_on, reason = EXCLUDED.reason, level = EXCLUDED.level, pack_keys = EXCLUDED.pack_keys,
    record = EXCLUDED.record, content_hash = EXCLUDED.content_hash`;

/** Products of other sources (id and record) for recalls whose product is not in their own source. */
async function foreignProducts(tx: Queryable, wanted: RecallEntry[]): Promise<Map<string, { id: string; record: JsonValue }>> {
  if (wanted.length === 0) return new Map();
  const { rows } = await tx.query<{ natural_key: string; country: string; id: string; record: JsonValue }>(
    `SELECT DISTINCT ON (p.natural_key, p.country) p.natural_key, p.country, p.id, p.record
     FROM products p JOIN unnest($1::text[], $2::text[]) AS w(key, country) ON p.natural_key = w.key AND p.country = w.country
     ORDER BY p.natural_key, p.country, p.source`,
    [wanted.map((r) => r.product_key), wanted.map((r) => r.country)],
  );
  return new Map(rows.map((r) => [`${r.country}|${r.natural_key}`, { id: r.id, record: r.record }]));
}

/**
 * The snapshot's own products among `keys` (id and record as just written): rows of the source
 * that this snapshot states (staging.ts), not stored rows it is about to delete.
 */
async function snapshotProducts(tx: Queryable, source: string, keys: string[]): Promise<Map<string, { id: string; record: JsonValue }>> {
  if (keys.length === 0) return new Map();
  const { rows } = await tx.query<{ natural_key: string; id: string; record: JsonValue }>(
    `SELECT products.natural_key, products.id, products.record FROM ${rowsOfKeys('products')}
      WHERE EXISTS (SELECT 1 FROM ingest_seen s WHERE s.kind = 'products' AND s.key = products.natural_key)`,
    [source, keys],
  );
  return new Map(rows.map((r) => [r.natural_key, { id: r.id, record: r.record }]));
}

/** Plans the recalls of a snapshot, after its products are written. */
export async function planRecalls(tx: Queryable, source: string, entries: readonly RecallEntry[]): Promise<KindPlan> {
  const own = await snapshotProducts(tx, source, [...new Set(entries.map((e) => e.product_key))]);
  const records = entries.map(recallImage);
  assertUniqueKeys('recall', records);
  const stored = await storedHashes(tx, 'recalls', source);
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'recalls', source, [...diff.updates, ...diff.deletes].map((r) => r.key));
  const foreign = await foreignProducts(tx, diff.upserts.map((u) => u.record.entry).filter((e) => !own.has(e.product_key)));
  const productOf = (e: RecallEntry) => own.get(e.product_key) ?? foreign.get(`${e.country}|${e.product_key}`) ?? null;
  const rows = diff.upserts.map(({ record, stored: row }) => ({
    id: row?.id ?? randomUUID(), natural_key: record.key, product_id: productOf(record.entry)?.id ?? null, country: record.entry.country,
    published_on: record.entry.published_on, reason: record.entry.reason, level: record.entry.level,
    pack_keys: record.entry.pack_keys ?? [], record: record.image, content_hash: record.hash,
  }));
  const changes = changesOf(diff, {
    table: 'recalls', source, naturalKey: (key) => ({ source, key }), before, insertType: 'recall',
    drugOfRecord: (r) => productOf(r.entry)?.id ?? null, drugOfStored: (row) => row.productId ?? null,
  });
  // A new notice's `before` is the recalled product's record; updates and deletes keep the notice's own images.
  const notices = new Map(diff.inserts.map((r) => [r.key, r.entry]));
  for (const change of changes) {
    const notice = change.change_type === 'recall' ? notices.get(change.natural_key.key!) : undefined;
    if (notice) change.before = productOf(notice)?.record ?? null;
  }
  return {
    table: 'recalls',
    counts: countsOf(diff, 'recall'),
    changes,
    async upsert(q) {
      if (rows.length > 0) await q.query(UPSERT_RECALLS, [recordset(rows), source]);
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query('DELETE FROM recalls WHERE source = $1 AND id = ANY($2::uuid[])', [source, diff.deletes.map((d) => d.id)]);
    },
  };
}
