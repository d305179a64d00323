/**
 * The change log as the feed and the webhook worker read it: the spec's change record,
 * keyset reads over `(occurred_at, id)`, and the visibility horizon that keeps a reader
 * from stepping past a change that is written but not yet committed.
 */
import { STREAM_APPLICATION_NAME } from '../../platform/db.ts';
import type { Queryable } from '../../platform/db.ts';

/** The four change types of the `changes` table (migration 0002) and their events. */
export const CHANGE_TYPES = ['insert', 'update', 'delete', 'recall'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export const CHANGE_EVENTS = CHANGE_TYPES.map((t) => `changes.${t}` as const);
export type ChangeEvent = (typeof CHANGE_EVENTS)[number];

/** The spec's change record, camelCase (GraphQL); `toWire` gives the snake_case JSON. */
export interface ChangeRecord {
  id: string;
  tableName: string;
  naturalKey: unknown;
  drugId: string | null;
  changeType: ChangeType;
  before: unknown;
  after: unknown;
  source: string;
  /** ISO 8601 UTC with microseconds: the database's full precision, so keysets are exact. */
  occurredAt: string;
}

/** A keyset position: strictly after this `(occurred_at, id)`. */
export interface Position {
  occurredAt: string;
  id: string;
}

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** UTC text with microseconds; fixed width, so these strings sort like the timestamps. */
export const ISO_US = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

export interface ChangeRow {
  id: string;
  table_name: string;
  natural_key: unknown;
  drug_id: string | null;
  change_type: ChangeType;
  before: unknown;
  after: unknown;
  source: string;
  occurred_iso: string;
}

// The text form gets its own alias: ORDER BY occurred_at must name the column, not an
// output column, or PostgreSQL would sort text and skip the (occurred_at, id) index.
export const CHANGE_COLUMNS = `id, table_name, natural_key, drug_id, change_type, before, after, source,
  to_char(occurred_at AT TIME ZONE 'UTC', ${ISO_US}) AS occurred_iso`;

export function toRecord(row: ChangeRow): ChangeRecord {
  return {
    id: row.id,
    tableName: row.table_name,
    naturalKey: row.natural_key,
    drugId: row.drug_id,
    changeType: row.change_type,
    before: row.before,
    after: row.after,
    source: row.source,
    occurredAt: row.occurred_iso,
  };
}

/** The change record as JSON on the wire (webhook batches); same names as REST. */
export function toWire(change: ChangeRecord): Record<string, unknown> {
  return {
    id: change.id,
    table_name: change.tableName,
    natural_key: change.naturalKey,
    drug_id: change.drugId,
    change_type: change.changeType,
    before: change.before,
    after: change.after,
    source: change.source,
    occurred_at: change.occurredAt,
  };
}

/**
 * The newest instant below which every change is committed. A writer stamps rows with
 * clock_timestamp() inside its transaction, so a row it has not committed yet is never
 * older than that transaction's start; reading only below the oldest open transaction's
 * start means no change can later appear behind a position already handed out. On PGlite
 * (one connection) there is no other transaction and the horizon is simply "now".
 * Only sessions of the same role show their `xact_start`, so the writer must connect
 * with the service's role (docs/webhooks.md). Read-only exports (`Database.stream`, named
 * by `STREAM_APPLICATION_NAME`) write nothing and are left out, so a slow export never
 * holds the horizon back.
 */
export async function visibilityHorizon(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ horizon: string }>(
    `SELECT to_char(least(clock_timestamp(), (
              SELECT min(xact_start) FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid()
                 AND backend_type = 'client backend' AND xact_start IS NOT NULL
                 AND application_name IS DISTINCT FROM '${STREAM_APPLICATION_NAME}')
            ) AT TIME ZONE 'UTC', ${ISO_US}) AS horizon`,
  );
  return rows[0]!.horizon;
}

/**
 * Up to `limit` changes strictly after `after` and strictly before `horizon`, ascending by
 * `(occurred_at, id)`, optionally only of some change types. The row comparison is an
 * index condition on `changes_keyset`, so a page deep in the log costs what the first does.
 */
export async function readChanges(
  db: Queryable,
  options: { after: Position; horizon: string; limit: number; types?: readonly ChangeType[] },
): Promise<ChangeRecord[]> {
  const params: unknown[] = [options.after.occurredAt, options.after.id, options.horizon, options.limit];
  const typeFilter = options.types ? `AND change_type = ANY($5::text[])` : '';
  if (options.types) params.push(options.types);
  const { rows } = await db.query<ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM changes
      WHERE (occurred_at, id) > ($1::timestamptz, $2::uuid) AND occurred_at < $3::timestamptz ${typeFilter}
      ORDER BY occurred_at, id
      LIMIT $4`,
    params,
  );
  return rows.map(toRecord);
}

/** Orders two positions like PostgreSQL orders `(occurred_at, id)`. */
export function comparePositions(a: Position, b: Position): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt < b.occurredAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1;
}
