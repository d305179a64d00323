/**
 * The calls bench/prism-run.ts sends through Prism: one valid request per operation of the
 * OpenAPI document, then the documented refusals (401, 403, 404, 422, 429). Values come
 * from the demo catalogue (`npm start` on an empty DATA_DIR), read from the server first.
 */
export interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** The Accept header, when the call asks for a media type other than JSON. */
  accept?: string;
  /** undefined: the main key; null: no key; a string: that key. */
  key?: string | null;
  /** The refusal this call means to earn; sent through the proxy that lets bad requests pass. */
  refusal?: number;
}

/** Values of the demo catalogue the valid calls use. */
export interface Sample {
  drugId: string;
  unii: string;
  classCode: string;
}

const ORDER = {
  hook: 'order-sign', hookInstance: '5f2a3c0e-8f6b-4c1e-9d59-0d3f2c1b7a10',
  context: {
    userId: 'Practitioner/1', patientId: 'p-1',
    draftOrders: { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'MedicationRequest', id: 'd1', status: 'draft', intent: 'order', medicationCodeableConcept: { coding: [{ system: 'http://www.whocc.no/atc', code: 'C10AA01' }] } } }] },
  },
};
const ATC = 'http://www.whocc.no/atc';
const parameters = (...parameter: Array<Record<string, unknown>>) => ({ resourceType: 'Parameters', parameter });

function catalogueCalls(s: Sample): Call[] {
  return [
    { method: 'GET', path: '/v1/atc/N02BE01' }, { method: 'GET', path: '/v1/atc/N02BE01?include=supply' },
    { method: 'GET', path: '/v1/therapies/C10AA01' }, { method: 'GET', path: '/v1/atc/N02B/children' },
    { method: 'GET', path: '/v1/atc/N02BE01/drugs' }, { method: 'GET', path: '/v1/classes?system=epc&q=vitamin&sort=drugs' },
    { method: 'GET', path: `/v1/classes/epc/${s.classCode}` }, { method: 'GET', path: `/v1/classes/epc/${s.classCode}/drugs` },
    { method: 'GET', path: '/v1/changes?limit=2' }, { method: 'GET', path: '/v1/changes/export?since=2020-01-01T00:00:00Z' },
    { method: 'GET', path: '/v1/catalogue/export?country=CH' },
    { method: 'GET', path: '/v1/drugs?q=ibuprofen&country=ALL&limit=5' }, { method: 'GET', path: `/v1/drugs/${s.drugId}` },
    { method: 'GET', path: `/v1/drugs/${s.drugId}?format=fhir`, accept: 'application/fhir+json' }, { method: 'GET', path: `/v1/drugs/${s.drugId}?as_of=2025-01-01` },
    { method: 'GET', path: `/v1/drugs/${s.drugId}/equivalents?per_country=2` }, { method: 'GET', path: `/v1/drugs/${s.drugId}/monograph` },
    { method: 'GET', path: `/v1/drugs/${s.drugId}/profile` }, { method: 'GET', path: `/v1/drugs/${s.drugId}/supply` },
    { method: 'GET', path: '/v1/drugs/lookup?system=pzn&code=19581324' }, { method: 'GET', path: '/v1/packs/pzn/19581324' },
    { method: 'GET', path: `/v1/substances/${s.unii}` }, { method: 'GET', path: '/v1/substances/xref?name=ibuprofen' },
    { method: 'POST', path: '/v1/interactions/check', body: { drugs: ['warfarin', 'ibuprofen', 'clarithromycin'] } },
    { method: 'POST', path: '/v1/prescriptions/validate', body: { proposed: ['ibuprofen'] } },
    { method: 'GET', path: '/v1/markets/overview?q=simvastatin&countries=CH,DE,GB,US' },
    { method: 'GET', path: '/v1/markets/overview?q=simvastatin&countries=CH&detail=packs' },
    { method: 'POST', path: '/v1/ch/claims/validate', body: { pack: '7680590160211' } },
    { method: 'POST', path: '/v1/ch/price-comparison', body: { pack: '7680590160211' } },
    { method: 'GET', path: '/v1/usage' },
  ];
}

