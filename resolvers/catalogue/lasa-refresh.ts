/**
 * Computed look-alike / sound-alike pairs (docs/catalogue.md "LASA"): for each country, every
 * pair of distinct marketed name keys whose spelling or phonetic similarity reaches its
 * threshold, stored in `lasa_pairs` (both directions) by `lasa_similar_pairs` (0830_lasa.sql).
 *
 * A country's pairs are recomputed when its sources' stamp (count and last sync) differs from
 * the one stored with the pairs, so every ingest that touches a register makes them stale:
 * call `refreshLasa(db)` after an ingest, or let the first search that asks for `lasa` on a
 * stale country schedule it in the background (`scheduleLasaRefresh`, one at a time per
 * database). Pairs are keyed by name, and the read joins them to the live catalogue, so until
 * the refresh runs a withdrawn name already drops out and only new names are missing.
 */
import type { Database, Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';

/**
 * Spelling threshold: 1 - Levenshtein(a, b) / max(|a|, |b|) over the name keys. Chosen with
 * the phonetic one as the pair with the best F1 on the transcribed ISMP/FDA pairs against the
 * demo US names (grid and numbers in docs/catalogue.md "LASA").
 */
export const LASA_SPELLING_MIN = 0.6;
/** Phonetic threshold: the same similarity over the keys' Metaphone codes. */
export const LASA_PHONETIC_MIN = 0.8;

/** Same lock space as the ingest engine (727_002) and the interaction loader; ours is 727_830. */
const LASA_LOCK_ID = 727_830;

export interface LasaRefresh {
  country: string;
  /** Distinct marketed name keys of the country. */
  names: number;
  /** Unordered similar pairs stored. */
  pairs: number;
}

/** Countries whose stored pairs no longer match their sources (or that have none yet, or no longer any products). */
export async function staleLasaCountries(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ country: string }>(
    `SELECT c.country FROM (SELECT DISTINCT country FROM products WHERE searchable) c
       LEFT JOIN lasa_state s ON s.country = c.country
      WHERE s.sources_stamp IS DISTINCT FROM lasa_sources_stamp(c.country)
     UNION
     SELECT s.country FROM lasa_state s WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.country = s.country AND p.searchable)
     ORDER BY 1`,
  );
  return rows.map((r) => r.country);
}

/**
 * Recomputes one country's pairs in one transaction (the read never sees half a country).
 * Skipped, returning null, when another process refreshed it meanwhile and `force` is off.
 */
export async function refreshLasaCountry(db: Database, country: string, options: { force?: boolean } = {}): Promise<LasaRefresh | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LASA_LOCK_ID]);
    if (!options.force) {
      const { rows } = await tx.query<{ fresh: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM lasa_state WHERE country = $1 AND sources_stamp = lasa_sources_stamp($1)) AS fresh', [country],
      );
      if (rows[0]?.fresh) return null;
    }
    await tx.query('DELETE FROM lasa_pairs WHERE country = $1', [country]);
    const { rows } = await tx.query<{ names: number; pairs: number }>(
      `WITH n AS (SELECT DISTINCT lasa_name_key(product_name) AS key FROM products
                   WHERE country = $1 AND searchable AND marketing_status = 'active' AND lasa_name_key(product_name) IS NOT NULL),
            sp AS (SELECT * FROM lasa_similar_pairs(ARRAY(SELECT key FROM n), $2, $3)),
            ins AS (INSERT INTO lasa_pairs (country, key, other, spelling, phonetic)
                    SELECT $1, a, b, spelling, phonetic FROM sp UNION ALL SELECT $1, b, a, spelling, phonetic FROM sp RETURNING 1)
       INSERT INTO lasa_state AS s (country, sources_stamp, names, pairs, computed_at)
       VALUES ($1, lasa_sources_stamp($1), (SELECT count(*) FROM n), (SELECT count(*) FROM ins) / 2, clock_timestamp())
       ON CONFLICT (country) DO UPDATE SET sources_stamp = EXCLUDED.sources_stamp, names = EXCLUDED.names, pairs = EXCLUDED.pairs,
         computed_at = EXCLUDED.computed_at
       RETURNING s.names, s.pairs`,
      [country, LASA_SPELLING_MIN, LASA_PHONETIC_MIN],
    );
    return { country, names: rows[0]!.names, pairs: rows[0]!.pairs };
  });
}

/**
 * Brings every stale country up to date (or the given ones, recomputed even when fresh with
 * `force`). Call after an ingest; cheap when nothing changed (one query).
 */
export async function refreshLasa(db: Database, options: { countries?: readonly string[]; force?: boolean } = {}): Promise<LasaRefresh[]> {
  const countries = options.countries ?? (await staleLasaCountries(db));
  const done: LasaRefresh[] = [];
  for (const country of countries) {
    const result = await refreshLasaCountry(db, country, options.force ? { force: true } : {});
    if (result) done.push(result);
  }
  return done;
}

/** The refresh under way per database: one at a time, whatever the number of requests asking. */
const running = new WeakMap<Database, { promise: Promise<void>; queued: Set<string>; taken: Set<string> }>();

/**
 * Schedules a background refresh of `countries` (a search found them stale). Never throws and
 * never delays the request; failures are logged. Countries asked for while one runs are
 * refreshed by the same run.
 */
export function scheduleLasaRefresh(db: Database, countries: readonly string[], log?: Logger): void {
  if (countries.length === 0) return;
  const current = running.get(db);
  if (current) {
    countries.filter((c) => !current.taken.has(c)).forEach((c) => current.queued.add(c));
    return;
  }
  const state = { queued: new Set(countries), taken: new Set<string>(), promise: Promise.resolve() };
  state.promise = (async () => {
    try {
      while (state.queued.size) {
        const next = [...state.queued];
        state.queued.clear();
        next.forEach((c) => state.taken.add(c));
        const done = await refreshLasa(db, { countries: next });
        if (done.length) log?.info({ lasa: done }, 'look-alike pairs refreshed');
      }
    } catch (error) {
      log?.warn({ err: error }, 'look-alike pair refresh failed; the next search that finds them stale retries');
    } finally {
      running.delete(db);
    }
  })();
  running.set(db, state);
}

/** Resolves when no background refresh of `db` is under way (tests, shutdown). */
export async function lasaRefreshSettled(db: Database): Promise<void> {
  for (let state = running.get(db); state; state = running.get(db)) await state.promise;
}
