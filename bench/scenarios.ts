/**
 * What the benchmark measures: each scenario is one HTTP request shape sent repeatedly by
 * the load generator. Every scenario is compared with the same-SQL baseline (the statements
 * its route ran, replayed by a bare Fastify handler); the public GraphQL nested query, the
 * lookup and the drug record are also compared with PostGraphile serving the same tables. `{drugId}` and `{gtin}` are
 * filled with a Swiss demo product and one of its packs (present in both catalogues).
 */
import { RECORD_BY_GTIN, RECORD_BY_ID, sameRecord } from './record-peer.ts';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Show the query plans of its catalogue statements (EXPLAIN ANALYZE) in the report. */
  explain?: boolean;
  /** The same data from PostGraphile: its request body (POST /graphql; `{drugId}` and `{gtin}` are filled in too). */
  postgraphile?: unknown;
  /** Throws unless both answers hold the same data (checked before the load); without it, their volumes are printed. */
  sameAnswer?: (drugref: any, postgraphile: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * The one-statement floor: a bare handler (no auth, quota, GraphQL) that runs this one
   * statement and sends the text it returns (column `body`). What any server must at least
   * pay for the answer; drugref's route is compared with it as well as with its baseline.
   */
  floor?: { sql: string; params: unknown[] };
}

/** The ATC node's JSON (node, DDDs, children) in one statement. */
const ATC_NODE_FLOOR = `SELECT json_build_object(
  'code', a.code, 'name', a.name, 'level', a.level, 'parent_code', a.parent_code,
  'ddd', (SELECT coalesce(json_agg(json_build_object('value', d.value, 'unit', d.unit, 'route', d.route, 'note', d.note)), '[]') FROM atc_ddd d WHERE d.code = a.code),
  'children', (SELECT coalesce(json_agg(json_build_object('code', c.code, 'name', c.name, 'level', c.level) ORDER BY c.code), '[]') FROM atc_nodes c WHERE c.parent_code = a.code)
)::text AS body FROM atc_nodes a WHERE a.code = $1`;

/** Fields of the nested query: 50 drugs with ingredients (substance name, moiety), ATC chain and packs with prices. */
const NESTED_DRUGREF = `{ drugs(q: "C09AA05", country: "ALL", limit: 50) { results {
  id productName country atcCode
  ingredients { unii name moietyUnii strengthValue strengthUnit }
  atcChain { code name level }
  packs { id description units unit prices { kind amount currency validFrom } } } } }`;

/** The same in PostGraphile's schema shape (smart-tag relations, bench/postgraphile.ts). */
const ATC = (depth: number): string => (depth === 0 ? 'code name level' : `code name level atcNodeByParentCode { ${ATC(depth - 1)} }`);
const NESTED_POSTGRAPHILE = `{ allProducts(first: 50, condition: { atcCode: "C09AA05", searchable: true }, orderBy: [PRODUCT_NAME_ASC, PRIMARY_KEY_ASC]) { nodes {
  id productName country atcCode
  productIngredientsByProductId(orderBy: POSITION_ASC) { nodes { unii strengthValue strengthUnit substanceByUnii { name moietyUnii } } }
  atcNodeByAtcCode { ${ATC(4)} }
  packsByProductId(orderBy: PRIMARY_KEY_ASC) { nodes { id description units unit packPricesByPackId { nodes { kind amount currency validFrom } } } } } } }`;

export const SCENARIOS: Scenario[] = [
  { name: 'ATC node', method: 'GET', path: '/v1/atc/N02BE01', floor: { sql: ATC_NODE_FLOOR, params: ['N02BE01'] } },
  { name: 'typeahead by name (ibu)', method: 'GET', path: '/v1/drugs?q=ibu&country=ALL&limit=20', explain: true },
  { name: 'typeahead by name (ibuprofen, CH)', method: 'GET', path: '/v1/drugs?q=ibuprofen&country=CH&limit=20', explain: true },
  { name: 'typeahead by code (ATC C09AA05)', method: 'GET', path: '/v1/drugs?q=C09AA05&country=ALL&limit=20', explain: true },
  { name: 'typeahead by code (GTIN)', method: 'GET', path: '/v1/drugs?q={gtin}&country=ALL&limit=20', explain: true },
  { name: 'lookup by GTIN', method: 'GET', path: '/v1/drugs/lookup?system=gtin&code={gtin}', postgraphile: RECORD_BY_GTIN, sameAnswer: sameRecord },
  { name: 'drug record', method: 'GET', path: '/v1/drugs/{drugId}', postgraphile: RECORD_BY_ID, sameAnswer: sameRecord },
  { name: 'change feed page', method: 'GET', path: '/v1/changes?limit=100' },
  {
    name: 'public GraphQL: atc',
    method: 'POST',
    path: '/v1/graphql',
    body: { query: '{ atc(code: "N02BE01") { code name level ddd { value unit route } } }' },
  },
  {
    name: 'public GraphQL: 50 drugs nested',
    method: 'POST',
    path: '/v1/graphql',
    body: { query: NESTED_DRUGREF },
    postgraphile: { query: NESTED_POSTGRAPHILE },
  },
  {
    name: 'MCP tools/call',
    method: 'POST',
    path: '/v1/mcp',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_atc_class', arguments: { code: 'N02BE01' } } },
  },
];
