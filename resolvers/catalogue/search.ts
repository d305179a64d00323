/**
 * Typeahead search over the catalogue (GET /v1/drugs, Query.drugs). Codes are tried
 * first, in the spec's order (`detectCodes`); only when no reading of the query as a code
 * finds anything does the name search run. Each query is one SQL statement, so a search
 * costs one or two round trips whatever the limit.
 */
import type { Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { detectCodes } from './codes.ts';
import type { CodeCandidate } from './codes.ts';
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';

export interface SearchArgs {
  q: string;
  /** ISO alpha-2, `ALL`, or null when the caller gave none (implicit CH for names). */
  country: string | null;
  atc: string | null;
  limit: number;
}

export interface SearchResult {
  q: string;
  country: string | null;
  matchedBy: string | null;
  results: DrugRow[];
}

/** The country name search falls back to when none is given (deprecated default). */
export const DEFAULT_SEARCH_COUNTRY = 'CH';

/** `LIKE` pattern text with its wildcards escaped (backslash is the default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** How a row found by a code candidate is labelled: the kind, or the national system. */
function labelOf(candidate: CodeCandidate): string {
  return candidate.kind === 'national' ? candidate.system : candidate.kind;
}

type Row = ProductRecord & { rank: number };

/** Country ($6) and ATC prefix ($7) filters of the code branches. */
const CODE_FILTERS = `($6::text IS NULL OR p.country = $6) AND ($7::text IS NULL OR p.atc_code LIKE $7)`;
/** Class and substance readings list only what a person searching for a human medicine sees (0600_merge.sql). */
const FILTERS = `${CODE_FILTERS} AND p.searchable`;
/** Country ($2) and ATC prefix ($3) filters of the name branches. */
const NAME_FILTERS = `($2::text IS NULL OR p.country = $2) AND ($3::text IS NULL OR p.atc_code LIKE $3) AND p.searchable`;

/**
 * The substances a UNII or `rxcui:` reading stands for: every salt and ester of the same
 * active moiety, with their ingredient-row count; null when q has no such reading (a
 * query reads as one UNII or one rxcui at most).
 */
async function substancesOfCode(db: Queryable, candidates: CodeCandidate[]): Promise<{ uniis: string[]; rows: number; rank: number } | null> {
  const rank = candidates.findIndex((c) => c.system === 'unii' || c.system === 'rxcui');
  if (rank < 0) return null;
  const { system, code } = candidates[rank]!;
  const { rows } = await db.query<{ uniis: string[]; n: number }>(
    `WITH subst AS (
       SELECT coalesce(array_agg(DISTINCT m.unii), '{}') AS uniis FROM substances s JOIN substances m ON m.moiety_unii = s.moiety_unii
        WHERE ($1 = 'unii' AND s.unii = $2) OR ($1 = 'rxcui' AND s.rxcui = $2))
     SELECT uniis, (SELECT count(*) FROM product_ingredients pi WHERE pi.unii = ANY(subst.uniis))::int AS n FROM subst`,
    [system, code],
  );
  return { uniis: rows[0]?.uniis ?? [], rows: rows[0]?.n ?? 0, rank };
}

/**
 * Drugs found by any reading of q as a code. Identifier systems match the identifiers
 * table; ATC readings are a prefix scan of products; UNII and rxcui readings find the
 * products whose ingredients fold to the same active moiety.
 */
async function searchByCode(db: Queryable, candidates: CodeCandidate[], country: string | null, atc: string | null, limit: number) {
  const atcCandidate = candidates.findIndex((c) => c.system === 'atc');
  const ids = candidates.map((c, rank) => ({ ...c, rank })).filter((c) => c.system !== 'atc');
  const substances = await substancesOfCode(db, candidates);
  const branch = substanceBranch((substances?.rows ?? 0) > DENSE_SUBSTANCE_ROWS, { uniis: '$9', rank: '$10::int', filters: FILTERS, limit: '$8' });
  // Each branch is filtered and cut to `limit` in its own order before the merge, so a
  // broad code (an ATC class over thousands of products) never sorts its whole match set.
  const { rows } = await db.query<Row>(
    `WITH cand AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[]) AS c(system, code, rank)),
     hits AS (
       (SELECT p.id, min(c.rank) AS rank FROM cand c JOIN identifiers i ON i.system = c.system AND i.code = c.code
          JOIN products m ON m.id = i.drug_id JOIN products p ON p.id = coalesce(m.merged_into, m.id) WHERE ${CODE_FILTERS}
         GROUP BY p.id ORDER BY 2, min(lower(p.product_name)), p.id LIMIT $8)
       UNION ALL
       (SELECT p.id, $4::int FROM products p WHERE $5::text IS NOT NULL AND p.atc_code LIKE $5 AND ${FILTERS}
         ORDER BY lower(p.product_name), p.id LIMIT $8)
       UNION ALL
       (${branch})),
     best AS (SELECT id, min(rank) AS rank FROM hits GROUP BY id)
     SELECT ${PRODUCT_COLUMNS}, b.rank FROM best b JOIN products p ON p.id = b.id
      ORDER BY b.rank, lower(p.product_name), p.id LIMIT $8`,
    [
      ids.map((c) => c.system), ids.map((c) => c.code), ids.map((c) => c.rank),
      atcCandidate, atcCandidate >= 0 ? `${escapeLike(candidates[atcCandidate]!.code)}%` : null,
      country, atc, limit, substances?.uniis ?? [], substances?.rank ?? 0,
    ],
  );
  return rows.map((r) => ({ ...toDrug(r), matchedBy: labelOf(candidates[r.rank]!) }));
}

/** Above this many ingredient rows a substance is "common": walk products in name order instead of joining them all. */
const DENSE_SUBSTANCE_ROWS = 2000;

/**
 * Products containing any of the substances in `uniis` (a parameter), cut to `limit`, by
 * one of two plans chosen on how many ingredient rows they have:
 * - sparse: collect the few products first, then fetch each by primary key and sort
 *   (MATERIALIZED and the LATERAL ... OFFSET 0 fence keep the planner, which cannot
 *   estimate the array, from walking or hashing every product of the country instead);
 * - dense: walk the (country, lower(name)) index in name order and stop at the limit.
 */
function substanceBranch(dense: boolean, p: { uniis: string; rank: string; filters: string; limit: string }): string {
  if (dense) {
    return `SELECT p.id, ${p.rank} AS rank FROM products p
             WHERE EXISTS (SELECT 1 FROM product_ingredients pi WHERE pi.product_id = p.id AND pi.unii = ANY(${p.uniis})) AND ${p.filters}
             ORDER BY lower(p.product_name), p.id LIMIT ${p.limit}`;
  }
  return `WITH m AS MATERIALIZED (SELECT DISTINCT pi.product_id FROM product_ingredients pi WHERE pi.unii = ANY(${p.uniis}))
          SELECT p.id, ${p.rank} AS rank FROM m CROSS JOIN LATERAL (
            SELECT p.id, p.product_name FROM products p WHERE p.id = m.product_id AND ${p.filters} OFFSET 0) p
           ORDER BY lower(p.product_name), p.id LIMIT ${p.limit}`;
}

/** Substances whose name matches, folded to every salt of their moieties, and how many ingredient rows they have. */
async function matchingSubstances(db: Queryable, pattern: string): Promise<{ uniis: string[]; rows: number }> {
  const { rows } = await db.query<{ uniis: string[]; n: number }>(
    // The count runs on the finished array, so it is an index scan of product_ingredients_unii.
    `WITH subst AS (SELECT coalesce(array_agg(DISTINCT m.unii), '{}') AS uniis
                      FROM substances s JOIN substances m ON m.moiety_unii = s.moiety_unii WHERE lower(s.name) LIKE $1)
     SELECT uniis, (SELECT count(*) FROM product_ingredients pi WHERE pi.unii = ANY(subst.uniis))::int AS n FROM subst`,
    [pattern],
  );
  return { uniis: rows[0]?.uniis ?? [], rows: rows[0]?.n ?? 0 };
}

/**
 * Case-insensitive name search: product names, and substance names folded to the active
 * moiety so a substance (or one of its salts) finds every brand containing it. Queries of
 * three characters or more are substring matches (trigram indexes); shorter ones are
 * prefix matches (text_pattern_ops indexes), because trigrams need three characters.
 * Two round trips: the substances first, so the product query can pick its plan.
 */
async function searchByName(db: Queryable, q: string, country: string | null, atc: string | null, limit: number) {
  const text = escapeLike(q.toLowerCase());
  const pattern = q.length >= 3 ? `%${text}%` : `${text}%`;
  const substances = await matchingSubstances(db, pattern);
  const branch = substanceBranch(substances.rows > DENSE_SUBSTANCE_ROWS, { uniis: '$6', rank: '1', filters: NAME_FILTERS, limit: '$5' });
  const { rows } = await db.query<Row>(
    `WITH hits AS (
       -- No ORDER BY/LIMIT here: a cut branch tempts the planner into walking the country
       -- index with a LIKE filter, far slower than the trigram bitmap over the matches.
       (SELECT p.id, 0 AS rank FROM products p WHERE lower(p.product_name) LIKE $1 AND ${NAME_FILTERS})
       UNION ALL
       (${branch})),
     best AS (SELECT id, min(rank) AS rank FROM hits GROUP BY id)
     SELECT ${PRODUCT_COLUMNS}, b.rank FROM best b JOIN products p ON p.id = b.id
      ORDER BY b.rank, (b.rank = 0 AND lower(p.product_name) LIKE $4) DESC, lower(p.product_name), p.id LIMIT $5`,
    [pattern, country, atc, `${text}%`, limit, substances.uniis],
  );
  return rows.map((r) => ({ ...toDrug(r), matchedBy: r.rank === 0 ? 'product_name' : 'substance_name' }));
}

/** Runs the search: codes first (narrowed only by an explicit country), then names. */
export async function searchDrugs(db: Queryable, args: SearchArgs): Promise<SearchResult> {
  const q = args.q.trim();
  if (q === '') throw validationError('Invalid request: query q must not be blank.', [{ location: 'query', field: 'q', message: 'must not be blank' }]);
  const explicit = args.country === 'ALL' ? null : args.country;
  const atc = args.atc ? `${escapeLike(args.atc.trim().toUpperCase())}%` : null;
  const candidates = detectCodes(q);
  if (candidates.length) {
    const results = await searchByCode(db, candidates, explicit, atc, args.limit);
    if (results.length) return { q: args.q, country: args.country, matchedBy: results[0]!.matchedBy, results };
  }
  const country = args.country === null ? DEFAULT_SEARCH_COUNTRY : explicit;
  const results = await searchByName(db, q, country, atc, args.limit);
  return { q: args.q, country: args.country ?? DEFAULT_SEARCH_COUNTRY, matchedBy: results[0]?.matchedBy ?? null, results };
}
