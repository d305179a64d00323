/**
 * Typeahead search over the catalogue (GET /v1/drugs, Query.drugs). Codes are tried
 * first, in the spec's order (`detectCodes`); only when no reading of the query as a code
 * finds anything does the name search run. Each is a prepared statement that also
 * returns the rows' ingredients (primed into the request's ingredients loader), so a
 * search costs one or two round trips whatever the limit (see `searchByName`).
 *
 * Every list is ordered by the lower-cased name in byte order (`NAME_KEY`), the key of the
 * partial b-trees of 0840_hot_path.sql, so the first `limit` rows of each tier come
 * straight off an index: a common prefix (`ibu` in a million products) never sorts its
 * match set. Tiers that can only matter when the earlier ones came up short are gated
 * (an uncorrelated condition PostgreSQL checks once before starting the scan).
 *
 * The code search's plan does not depend on the parameters' values, so PostgreSQL keeps
 * its generic plan and does not plan it again per request. The name search's does (a
 * rare substring wants the trigram index, a common one the name order): on a large
 * catalogue PostgreSQL plans it for each query's values. So names starting with q, whose
 * plan is the same for any q, are asked for first, alone; the full statement runs only
 * when they do not fill the page.
 */
import type { Queryable } from '../../platform/db.ts';
import { validationError } from '../../platform/errors.ts';
import { detectCodes } from '../../vocabulary/codes.ts';
import type { CodeCandidate } from '../../vocabulary/codes.ts';
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';
import type { IngredientRow } from './loaders.ts';

export interface SearchArgs {
  q: string;
  /** ISO alpha-2, `ALL`, or null when the caller gave none (implicit CH for names). */
  country: string | null;
  atc: string | null;
  limit: number;
  /**
   * Stored identifier systems whose current codes each result should carry (ValueSet/$expand
   * lists products by their codes): read in the search statement itself, not after it.
   */
  codesIn?: string[];
}

export interface SearchResult {
  q: string;
  country: string | null;
  matchedBy: string | null;
  results: DrugRow[];
  /** With `codesIn`: each result's current codes in those systems (merged rows' included), by product id. */
  codes?: Map<string, string[]>;
}

/** What search primes with the ingredients it read: the request's ingredients loader. */
export interface IngredientsPrimer {
  prime(productId: string, ingredients: IngredientRow[]): unknown;
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

type Row = ProductRecord & { rank: number; ingredients: IngredientRow[]; codes?: string[] };

/** The order of every list: lower-cased name in byte order (indexed by 0840_hot_path.sql), then id. */
const NAME_KEY = '(lower(p.product_name) COLLATE "C")';

/**
 * A substance is "common" when its ingredient rows are at least 1 in this many of the
 * catalogue's products (PostgreSQL's own row estimate): then walking products in name
 * order meets its first `limit` products early. A rarer one (ibuprofen is 0.7 % of a
 * million products, and its names cluster under "i" and "n") would be walked for tens of
 * thousands of rows; fetching its few thousand products by key costs less.
 */
const DENSE_SHARE = 20;

/** Each result row's ingredients in the ingredients loader's shape (resolvers/catalogue/loaders.ts). */
const INGREDIENTS = `(SELECT coalesce(json_agg(json_build_object('unii', i.unii, 'name', s.name, 'moietyUnii', s.moiety_unii,
    'strengthValue', i.strength_value::float8, 'strengthUnit', i.strength_unit) ORDER BY i.position), '[]')
   FROM product_ingredients i LEFT JOIN substances s ON s.unii = i.unii WHERE i.product_id = p.id) AS ingredients`;

/**
 * Each result row's current codes in the systems of `$n` (the rows merged into it too),
 * product-level codes first: what ValueSet/$expand lists, so it costs no statement of its own.
 */
const CODES = (systems: string) => `(SELECT coalesce(json_agg(c.code ORDER BY c.pack_level, c.code), '[]') FROM (
    SELECT i.code, bool_and(i.pack_id IS NOT NULL) AS pack_level FROM products x JOIN identifiers i ON i.drug_id = x.id
     WHERE (x.id = p.id OR x.merged_into = p.id) AND i.system = ANY(${systems}::text[]) AND NOT i.previous GROUP BY i.code) c) AS codes`;

/**
 * Positional parameters of one statement. Optional filters become part of the text only
 * when given, so each variant is its own prepared statement with its own plan.
 */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The least string above every string that starts with `prefix` in byte (code point)
 * order, so `[prefix, prefixEnd(prefix))` holds exactly the strings starting with it: the
 * last code point plus one (skipping the surrogate range), after dropping trailing
 * U+10FFFF, the highest. A prefix of U+10FFFF alone (a noncharacter) gets an empty range.
 */
export function prefixEnd(prefix: string): string {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length && points[points.length - 1]! >= 0x10ffff) points.pop();
  if (!points.length) return '\u{10ffff}';
  const last = points.pop()! + 1;
  points.push(last === 0xd800 ? 0xe000 : last);
  return String.fromCodePoint(...points);
}