function integrationCalls(): Call[] {
  return [
    { method: 'GET', path: '/v1/webhooks' }, { method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example/drugref' } },
    { method: 'DELETE', path: '/v1/webhooks?id=00000000-0000-4000-8000-000000000000' },
    { method: 'GET', path: '/v1/byol/fdb' }, { method: 'PUT', path: '/v1/byol/fdb', body: { credentials: { api_key: 'x' } } },
    { method: 'POST', path: '/v1/byol/fdb' }, { method: 'GET', path: '/v1/byol/fdb/query' },
    { method: 'POST', path: '/v1/byol/fdb/query' }, { method: 'DELETE', path: '/v1/byol/fdb' },
    { method: 'POST', path: '/v1/chat', body: { message: 'What is ibuprofen?' } },
    { method: 'POST', path: '/v1/chat/packs', body: { pack: 'answers_100' } }, { method: 'POST', path: '/v1/chat/packs/callback', body: {} },
    { method: 'POST', path: '/v1/chat/subscribe' },
    { method: 'GET', path: '/v1/rxnorm/resolve?name=ibuprofen' }, { method: 'GET', path: '/v1/rxnorm/5640' },
    { method: 'GET', path: '/v1/molecule-enrichment?name=ibuprofen' }, { method: 'GET', path: '/v1/us-approvals?name=ibuprofen' },
    { method: 'GET', path: '/v1/pharmacology-targets?name=ibuprofen' }, { method: 'GET', path: '/v1/us-ndc-class?name=ibuprofen' },
    { method: 'GET', path: '/v1/pgx?name=warfarin' }, { method: 'GET', path: '/v1/targets?name=ibuprofen' },
    { method: 'GET', path: '/v1/targets/genetics?gene=PTGS2&disease=pain' }, { method: 'GET', path: '/v1/targets/structure?symbol=PTGS2' },
    { method: 'GET', path: '/v1/guidelines?q=hypertension' }, { method: 'GET', path: '/v1/hta?q=ibuprofen' },
    { method: 'GET', path: '/v1/signatures' }, { method: 'POST', path: '/v1/signatures', body: {} },
    { method: 'GET', path: '/v1/assessment?drug=ibuprofen&indication=pain' },
  ];
}

function protocolCalls(): Call[] {
  return [
    { method: 'GET', path: '/cds-services', key: null }, { method: 'POST', path: '/cds-services/drugref-order-sign', body: ORDER },
    { method: 'GET', path: '/fhir/metadata' },
    { method: 'GET', path: `/fhir/CodeSystem/$lookup?system=${ATC}&code=N02BE01` },
    { method: 'POST', path: '/fhir/CodeSystem/$lookup', body: parameters({ name: 'system', valueUri: ATC }, { name: 'code', valueCode: 'N02BE01' }) },
    { method: 'GET', path: `/fhir/CodeSystem/$validate-code?url=${ATC}&code=N02BE01` },
    { method: 'POST', path: '/fhir/CodeSystem/$validate-code', body: parameters({ name: 'url', valueUri: ATC }, { name: 'code', valueCode: 'N02BE01' }) },
    { method: 'GET', path: `/fhir/ValueSet/$validate-code?url=${ATC}?fhir_vs&system=${ATC}&code=N02BE01` },
    { method: 'POST', path: '/fhir/ValueSet/$validate-code', body: parameters({ name: 'url', valueUri: `${ATC}?fhir_vs` }, { name: 'system', valueUri: ATC }, { name: 'code', valueCode: 'N02BE01' }) },
    { method: 'GET', path: `/fhir/ConceptMap/$translate?system=${ATC}&code=N02BE01` },
    { method: 'POST', path: '/fhir/ConceptMap/$translate', body: parameters({ name: 'system', valueUri: ATC }, { name: 'code', valueCode: 'N02BE01' }) },
    { method: 'GET', path: `/fhir/ValueSet/$expand?url=${ATC}?fhir_vs&count=5` },
    { method: 'POST', path: '/fhir/ValueSet/$expand', body: parameters({ name: 'url', valueUri: `${ATC}?fhir_vs` }, { name: 'count', valueInteger: 5 }) },
    { method: 'POST', path: '/v1/graphql', body: { query: '{ atc(code: "N02BE01") { code name } }' } },
    { method: 'GET', path: '/v1/graphql?query=%7B%20atc(code%3A%20%22N02BE01%22)%20%7B%20code%20%7D%20%7D' },
    { method: 'POST', path: '/v1/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    { method: 'GET', path: '/.well-known/jwks.json', key: null }, { method: 'GET', path: '/v1/openapi.json', key: null },
  ];
}

/** The documented refusals; `narrowKey` is a developer-tier key (no interactions:write, which prescription screening needs). */
export function refusalCalls(narrowKey: string): Call[] {
  return [
    { method: 'GET', path: '/v1/usage', key: null, refusal: 401 },
    { method: 'GET', path: '/v1/atc/N02BE01', key: 'svc_live_wrong', refusal: 401 },
    { method: 'POST', path: '/v1/prescriptions/validate', body: { proposed: ['ibuprofen'] }, key: narrowKey, refusal: 403 },
    { method: 'GET', path: '/v1/atc/Z99ZZ99', refusal: 404 },
    { method: 'GET', path: '/v1/drugs/00000000-0000-4000-8000-000000000000', refusal: 404 },
    { method: 'GET', path: '/v1/drugs', refusal: 422 },
    { method: 'GET', path: '/v1/drugs?q=ibuprofen&limit=100000', refusal: 422 },
    { method: 'POST', path: '/v1/interactions/check', body: { drugs: 'warfarin' }, refusal: 422 },
  ];
}

export function validCalls(s: Sample): Call[] {
  return [...catalogueCalls(s), ...integrationCalls(), ...protocolCalls()];
}
