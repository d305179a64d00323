/**
 * The drug record in one statement: the product row with its ingredients, identifiers,
 * packs (with their identifiers, prices and supply), facts, national rows for the EU link,
 * monograph languages, classes and ATC chain as JSON aggregates. Each aggregate runs the
 * very statement of the loader it stands in for (`RECORD_SQL`, `factsSql`, `nationalSql`,
 * `NODE_COLUMNS`) over one product's ids, and `primeRecord` puts the results into the
 * request's loaders, so the nested field resolvers answer from the cache and a record costs
 * one round trip whatever its number of packs, identifiers, prices and sources.
 */
import type { Queryable } from '../../platform/db.ts';
import type { RequestContext } from '../context.ts';
import { NODE_COLUMNS, atcAncestorCodes, toNode } from '../classification/atc.ts';
import type { NodeRow } from '../classification/atc.ts';
import { PRODUCT_COLUMNS, isUuid, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';
import { RECORD_SQL, toIngredients, toPack, toPrices } from './loaders.ts';
import type { ClassRefRow, IdentifierRow, IngredientRow, PackQueryRow, PackRow, PriceRow } from './loaders.ts';
import { FACT_KEYS, factsById, factsSql } from './facts.ts';
import type { FactRow, ProductFacts } from './facts.ts';
import { nationalSql, primeNationalRows } from './central-authorisation.ts';
import type { NationalRow } from './central-authorisation.ts';
import { lookupSql, normaliseLookup, storedSystems } from './lookup.ts';
import { SUPPLY_SQL, toSupply } from './supply-rows.ts';
import type { PackSupply, PackSupplyRow, ProductSupplyRow } from './supply-rows.ts';

/** Everything the record's fields read, for one requested id. */
export interface DrugRecordRows {
  drug: DrugRow;
  /** The pack whose code a lookup matched (null by id, or for a product-level code). */
  matchedPackId: string | null;
  ingredients: IngredientRow[];
  identifiers: IdentifierRow[];
  packs: PackRow[];
  packIdentifiers: Map<string, IdentifierRow[]>;
  prices: Map<string, PriceRow[]>;
  /** Each reported pack's supply (worst report first); authorisation-level reports on the product. */
  packSupply: Map<string, PackSupply>;
  productSupply: PackSupply | null;
  facts: ProductFacts;
  national: NationalRow[];
  monographLanguages: string[];
  classes: ClassRefRow[];
  /** ATC nodes by code: the product's code and its ancestors (null where the tree lacks one). */
  atc: Map<string, NodeRow | null>;
}

interface RecordQueryRow extends ProductRecord {
  requested: string;
  pack_id: string | null;
  ingredients: Array<IngredientRow & { productId: string }> | null;
  identifiers: Array<IdentifierRow & { drugId: string }> | null;
  packs: PackQueryRow[] | null;
  pack_identifiers: IdentifierRow[] | null;
  prices: Array<PriceRow & { packId: string }> | null;
  pack_supply: PackSupplyRow[] | null;
  product_supply: ProductSupplyRow[] | null;
  facts: FactRow[] | null;
  national: NationalRow[] | null;
  monograph_languages: Array<{ lang: string }> | null;
  classes: Array<ClassRefRow & { productId: string }> | null;
  atc: NodeRow[] | null;
}

/**
 * A loader statement's rows as one JSON array (null when none), in the statement's order:
 * PostgreSQL feeds an aggregate over a sorted sub-select in that order. Numbers, dates as
 * text, arrays and jsonb come out as the driver would have parsed the loader's own rows.
 */
const rowsOf = (sql: string) => `(SELECT json_agg(agg_row) FROM (${sql}) agg_row)`;

/** The `atc_nodes` rows of an ATC code (an SQL expression) and of its ancestors. */
export const atcChainSql = (code: string) => `SELECT ${NODE_COLUMNS} FROM atc_nodes n
  WHERE n.code = ANY(ARRAY[left(${code}, 1), left(${code}, 3), left(${code}, 4), left(${code}, 5), ${code}])`;

/** The ATC nodes an `atcChainSql` read found, by code, for the code and each ancestor (null where the tree lacks one). */
export function atcChainNodes(code: string | null, rows: readonly NodeRow[] | null): Map<string, NodeRow | null> {
  const found = new Map((rows ?? []).map((n) => [n.code, n]));
  return new Map((code ? [code, ...atcAncestorCodes(code)] : []).map((c) => [c, found.get(c) ?? null]));
}

/** The representative (`rq.rep`) and its representative pack ids (`rq.packs`); `p` is the representative. */
const ONE = 'ARRAY[rq.rep]';

/**
 * The record statement over `requested`, a statement yielding `requested` (the id asked
 * for), `rep` (its representative product) and `pack_id` (the pack a code matched, else null).
 * Each record comes back as one JSON value (`record`): the driver then parses one column with
 * JSON.parse instead of fifty through their type parsers, a third of its cost per record
 * (its columns are JSON-shaped already: text dates, float8 numbers, text arrays).
 */
const recordStatement = (requested: string) => `SELECT row_to_json(r) AS record FROM (SELECT rq.requested, rq.pack_id, ${PRODUCT_COLUMNS},
    ${rowsOf(RECORD_SQL.ingredients(ONE))} AS ingredients,
    ${rowsOf(RECORD_SQL.identifiers(ONE))} AS identifiers,
    ${rowsOf(RECORD_SQL.packs(ONE))} AS packs,
    ${rowsOf(RECORD_SQL.packIdentifiers('rq.packs'))} AS pack_identifiers,
    ${rowsOf(RECORD_SQL.prices('rq.packs'))} AS prices,
    ${rowsOf(SUPPLY_SQL.packSupply('rq.packs'))} AS pack_supply,
    ${rowsOf(SUPPLY_SQL.productSupply(ONE))} AS product_supply,
    ${rowsOf(factsSql(ONE, '$2::text[]'))} AS facts,
    ${rowsOf(nationalSql(ONE))} AS national,
    ${rowsOf(RECORD_SQL.monographLanguages(ONE))} AS monograph_languages,
    ${rowsOf(RECORD_SQL.productClasses(ONE))} AS classes,
    ${rowsOf(atcChainSql('p.atc_code'))} AS atc
  FROM (SELECT w.requested, w.rep, w.pack_id,
               ARRAY(SELECT coalesce(own.merged_into, own.id) FROM products q JOIN packs own ON own.product_id = q.id
                      WHERE q.id = w.rep OR q.merged_into = w.rep) AS packs
          FROM (${requested}) w) rq
  JOIN products p ON p.id = rq.rep) r`;

/** By ids ($1, an array): a merged row's id answers with its representative. */
const BY_IDS = recordStatement(`SELECT m.id AS requested, coalesce(m.merged_into, m.id) AS rep, NULL::uuid AS pack_id
  FROM products m WHERE m.id = ANY($1::uuid[])`);

/**
 * By one id ($1): the same record. PostgreSQL plans an array-keyed statement anew on every
 * call (its generic plan, costed for an array of unknown length, never beats a custom plan
 * for one id), and planning this statement costs 2-11 ms against 1 ms to run it; keyed by a
 * single id, the generic plan costs what a custom one does and is kept after five calls.
 */
const BY_ONE_ID = recordStatement(`SELECT m.id AS requested, coalesce(m.merged_into, m.id) AS rep, NULL::uuid AS pack_id
  FROM products m WHERE m.id = $1::uuid`);

/** By code ($1 stored systems, $3 normalised code): the lookup's product and matched pack. */
const BY_CODE = recordStatement(`SELECT hit.product_id AS requested, hit.product_id AS rep, hit.pack_id
  FROM (${lookupSql('$1::text[]', '$3::text')}) hit`);

function byKey<R>(rows: readonly R[], keyOf: (row: R) => string): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const row of rows) map.set(keyOf(row), [...(map.get(keyOf(row)) ?? []), row]);
  return map;
}