/** Country and ATC prefix conditions on `products p`, present only when given. */
function filterSql(params: Params, country: string | null, atc: string | null): string {
  return (country ? ` AND p.country = ${params.add(country)}` : '') + (atc ? ` AND p.atc_code LIKE ${params.add(atc)}` : '');
}

/**
 * CTEs `subst_n` and `sparse`, and `dense` unless `walk` is false: the products containing
 * any substance of CTE `subst` (column `uniis`), cut to `limit`, by one of two plans
 * chosen in the statement on how common those substances are (`DENSE_SHARE`):
 * - sparse: collect the products first, then fetch each by primary key and sort (the
 *   LATERAL ... OFFSET 0 fence keeps the planner, which cannot estimate the array, from
 *   walking or hashing every product of the country instead);
 * - dense: walk the name index in order and stop at the limit.
 * An ATC filter leaves only sparse (`walk` false): a walk in name order would read the
 * whole catalogue when no product of the substance is in that class, and sparse costs the
 * substance's own products whatever the filter.
 */
function substanceTiers(p: { rank: string; filters: string; limit: string; walk: boolean }): { ctes: string; tiers: string[] } {
  const ofSubstance = `pi.unii = ANY((SELECT uniis FROM subst_n)::text[])`;
  // reltuples is -1 before the first ANALYZE: no estimate, walk (a new catalogue is small).
  const dense = p.walk ? `n > 0 AND n * ${DENSE_SHARE} > (SELECT reltuples FROM pg_class WHERE oid = 'products'::regclass)` : 'false';
  const ctes = [`subst_n AS MATERIALIZED (
       SELECT uniis, n, ${dense} AS dense FROM (
         SELECT uniis, (SELECT count(*) FROM product_ingredients pi WHERE pi.unii = ANY(subst.uniis)) AS n FROM subst) s)`];
  if (p.walk) {
    ctes.push(`dense AS MATERIALIZED (
       SELECT p.id, ${p.rank} AS rank, ${NAME_KEY} AS k FROM products p
        WHERE (SELECT dense FROM subst_n) AND ${p.filters}
          AND EXISTS (SELECT 1 FROM product_ingredients pi WHERE pi.product_id = p.id AND ${ofSubstance})
        ORDER BY ${NAME_KEY}, p.id LIMIT ${p.limit})`);
  }
  ctes.push(`sparse AS MATERIALIZED (
       SELECT p.id, ${p.rank} AS rank, p.k FROM (
         SELECT DISTINCT pi.product_id FROM product_ingredients pi
          WHERE (SELECT n > 0 AND NOT dense FROM subst_n) AND ${ofSubstance}) m
       CROSS JOIN LATERAL (SELECT p.id, ${NAME_KEY} AS k FROM products p WHERE p.id = m.product_id AND ${p.filters} OFFSET 0) p
        ORDER BY p.k, p.id LIMIT ${p.limit})`);
  return { ctes: ctes.join(',\n     '), tiers: p.walk ? ['dense', 'sparse'] : ['sparse'] };
}

/**
 * The final select over CTE `hits (id, rank, k)`: best rank per product, full rows,
 * ingredients. `plan_without_workers()` (0840_hot_path.sql) keeps the whole statement off
 * parallel plans, whose workers would start even for tiers the gates skip.
 */
