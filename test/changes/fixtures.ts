/**
 * Test rows of the change log, written the way the ingest engine writes them: a source,
 * then change rows stamped by the database (occurred_at defaults to clock_timestamp()).
 */
import type { Queryable } from '../../platform/db.ts';

export interface InsertedChange {
  id: string;
  change_type: string;
  occurred_at: string;
}

/** Registers a source once (idempotent). */
export async function seedSource(db: Queryable, id = 'ch-sl', options: { demo?: boolean } = {}): Promise<void> {
  await db.query(
    `INSERT INTO sources (id, name, country, refresh_interval_hours, last_synced_at, demo)
     VALUES ($1, $2, 'CH', 24, now(), $3) ON CONFLICT (id) DO NOTHING`,
    [id, `Register ${id}`, options.demo ?? false],
  );
}

/**
 * Appends `count` changes in one statement, cycling through `types`; returns them in
 * feed order. `tag` lands in natural_key so tests can tell batches apart.
 */
export async function insertChanges(
  db: Queryable,
  count: number,
  options: { source?: string; types?: string[]; tag?: string } = {},
): Promise<InsertedChange[]> {
  const types = options.types ?? ['insert', 'update', 'delete'];
  const { rows } = await db.query<InsertedChange>(
    // occurred_at strictly increases with n: clock_timestamp() alone can repeat within one
    // statement on a fast machine, and a tie would order the batch by its random ids.
    `INSERT INTO changes (source, table_name, natural_key, drug_id, change_type, before, after, occurred_at)
     SELECT $1, 'packs', jsonb_build_object('gtin', lpad(n::text, 13, '0'), 'tag', $4::text), gen_random_uuid(),
            ($2::text[])[1 + (n - 1) % cardinality($2::text[])],
            CASE WHEN ($2::text[])[1 + (n - 1) % cardinality($2::text[])] = 'insert' THEN NULL ELSE jsonb_build_object('price', n) END,
            CASE WHEN ($2::text[])[1 + (n - 1) % cardinality($2::text[])] = 'delete' THEN NULL ELSE jsonb_build_object('price', n + 1) END,
            clock_timestamp() + n * interval '1 microsecond'
       FROM generate_series(1, $3::int) AS n
     RETURNING id, change_type, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at`,
    [options.source ?? 'ch-sl', types, count, options.tag ?? null],
  );
  return rows.sort((a, b) => (a.occurred_at === b.occurred_at ? (a.id < b.id ? -1 : 1) : a.occurred_at < b.occurred_at ? -1 : 1));
}