function toRecord(row: RecordQueryRow): DrugRecordRows {
  const drug = toDrug(row);
  return {
    drug,
    matchedPackId: row.pack_id,
    ingredients: toIngredients(row.ingredients ?? []),
    identifiers: (row.identifiers ?? []).map(({ drugId: _, ...rest }) => rest),
    packs: (row.packs ?? []).map(toPack),
    packIdentifiers: byKey(row.pack_identifiers ?? [], (r) => r.packId!),
    prices: new Map([...byKey(row.prices ?? [], (r) => r.packId)].map(([id, list]) => [id, toPrices(list)])),
    packSupply: new Map((row.pack_supply ?? []).map((r) => [r.packId, toSupply(r)!])),
    productSupply: toSupply(row.product_supply?.[0]),
    facts: factsById(row.facts ?? []).get(drug.id) ?? {},
    national: row.national ?? [],
    monographLanguages: (row.monograph_languages ?? []).map((r) => r.lang),
    classes: (row.classes ?? []).map(({ productId: _, ...rest }) => rest),
    atc: atcChainNodes(drug.atcCode, row.atc),
  };
}

/** The record statements, exported so a test can check PostgreSQL keeps one plan for them (test/catalogue/record-plans.test.ts). */
export const RECORD_STATEMENTS = { byOneId: BY_ONE_ID, byIds: BY_IDS, byCode: BY_CODE };