function finalSelect(params: Params, limit: string, codesIn: string[] | undefined): string {
  const codes = codesIn ? `, ${CODES(params.add(codesIn))}` : '';
  return `best AS (SELECT id, min(rank) AS rank, min(k) AS k FROM hits GROUP BY id)
     SELECT ${PRODUCT_COLUMNS}, b.rank, ${INGREDIENTS}${codes}
       FROM best b JOIN products p ON p.id = b.id
      WHERE plan_without_workers()
      ORDER BY b.rank, b.k, p.id LIMIT ${limit}`;
}

function toResult(q: string, country: string | null, rows: Row[], label: (row: Row) => string, primer?: IngredientsPrimer): SearchResult {
  for (const r of rows) primer?.prime(r.id, r.ingredients);
  // Object.assign, not a spread plus a property: per row, and that pattern is slow on Node 20 (resolvers/context.ts).
  const results = rows.map((r) => Object.assign(toDrug(r), { matchedBy: label(r) }));
  const codes = rows.some((r) => r.codes) ? new Map(rows.map((r) => [r.id, r.codes ?? []])) : undefined;
  return { q, country, matchedBy: results[0]?.matchedBy ?? null, results, ...(codes ? { codes } : {}) };
}

/** CTE `by_id`: the products (merged rows folded into their representative) holding an identifier that q reads as. */
function byIdTier(params: Params, ids: Array<CodeCandidate & { rank: number }>, filters: string, limit: string): string {
  // One VALUES row per reading, not arrays: the planner counts them the same with or without
  // the parameters' values, so the generic plan costs what the custom ones do and is kept.
  const cand = ids.map((c) => `(${params.add(c.system)}::text, ${params.add(c.code)}::text, ${params.add(c.rank)}::int)`).join(', ');
  return `by_id AS MATERIALIZED (
       SELECT p.id, min(c.rank) AS rank, min(${NAME_KEY}) AS k FROM (VALUES ${cand}) AS c(system, code, rank)
         JOIN identifiers i ON i.system = c.system AND i.code = c.code
         JOIN products m ON m.id = i.drug_id JOIN products p ON p.id = coalesce(m.merged_into, m.id) WHERE ${filters}
        GROUP BY p.id ORDER BY 2, 3, p.id LIMIT ${limit})`;
}

/**
 * CTE `by_atc`: the products under an ATC code or class, first `limit` in name order. A
 * class spans several codes and no index holds a range of codes in name order, so the
 * codes present are found first (a skip scan of 0850_typeahead_atc.sql's index, one probe
 * per code), then each code's first `limit` names come straight off the same index and
 * only those are merged: a million products cost no more than the demo's thousands.
 */
function byAtcTier(params: Params, code: string, rank: number, country: string | null, filters: string, limit: string): string {
  const from = params.add(code);
  const to = params.add(prefixEnd(code));
  const inCountry = country ? ` AND p.country = ${params.add(country)}` : '';
  const atc = `(p.atc_code COLLATE "C")`;
  return `by_atc AS MATERIALIZED (
       WITH RECURSIVE codes (code) AS (
           SELECT min(${atc}) FROM products p WHERE p.searchable${inCountry} AND ${atc} >= ${from} AND ${atc} < ${to}
         UNION ALL
           SELECT (SELECT min(${atc}) FROM products p WHERE p.searchable${inCountry} AND ${atc} > c.code AND ${atc} < ${to})
             FROM codes c WHERE c.code IS NOT NULL)
       SELECT p.id, ${params.add(rank)}::int AS rank, p.k FROM codes c
        CROSS JOIN LATERAL (SELECT p.id, ${NAME_KEY} AS k FROM products p WHERE ${atc} = c.code AND ${filters}
                             ORDER BY ${NAME_KEY}, p.id LIMIT ${limit}) p
        ORDER BY p.k, p.id LIMIT ${limit})`;
}

/**
 * Drugs found by any reading of q as a code. Identifier systems match the identifiers
 * table; ATC readings are the products under the code; UNII and rxcui readings find the
 * products whose ingredients fold to the same active moiety. Each branch is filtered and
 * cut to `limit` in its own order before the merge, so a broad code (an ATC class over
 * thousands of products) never sorts its whole match set. Only the branches q has a
 * reading for are in the statement: each combination is its own prepared statement, small
 * to plan, with no branch whose cost depends on a parameter being null.
 */
