/**
 * The PostGraphile peer of the record path: the same drug record (product fields and register
 * facts, ingredients with substance names, ATC chain, product and pack identifiers, packs with
 * prices, the register it came from) in one nested query over the same tables, by id and by a
 * pack's GTIN. Before the load, `sameRecord` checks that both servers answered the same record
 * (the run stops if they differ), so the ratio compares equal work.
 */

const ATC = (depth: number): string => (depth === 0 ? 'code name level' : `code name level atcNodeByParentCode { ${ATC(depth - 1)} }`);

/** The record's fields in PostGraphile's schema (smart-tag relations, bench/postgraphile.ts). */
const RECORD = `id productName brand generic country atcCode doseForm route holder marketingStatus authorisedOn record
  sourceBySource { id name country lastSyncedAt }
  productIngredientsByProductId(orderBy: POSITION_ASC) { nodes { unii strengthValue strengthUnit substanceByUnii { name moietyUnii } } }
  atcNodeByAtcCode { ${ATC(4)} }
  identifiersByDrugId(condition: { packId: null }) { nodes { system code validFrom validTo previous } }
  packsByProductId(orderBy: PRIMARY_KEY_ASC) { nodes { id description units unit marketingStatus sl
    identifiersByPackId { nodes { system code validFrom validTo previous } }
    packPricesByPackId { nodes { kind amount currency validFrom } } } }`;

/** The drug record by id (`{drugId}` is filled in by the run). */
export const RECORD_BY_ID = { query: `query ($id: UUID!) { productById(id: $id) { ${RECORD} } }`, variables: { id: '{drugId}' } };

/** The record holding a pack's GTIN (`{gtin}` is filled in by the run). */
export const RECORD_BY_GTIN = {
  query: `query ($code: String!) { allIdentifiers(condition: { system: "gtin", code: $code }, first: 1) { nodes { packId productByDrugId { ${RECORD} } } } }`,
  variables: { code: '{gtin}' },
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const codes = (list: Json[]): string[] => list.map((i) => `${i.system}|${i.code}`).sort();

/** What both answers must agree on, in one shape. */
interface Canonical {
  id: string;
  name: string;
  country: string;
  atc: string | null;
  source: string;
  ingredients: string[];
  chain: string[];
  identifiers: string[];
  packs: string[];
  matchedPack?: string | null;
}

function packText(id: string, description: string, units: unknown, identifiers: string[], prices: Json[]): string {
  const priced = prices.map((p) => `${p.kind}=${num(p.amount)} ${p.currency}`).sort();
  return JSON.stringify([id, description, num(units), identifiers, priced]);
}

function fromDrugref(body: Json): Canonical {
  return {
    id: body.id, name: body.product_name, country: body.country, atc: body.atc_code, source: body._meta.sources[0].id,
    ingredients: body.ingredients.map((i: Json) => `${i.unii} ${i.name} ${num(i.strength_value)} ${i.strength_unit}`),
    chain: body.atc_chain.map((n: Json) => `${n.code} ${n.name}`),
    identifiers: codes(body.identifiers.filter((i: Json) => i.pack_id === null)),
    packs: body.packs.map((p: Json) => packText(p.id, p.description, p.units, codes(p.identifiers), p.prices)).sort(),
    ...('matched_pack' in body ? { matchedPack: body.matched_pack?.id ?? null } : {}),
  };
}

function chainOf(node: Json | null): string[] {
  const out: string[] = [];
  for (let n = node; n; n = n.atcNodeByParentCode) out.unshift(`${n.code} ${n.name}`);
  return out;
}

function fromPostGraphile(p: Json, matchedPack?: string | null): Canonical {
  return {
    id: p.id, name: p.productName, country: p.country, atc: p.atcCode, source: p.sourceBySource.id,
    ingredients: p.productIngredientsByProductId.nodes.map((i: Json) => `${i.unii} ${i.substanceByUnii?.name ?? null} ${num(i.strengthValue)} ${i.strengthUnit}`),
    chain: chainOf(p.atcNodeByAtcCode),
    identifiers: codes(p.identifiersByDrugId.nodes),
    packs: p.packsByProductId.nodes.map((k: Json) => packText(k.id, k.description, k.units, codes(k.identifiersByPackId.nodes), k.packPricesByPackId.nodes)).sort(),
    ...(matchedPack !== undefined ? { matchedPack } : {}),
  };
}

/** Throws unless drugref's REST record and PostGraphile's nested answer describe the same record. */
export function sameRecord(drugref: Json, postgraphile: Json): void {
  const data = postgraphile.data as Json;
  const hit = data.allIdentifiers?.nodes[0];
  const peer = hit ? fromPostGraphile(hit.productByDrugId, hit.packId) : fromPostGraphile(data.productById);
  const ours = fromDrugref(drugref);
  if (JSON.stringify(ours) !== JSON.stringify(peer)) {
    throw new Error(`PostGraphile and drugref answer different records:\n${JSON.stringify(ours)}\n${JSON.stringify(peer)}`);
  }
}
