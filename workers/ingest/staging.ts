/**
 * The scratch state of one ingest transaction, so the engine holds no more than one chunk of
 * a register in memory:
 * - `ingest_seen` (a temporary table dropped at commit or rollback): every natural key the
 *   snapshot has stated so far, per kind. A key stated twice (in two chunks) refuses the
 *   snapshot, and the stored rows the snapshot no longer has are found set-based at the end
 *   (deletions.ts) instead of loading every stored row.
 * - the change log of the snapshot: records are appended to `changes` as soon as their place
 *   in the feed is settled (stamped as changes.ts describes). The feed lists a snapshot's
 *   records by kind — classification, substances, products, packs, recalls; within a kind
 *   inserts and updates in snapshot order, then deletes by key — so the engine writes in that
 *   order. Only packs written together with the streamed products they belong to come too
 *   early: their records wait in `ingest_changes` (temporary as well) until the products'
 *   deletes are recorded.
 */
import type { Queryable } from '../../platform/db.ts';
import { appendChanges } from './changes.ts';
import type { ChangeRow } from './changes.ts';
import { IngestError } from './diff.ts';

// Keeps each statement's JSON parameter to a few megabytes on large registers.
const HOLD_ROWS = 2000;

const CREATE_SEEN = `CREATE TEMP TABLE IF NOT EXISTS ingest_seen (kind text NOT NULL, key text NOT NULL, PRIMARY KEY (kind, key)) ON COMMIT DROP`;
const CREATE_HELD = `CREATE TEMP TABLE IF NOT EXISTS ingest_changes (
  ord bigint NOT NULL, source text NOT NULL, table_name text NOT NULL, natural_key jsonb NOT NULL,
  drug_id uuid, change_type text NOT NULL, before jsonb, after jsonb) ON COMMIT DROP`;

const HOLD = `
  INSERT INTO ingest_changes (ord, source, table_name, natural_key, drug_id, change_type, before, after)
  SELECT $2 + c.ord, c.source, c.table_name, c.natural_key, c.drug_id, c.change_type, c.before, c.after
  FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
         source text, table_name text, natural_key jsonb, drug_id uuid, change_type text, before jsonb, after jsonb))
       WITH ORDINALITY AS c(source, table_name, natural_key, drug_id, change_type, before, after, ord)`;

const APPEND_HELD = `
  INSERT INTO changes (source, table_name, natural_key, drug_id, change_type, before, after, occurred_at)
  SELECT c.source, c.table_name, c.natural_key, c.drug_id, c.change_type, c.before, c.after, base.at + (c.ord - 1) * interval '1 microsecond'
  FROM ingest_changes c
  CROSS JOIN (SELECT greatest(clock_timestamp(), $1::timestamptz, (SELECT max(occurred_at) FROM changes) + interval '1 microsecond') AS at) AS base`;

/** The scratch tables and change log of one ingest transaction, reset for each snapshot. */
export class IngestStage {
  /** Change records appended to the feed so far (all snapshots of the transaction). */
  appended = 0;
  /** Records held back in the current snapshot. */
  private held = 0;

  private constructor(private readonly tx: Queryable, readonly notBefore: Date | null) {}

  /** Creates the scratch tables in the open transaction; `notBefore` is the caller's clock (changes.ts). */
  static async open(tx: Queryable, notBefore: Date | null): Promise<IngestStage> {
    await tx.query(CREATE_SEEN);
    await tx.query(CREATE_HELD);
    return new IngestStage(tx, notBefore);
  }

  /** Starts a snapshot: no key seen. */
  async reset(): Promise<void> {
    await this.tx.query('TRUNCATE ingest_seen');
  }

  /**
   * Records the keys of one chunk as stated by the snapshot; throws IngestError naming the keys
   * an earlier chunk already stated (an upsert cannot write one row twice).
   */
  async markSeen(kind: string, label: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const { rows } = await this.tx.query<{ key: string }>(
      'INSERT INTO ingest_seen (kind, key) SELECT $1, k FROM unnest($2::text[]) AS k ON CONFLICT DO NOTHING RETURNING key', [kind, keys]);
    if (rows.length === keys.length) return;
    // The chunk itself holds no key twice (diff.ts): the keys not inserted were stated by an earlier chunk.
    const fresh = new Set(rows.map((r) => r.key));
    const dupes = keys.filter((k) => !fresh.has(k));
    const list = dupes.slice(0, 5).join(', ');
    throw new IngestError(`snapshot has ${dupes.length} duplicate ${label} key(s): ${list}${dupes.length > 5 ? ', …' : ''}`);
  }

  /** Appends change records to the feed now, after every record before them. */
  async append(rows: readonly ChangeRow[]): Promise<void> {
    this.appended += await appendChanges(this.tx, rows, this.notBefore);
  }

  /**
   * Runs `sql`, an INSERT INTO changes whose `$1` is `notBefore` (stamped as changes.ts does),
   * with `params` from `$2`; returns how many records it appended.
   */
  async appendSelected(sql: string, params: unknown[]): Promise<number> {
    const { rowCount } = await this.tx.query(sql, [this.notBefore, ...params]);
    this.appended += rowCount;
    return rowCount;
  }

  /** Holds change records back until `appendHeld` (packs written with their streamed products). */
  async hold(rows: readonly ChangeRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += HOLD_ROWS) {
      const chunk = rows.slice(start, start + HOLD_ROWS);
      await this.tx.query(HOLD, [JSON.stringify(chunk), this.held]);
      this.held += chunk.length;
    }
  }

  /** Appends the held records in the order they were held. */
  async appendHeld(): Promise<void> {
    if (this.held === 0) return;
    const { rowCount } = await this.tx.query(APPEND_HELD, [this.notBefore]);
    await this.tx.query('TRUNCATE ingest_changes');
    this.appended += rowCount;
    this.held = 0;
  }
}
