/** Route-table entries of the ATC tree. */
import type { RouteDef } from './types.ts';

const ATC_CODE = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[A-Za-z]([0-9]{2}([A-Za-z]([A-Za-z]([0-9]{2})?)?)?)?$', description: 'ATC code of any level, e.g. N02BE01 or N02.' } },
  additionalProperties: false,
} as const;

const SOURCES = 'meta { sources { id name country lastSyncedAt schemaState demo } notice }';
const ATC_NODE = `code name level ancestors { code name level } ddd { value unit route note } ${SOURCES}`;

const atcNode = (operationId: string, path: string, summary: string): RouteDef => ({
  operationId,
  method: 'GET',
  path,
  scope: 'atc:read',
  summary,
  tags: ['atc'],
  params: ATC_CODE,
  query: { type: 'object', additionalProperties: false, properties: {} },
  document: `query ($code: String!) { atc(code: $code) { ${ATC_NODE} } }`,
  notFound: 'ATC code',
  cacheable: true,
  statuses: [200, 304, 401, 403, 404, 422],
  mcp: operationId === 'getAtcNode'
    ? { name: 'get_atc_class', description: 'Look up a WHO ATC classification code (any level, e.g. "N02BE01" or "C09"): its label, level, parent chain and WHO defined daily doses (DDD).' }
    : false,
});

export const classificationRoutes: RouteDef[] = [
  atcNode('getAtcNode', '/v1/atc/{code}', 'ATC node with its parent chain, label and DDD.'),
  atcNode('getTherapy', '/v1/therapies/{code}', 'Alias of /v1/atc/{code}, same answer.'),
];
