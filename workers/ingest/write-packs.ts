/**
 * Packs with their prices and pack-level identifiers. A pack is one record whose image holds
 * its prices and SL entry, so a changed price is exactly one pack update. A pack may move to
 * another product of the same source (its key stays, its product_id changes).
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { Imaged } from './images.ts';
import { packImage } from './images.ts';
import { changesOf, countsOf, inChunks, recordset } from './plan.ts';
import type { KindPlan } from './plan.ts';
import { storedHashes, storedImages } from './records.ts';
import type { PackEntry, ProductEntry } from './snapshot.ts';

const UPSERT_PACKS = `
  INSERT INTO packs (id, product_id, source, natural_key, description, units, unit, marketing_status, sl, record, content_hash)
  SELECT r.id, r.product_id, $2, r.natural_key, r.description, r.units, r.unit, r.marketing_status, r.sl, r.record, r.content_hash
  FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, product_id uuid, natural_key text, description text, units numeric, unit text,
       marketing_status text, sl jsonb, record jsonb, content_hash text)
  ON CONFLICT (source, natural_key) DO UPDATE SET product_id = EXCLUDED.product_id, description = EXCLUDED.description,
    units = EXCLUDED.units, unit = EXCLUDED.unit, marketing_status = EXCLUDED.marketing_status, sl = EXCLUDED.sl,
    record = EXCLUDED.record, content_hash = EXCLUDED.content_hash`;

const DELETE_CHILDREN = `
  WITH p AS (DELETE FROM pack_prices WHERE pack_id = ANY($1::uuid[]))
  DELETE FROM identifiers WHERE pack_id = ANY($1::uuid[])`;

const INSERT_CHILDREN = `
  WITH p AS (INSERT INTO pack_prices (pack_id, kind, amount, currency, valid_from)
             SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(pack_id uuid, kind text, amount numeric, currency text, valid_from date))
  INSERT INTO identifiers (system, code, drug_id, pack_id, valid_from, valid_to, previous)
  SELECT system, code, drug_id, pack_id, valid_from, valid_to, previous
    FROM jsonb_to_recordset($2::jsonb) AS r(system text, code text, drug_id uuid, pack_id uuid, valid_from date, valid_to date, previous boolean)`;

interface Written {
  record: Imaged<PackEntry>;
  id: string;
  productId: string;
}

function childRows(written: Written[]) {
  const unique = <T>(rows: T[], key: (r: T) => string): T[] => [...new Map(rows.map((r) => [key(r), r])).values()];
  return {
    // (pack, kind) is the key; the first price of a kind wins.
    prices: unique(written.flatMap(({ record, id }) => [...(record.entry.prices ?? [])].reverse().map((p) => ({
      pack_id: id, kind: p.kind, amount: p.amount, currency: p.currency, valid_from: p.valid_from,
    }))), (r) => `${r.pack_id}|${r.kind}`),
    identifiers: unique(written.flatMap(({ record, id, productId }) => record.entry.identifiers.map((i) => ({
      system: i.system, code: i.code, drug_id: productId, pack_id: id, valid_from: i.valid_from, valid_to: i.valid_to, previous: i.previous ?? false,
    }))), (r) => `${r.pack_id}|${r.system}|${r.code}`),
  };
}

/** Plans the packs of a snapshot's products; `productIds` comes from the product plan. */
export async function planPacks(tx: Queryable, source: string, products: readonly ProductEntry[], productIds: ReadonlyMap<string, string>): Promise<KindPlan> {
  const records = products.flatMap((p) => p.packs.map((pack) => ({ ...packImage(pack, p.key), productKey: p.key })));
  assertUniqueKeys('pack', records);
  const stored = await storedHashes(tx, 'packs', source);
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'packs', source, [...diff.updates, ...diff.deletes].map((r) => r.key));
  // Every snapshot product has an id (stored or assigned by the product plan).
  const productByPack = new Map(records.map((r) => [r.key, productIds.get(r.productKey)!]));
  const written: Written[] = diff.upserts.map(({ record, stored: row }) => ({
    record, id: row?.id ?? randomUUID(), productId: productByPack.get(record.key)!,
  }));
  return {
    table: 'packs',
    counts: countsOf(diff),
    changes: changesOf(diff, {
      table: 'packs', source, naturalKey: (key) => ({ source, key }), before,
      drugOfRecord: (r) => productByPack.get(r.key) ?? null, drugOfStored: (row) => row.productId ?? null,
    }),
    async upsert(q) {
      if (written.length === 0) return;
      const rows = written.map(({ record, id, productId }) => ({
        id, product_id: productId, natural_key: record.key, description: record.entry.description, units: record.entry.units,
        unit: record.entry.unit, marketing_status: record.image.marketing_status, sl: record.entry.sl, record: record.image, content_hash: record.hash,
      }));
      await inChunks(rows, (chunk) => q.query(UPSERT_PACKS, [recordset(chunk), source]));
      await q.query(DELETE_CHILDREN, [diff.updates.map((u) => u.stored.id)]);
      await inChunks(written, (chunk) => {
        const children = childRows(chunk);
        return q.query(INSERT_CHILDREN, [recordset(children.prices), recordset(children.identifiers)]);
      });
    },
    async remove(q) {
      if (diff.deletes.length === 0) return;
      await q.query('DELETE FROM packs WHERE source = $1 AND id = ANY($2::uuid[])', [source, diff.deletes.map((d) => d.id)]);
    },
  };
}
