/**
 * Packs with their prices and pack-level identifiers. A pack is one record whose image holds
 * its prices and SL entry, so a changed price is exactly one pack update. A pack may move to
 * another product of the same source (its key stays, its product_id changes). Packs are written
 * one chunk at a time like products (write-products.ts); those the snapshot no longer has are
 * deleted set-based at the end (deletions.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../platform/db.ts';
import { assertUniqueKeys, diffRecords } from './diff.ts';
import type { Imaged } from './images.ts';
import { packImage } from './images.ts';
import { changesOf, countsOf, inChunks, recordset } from './plan.ts';
import type { TableCounts } from './plan.ts';
import { storedHashesOf, storedImages } from './records.ts';
import type { PackEntry } from './snapshot.ts';
import type { IngestStage } from './staging.ts';

/** A pack with the key and (when known) row id of the product it belongs to. */
export interface OwnedPack {
  pack: PackEntry;
  productKey: string;
  productId?: string;
}

export interface PackChunkOptions {
  /** Hold the change records back: the products' deletes are not recorded yet (staging.ts). */
  hold?: boolean;
  /** Row ids of products by key, for packs given without one; only written packs need it. */
  resolve?: (productKeys: string[]) => Promise<Map<string, string>>;
}

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

/**
 * Diffs and writes one chunk of a snapshot's packs and appends their change records (or holds
 * them back). A pack given without its product's row id gets it from `resolve` only when it is
 * written: an unchanged pack keeps its product (its image names the product's key).
 */
export async function writePackChunk(tx: Queryable, stage: IngestStage, source: string, packs: readonly OwnedPack[], options: PackChunkOptions = {}): Promise<TableCounts> {
  const keys = packs.map((p) => p.pack.key);
  assertUniqueKeys('pack', keys.map((key) => ({ key })));
  // One statement at a time on the transaction; the images are computed meanwhile.
  const reads = async () => {
    await stage.markSeen('packs', 'pack', keys);
    return storedHashesOf(tx, 'packs', source, keys);
  };
  const [stored, records] = await Promise.all([reads(), Promise.resolve().then(() => packs.map((p) => packImage(p.pack, p.productKey)))]);
  const diff = diffRecords(source, records, stored);
  const before = await storedImages(tx, 'packs', source, diff.updates.map((r) => r.key));
  const owners = new Map(packs.map((p) => [p.pack.key, p]));
  const unresolved = [...new Set(diff.upserts.map((u) => owners.get(u.record.key)!).filter((p) => !p.productId).map((p) => p.productKey))];
  const resolved = unresolved.length > 0 && options.resolve ? await options.resolve(unresolved) : new Map<string, string>();
  const productOf = (key: string): string => {
    const owner = owners.get(key)!;
    return owner.productId ?? resolved.get(owner.productKey)!;
  };
  const written: Written[] = diff.upserts.map(({ record, stored: row }) => ({ record, id: row?.id ?? randomUUID(), productId: productOf(record.key) }));
  const changes = changesOf(diff, {
    table: 'packs', source, naturalKey: (key) => ({ source, key }), before,
    drugOfRecord: (r) => productOf(r.key), drugOfStored: (row) => row.productId ?? null,
  });
  await (options.hold ? stage.hold(changes) : stage.append(changes));
  if (written.length > 0) {
    const rows = written.map(({ record, id, productId }) => ({
      id, product_id: productId, natural_key: record.key, description: record.entry.description, units: record.entry.units,
      unit: record.entry.unit, marketing_status: record.image.marketing_status, sl: record.entry.sl, record: record.image, content_hash: record.hash,
    }));
    await inChunks(rows, (chunk) => tx.query(UPSERT_PACKS, [recordset(chunk), source]));
    if (diff.updates.length > 0) await tx.query(DELETE_CHILDREN, [diff.updates.map((u) => u.stored.id)]);
    await inChunks(written, (chunk) => {
      const children = childRows(chunk);
      return tx.query(INSERT_CHILDREN, [recordset(children.prices), recordset(children.identifiers)]);
    });
  }
  return countsOf(diff);
}
