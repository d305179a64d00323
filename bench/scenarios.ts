/**
 * What the benchmark measures: each scenario is one HTTP request shape sent repeatedly
 * over loopback. `baseline` is a bare Fastify route answering a body of similar size, so
 * every other number reads as a ratio against what Fastify alone costs on this machine.
 */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sent with the demo key unless false. */
  auth?: boolean;
}

export const SCENARIOS: Scenario[] = [
  { name: 'ATC node (REST pipeline)', method: 'GET', path: '/v1/atc/N02BE01' },
  { name: 'typeahead by name', method: 'GET', path: '/v1/drugs?q=ibupro&country=ALL&limit=20' },
  { name: 'typeahead by code (GTIN/ATC)', method: 'GET', path: '/v1/drugs?q=C09AA05&country=ALL&limit=20' },
  { name: 'drug record', method: 'GET', path: '/v1/drugs/{drugId}' },
  { name: 'change feed page', method: 'GET', path: '/v1/changes?limit=100' },
  {
    name: 'public GraphQL query',
    method: 'POST',
    path: '/v1/graphql',
    body: { query: '{ atc(code: "N02BE01") { code name level ddd { value unit route } } }' },
  },
  {
    name: 'MCP tools/call',
    method: 'POST',
    path: '/v1/mcp',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_atc_class', arguments: { code: 'N02BE01' } } },
  },
];