async function searchByCode(db: Queryable, candidates: CodeCandidate[], country: string | null, atc: string | null, limit: number, codesIn?: string[]): Promise<Row[]> {
  const ids = candidates.map((c, rank) => ({ ...c, rank })).filter((c) => c.system !== 'atc');
  const atcRank = candidates.findIndex((c) => c.system === 'atc');
  const substRank = candidates.findIndex((c) => c.system === 'unii' || c.system === 'rxcui');
  const params = new Params();
  // The limit as a sub-select: the planner cannot see its value with or without the
  // parameters, so custom and generic plans cost the same and the generic one is kept
  // after the first few (no planning per request), as on the demo catalogue.
  const lim = `(SELECT ${params.add(limit)}::int)`;
  const codeFilters = `true${filterSql(params, country, atc)}`;
  const filters = `p.searchable AND ${codeFilters}`;
  const ctes: string[] = [];
  const tiers: string[] = [];
  if (ids.length) {
    ctes.push(byIdTier(params, ids, codeFilters, lim));
    tiers.push('by_id');
  }
  if (atcRank >= 0) {
    ctes.push(byAtcTier(params, candidates[atcRank]!.code, atcRank, country, filters, lim));
    tiers.push('by_atc');
  }
  if (substRank >= 0) {
    const reading = candidates[substRank]!;
    const system = params.add(reading.system);
    const code = params.add(reading.code);
    const substance = substanceTiers({ rank: `${params.add(substRank)}::int`, filters, limit: lim, walk: atc === null });
    ctes.push(`subst AS MATERIALIZED (
       SELECT coalesce(array_agg(DISTINCT m.unii), '{}') AS uniis FROM substances s JOIN substances m ON m.moiety_unii = s.moiety_unii
        WHERE (${system}::text = 'unii' AND s.unii = ${code}::text) OR (${system}::text = 'rxcui' AND s.rxcui = ${code}::text))`,
    substance.ctes);
    tiers.push(...substance.tiers);
  }
  const { rows } = await db.query<Row>(
    `WITH ${ctes.join(',\n     ')},
     hits AS (${tiers.map((t) => `SELECT * FROM ${t}`).join(' UNION ALL ')}),
     ${finalSelect(params, lim, codesIn)}`,
    params.values,
    { prepare: true },
  );
  return rows;
}

/**
 * The name search statement. With `later`, all three tiers, case-insensitive and each in
 * name order: names starting with q, then (three characters or more) names containing it,
 * then products containing a substance whose name matches, folded to every salt of its
 * moiety, so a substance finds every brand. The first tier is a range scan of the name
 * index that stops at the limit; the substring tier (trigram index) runs only when the
 * first found fewer than `limit` rows, the substance tier only when both together did.
 * Without `later`, the first tier alone, through the same final select.
 */
