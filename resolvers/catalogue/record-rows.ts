/**
 * The drug record in one statement: the product row with its ingredients, identifiers,
 * packs (with their identifiers and prices), facts, national rows for the EU link,
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
import { PRODUCT_COLUMNS, toDrug } from './drug-rows.ts';
import type { DrugRow, ProductRecord } from './drug-rows.ts';
import { RECORD_SQL, toIngredients, toPack, toPrices } from './loaders.ts';
import type { ClassRefRow, IdentifierRow, IngredientRow, PackQueryRow, PackRow, PriceRow } from './loaders.ts';
import { FACT_KEYS, factsById, factsSql } from './facts.ts';
import type { FactRow, ProductFacts } from './facts.ts';
import { nationalSql, primeNationalRows } from './central-authorisation.ts';
import type { NationalRow } from './central-authorisation.ts';

/** Everything the record's fields read, for one requested id. */
export interface DrugRecordRows {
  drug: DrugRow;
  ingredients: IngredientRow[];
  identifiers: IdentifierRow[];
  packs: PackRow[];
  packIdentifiers: Map<string, IdentifierRow[]>;
  prices: Map<string, PriceRow[]>;
  facts: ProductFacts;
  national: NationalRow[];
  monographLanguages: string[];
  classes: ClassRefRow[];
  /** ATC nodes by code: the product's code and its ancestors (null where the tree lacks one). */
  atc: Map<string, NodeRow | null>;
}

interface RecordQueryRow extends ProductRecord {
  requested: string;
  ingredients: Array<IngredientRow & { productId: string }> | null;
  identifiers: Array<IdentifierRow & { drugId: string }> | null;
  packs: PackQueryRow[] | null;
  pack_identifiers: IdentifierRow[] | null;
  prices: Array<PriceRow & { packId: string }> | null;
  facts: FactRow[] | null;
  national: NationalRow[] | null;
  monograph_languages: Array<{ lang: string }> | null;
  classes: Array<ClassRefRow & { productId: string }> | null;
  atc: NodeRow[] | null;
}

/** A loader statement's rows as one JSON array (null when none), in the statement's order. */
const rowsOf = (sql: string) => `(SELECT json_agg(agg_row) FROM (${sql}) agg_row)`;

/** The representative (`rq.rep`) and its representative pack ids (`rq.packs`); `p` is the representative. */
const ONE = 'ARRAY[rq.rep]';

const RECORD_STATEMENT = `SELECT rq.requested, ${PRODUCT_COLUMNS},
    ${rowsOf(RECORD_SQL.ingredients(ONE))} AS ingredients,
    ${rowsOf(RECORD_SQL.identifiers(ONE))} AS identifiers,
    ${rowsOf(RECORD_SQL.packs(ONE))} AS packs,
    ${rowsOf(RECORD_SQL.packIdentifiers('rq.packs'))} AS pack_identifiers,
    ${rowsOf(RECORD_SQL.prices('rq.packs'))} AS prices,
    ${rowsOf(factsSql(ONE, '$2::text[]'))} AS facts,
    ${rowsOf(nationalSql(ONE))} AS national,
    ${rowsOf(RECORD_SQL.monographLanguages(ONE))} AS monograph_languages,
    ${rowsOf(RECORD_SQL.productClasses(ONE))} AS classes,
    ${rowsOf(`SELECT ${NODE_COLUMNS} FROM atc_nodes n
       WHERE n.code = ANY(ARRAY[left(p.atc_code, 1), left(p.atc_code, 3), left(p.atc_code, 4), left(p.atc_code, 5), p.atc_code])`)} AS atc
  FROM (SELECT m.id AS requested, coalesce(m.merged_into, m.id) AS rep,
               ARRAY(SELECT coalesce(own.merged_into, own.id) FROM products q JOIN packs own ON own.product_id = q.id
                      WHERE q.id = coalesce(m.merged_into, m.id) OR q.merged_into = coalesce(m.merged_into, m.id)) AS packs
          FROM products m WHERE m.id = ANY($1::uuid[])) rq
  JOIN products p ON p.id = rq.rep`;

function byKey<R>(rows: readonly R[], keyOf: (row: R) => string): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const row of rows) map.set(keyOf(row), [...(map.get(keyOf(row)) ?? []), row]);
  return map;
}

function toRecord(row: RecordQueryRow): DrugRecordRows {
  const drug = toDrug(row);
  const atcRows = new Map((row.atc ?? []).map((n) => [n.code, n]));
  const atcCodes = drug.atcCode ? [drug.atcCode, ...atcAncestorCodes(drug.atcCode)] : [];
  return {
    drug,
    ingredients: toIngredients(row.ingredients ?? []),
    identifiers: (row.identifiers ?? []).map(({ drugId: _, ...rest }) => rest),
    packs: (row.packs ?? []).map(toPack),
    packIdentifiers: byKey(row.pack_identifiers ?? [], (r) => r.packId!),
    prices: new Map([...byKey(row.prices ?? [], (r) => r.packId)].map(([id, list]) => [id, toPrices(list)])),
    facts: factsById(row.facts ?? []).get(drug.id) ?? {},
    national: row.national ?? [],
    monographLanguages: (row.monograph_languages ?? []).map((r) => r.lang),
    classes: (row.classes ?? []).map(({ productId: _, ...rest }) => rest),
    atc: new Map(atcCodes.map((code) => [code, atcRows.get(code) ?? null])),
  };
}

/** Drug records by id in one statement, in key order, null for unknown ids (a merged row's id answers with its representative). */
export async function loadDrugRecords(db: Queryable, ids: readonly string[]): Promise<Array<DrugRecordRows | null>> {
  const { rows } = await db.query<RecordQueryRow>(RECORD_STATEMENT, [ids, FACT_KEYS]);
  const byId = new Map(rows.map((r) => [r.requested, toRecord(r)]));
  return ids.map((id) => byId.get(id) ?? null);
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
  }
  loaders.facts.prime(id, record.facts);
  primeNationalRows(loaders.centralAuthorisation, id, record.national);
  loaders.monographLanguages.prime(id, record.monographLanguages);
  loaders.productClasses.prime(id, record.classes);
  for (const [code, node] of record.atc) ctx.loaders.atcNode.prime(code, node ? toNode(node) : null);
}