/** Drug records by id in one statement, in key order, null for unknown ids (a merged row's id answers with its representative). */
export async function loadDrugRecords(db: Queryable, ids: readonly string[]): Promise<Array<DrugRecordRows | null>> {
  // Prepared: the text never changes, so PostgreSQL parses it once per connection.
  const { rows } = ids.length === 1
    ? await db.query<{ record: RecordQueryRow }>(BY_ONE_ID, [ids[0], FACT_KEYS], { prepare: true })
    : await db.query<{ record: RecordQueryRow }>(BY_IDS, [ids, FACT_KEYS], { prepare: true });
  const byId = new Map(rows.map(({ record }) => [record.requested, toRecord(record)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * The record a pack code belongs to (lookup.ts `drugByCode`: same preference, same matched
 * pack) in the same one statement; null when nothing matches. A malformed code is a 422.
 */
export async function loadDrugRecordByCode(db: Queryable, system: string, code: string): Promise<DrugRecordRows | null> {
  const normalised = normaliseLookup(system, code);
  const { rows } = await db.query<{ record: RecordQueryRow }>(BY_CODE, [storedSystems(system), FACT_KEYS, normalised], { prepare: true });
  const row = rows[0];
  return row ? toRecord(row.record) : null;
}

/** Fills the request's loaders with a record's rows (keys already loaded keep their value). */
export function primeRecord(ctx: RequestContext, record: DrugRecordRows): void {
  const loaders = ctx.loaders.catalogue;
  const id = record.drug.id;
  loaders.drug.prime(id, record.drug);
  loaders.ingredients.prime(id, record.ingredients);
  loaders.identifiers.prime(id, record.identifiers);
  loaders.packs.prime(id, record.packs);
  for (const pack of record.packs) {
    loaders.pack.prime(pack.id, pack);
    loaders.packIdentifiers.prime(pack.id, record.packIdentifiers.get(pack.id) ?? []);
    loaders.prices.prime(pack.id, record.prices.get(pack.id) ?? []);
    loaders.packSupply.prime(pack.id, record.packSupply.get(pack.id) ?? null);
  }
  loaders.productSupply.prime(id, record.productSupply);
  loaders.facts.prime(id, record.facts);
  primeNationalRows(loaders.centralAuthorisation, id, record.national);
  loaders.monographLanguages.prime(id, record.monographLanguages);
  loaders.productClasses.prime(id, record.classes);
  primeAtcNodes(ctx, record.atc);
}

/** Fills the request's ATC node loader (an ATC chain's nodes, null for codes the tree lacks). */
export function primeAtcNodes(ctx: RequestContext, nodes: ReadonlyMap<string, NodeRow | null>): void {
  for (const [code, node] of nodes) ctx.loaders.atcNode.prime(code, node ? toNode(node) : null);
}

/**
 * Loads a whole drug record in one statement and primes the request's loaders with it
 * (`primeRecord`), so the record's nested fields cost no further round trip.
 */
export async function loadRecord(ctx: RequestContext, id: string): Promise<DrugRow | null> {
  if (!isUuid(id)) return null;
  const record = await ctx.loaders.drugRecord.load(id.toLowerCase());
  if (!record) return null;
  primeRecord(ctx, record);
  return record.drug;
}

/** The drug a code resolves to, its record's rows primed like `loadRecord`'s. */
export async function recordByCode(ctx: RequestContext, system: string, code: string): Promise<DrugRow | null> {
  const record = await loadDrugRecordByCode(ctx.db, system, code);
  if (!record) return null;
  primeRecord(ctx, record);
  return Object.assign({}, record.drug, { matchedPackId: record.matchedPackId });
}