function nameStatement(q: string, country: string | null, atc: string | null, limit: number, later: boolean, codesIn?: string[]): { text: string; values: unknown[] } {
  const lowered = q.toLowerCase();
  const text = escapeLike(lowered);
  const params = new Params();
  // The first tier alone takes its values as sub-selects, as the code search does: the
  // planner sees none of them, so the custom plans cost what the generic one does (the same
  // index range scan) and the generic one is kept. The full statement needs them seen.
  const value = (v: unknown, type: string) => (later ? params.add(v) : `(SELECT ${params.add(v)}::${type})`);
  // "Starts with" as a range of the name key: exactly the same rows in byte order, an index
  // range scan even in a generic plan of this prepared statement, and in the full one
  // estimated from the histogram (a LIKE beside it would be counted twice and tempt the
  // planner into a sort).
  const from = value(lowered, 'text');
  const to = value(prefixEnd(lowered), 'text');
  const lim = value(limit, 'int');
  const filters = `p.searchable${filterSql(params, country, atc)}`;
  const ctes = [`starts AS MATERIALIZED (
       SELECT p.id, 0 AS rank, ${NAME_KEY} AS k FROM products p
        WHERE ${NAME_KEY} >= ${from} AND ${NAME_KEY} < ${to} AND ${filters}
        ORDER BY ${NAME_KEY}, p.id LIMIT ${lim})`];
  const tiers = ['starts'];
  if (later) {
    const prefix = params.add(`${text}%`);
    const pattern = params.add(q.length >= 3 ? `%${text}%` : `${text}%`);
    const substance = substanceTiers({ rank: '2', filters: `${filters} AND lower(p.product_name) NOT LIKE ${pattern}`, limit: lim, walk: atc === null });
    ctes.push(`contains AS MATERIALIZED (
       SELECT p.id, 1 AS rank, ${NAME_KEY} AS k FROM products p
        WHERE (SELECT count(*) FROM starts) < ${lim} AND ${pattern}::text <> ${prefix}::text
          AND lower(p.product_name) LIKE ${pattern} AND ${NAME_KEY} NOT LIKE ${prefix} AND ${filters}
        ORDER BY ${NAME_KEY}, p.id LIMIT ${lim})`,
    `subst AS MATERIALIZED (
       SELECT coalesce(array_agg(DISTINCT m.unii), '{}') AS uniis FROM substances s JOIN substances m ON m.moiety_unii = s.moiety_unii
        WHERE (SELECT count(*) FROM starts) + (SELECT count(*) FROM contains) < ${lim} AND lower(s.name) LIKE ${pattern})`,
    substance.ctes);
    tiers.push('contains', ...substance.tiers);
  }
  return {
    text: `WITH ${ctes.join(',\n     ')},
     hits AS (${tiers.map((t) => `SELECT * FROM ${t}`).join(' UNION ALL ')}),
     ${finalSelect(params, lim, codesIn)}`,
    values: params.values,
  };
}

/**
 * Names starting with q first, alone: when they fill the page, they are the page (rank 0
 * sorts first), and that statement's generic plan, an index range scan, is safe for any
 * q, so PostgreSQL keeps it instead of planning each request. The full statement's plan
 * depends on the substring's values (trigram index for a rare one, name order for a common
 * one), so on a large catalogue it is planned per request; it runs only when the page is
 * not full, at the cost of one more round trip. After a code search came up empty
 * (`startsFirst` false) the full statement runs alone, so no search costs more than three.
 */
async function searchByName(db: Queryable, q: string, country: string | null, atc: string | null, limit: number, startsFirst: boolean, codesIn?: string[]): Promise<Row[]> {
  const run = async (later: boolean): Promise<Row[]> => {
    const { text, values } = nameStatement(q, country, atc, limit, later, codesIn);
    return (await db.query<Row>(text, values, { prepare: true })).rows;
  };
  const starts = startsFirst ? await run(false) : [];
  return starts.length >= limit ? starts : run(true);
}

/**
 * Runs the search: codes first (narrowed only by an explicit country), then names. The
 * rows' ingredients go to `primer` (the request's ingredients loader), so `substance_name`
 * costs no further round trip; with `codesIn` the rows' codes in those systems come along too.
 */
export async function searchDrugs(db: Queryable, args: SearchArgs, primer?: IngredientsPrimer): Promise<SearchResult> {
  const q = args.q.trim();
  if (q === '') throw validationError('Invalid request: query q must not be blank.', [{ location: 'query', field: 'q', message: 'must not be blank' }]);
  const explicit = args.country === 'ALL' ? null : args.country;
  const atc = args.atc ? `${escapeLike(args.atc.trim().toUpperCase())}%` : null;
  const candidates = detectCodes(q);
  if (candidates.length) {
    const rows = await searchByCode(db, candidates, explicit, atc, args.limit, args.codesIn);
    if (rows.length) return toResult(args.q, args.country, rows, (r) => labelOf(candidates[r.rank]!), primer);
  }
  const country = args.country === null ? DEFAULT_SEARCH_COUNTRY : explicit;
  const rows = await searchByName(db, q, country, atc, args.limit, !candidates.length, args.codesIn);
  return toResult(args.q, args.country ?? DEFAULT_SEARCH_COUNTRY, rows, (r) => (r.rank === 2 ? 'substance_name' : 'product_name'), primer);
}
