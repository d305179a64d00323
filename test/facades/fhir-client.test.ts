/**
 * The FHIR terminology service through a FHIR client library (fhir-kit-client) against the
 * listening server, with the API key in the Authorization header: every operation in its
 * GET form (query string) and its POST form (a Parameters resource), each answer checked by
 * the FHIR R4 validator (test/helpers/fhir-validator.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import type { FhirResource } from 'fhir-kit-client';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { fhirProblems } from '../helpers/fhir-validator.ts';
import { CODES, seedCatalogue } from '../catalogue/fixtures.ts';

const ATC = 'http://www.whocc.no/atc';
const GTIN = 'https://www.gs1.org/gtin';
const PZN = 'http://fhir.de/CodeSystem/ifa/pzn';
const MARKETED_PZN = 'urn:drugref:valueset:marketed:DE:PZN';

type Param = { name: string; valueString?: string; valueBoolean?: boolean; valueCode?: string; valueCoding?: { system: string; code: string }; part?: Param[] };
type Resource = FhirResource & { resourceType: string; parameter?: Param[]; [key: string]: unknown };
type Input = Record<string, string | number>;

const first = (r: Resource, name: string) => r.parameter?.find((p) => p.name === name);
const value = (r: Resource, name: string) => { const p = first(r, name); return p?.valueString ?? p?.valueBoolean ?? p?.valueCode; };

/** The POST form of a GET input: each parameter in the value[x] its FHIR type names. */
function parametersOf(input: Input, types: Record<string, string> = {}): FhirResource {
  return {
    resourceType: 'Parameters',
    parameter: Object.entries(input).map(([name, v]) => ({ name, [types[name] ?? (typeof v === 'number' ? 'valueInteger' : 'valueString')]: v })),
  };
}

describe('FHIR terminology service through fhir-kit-client', () => {
  let t: TestApp;
  let client: Client;

  /** The operation in its GET form and its POST form; both answers valid FHIR R4 and equal but for an expansion's own id and time. */
  async function both(resourceType: string, name: string, input: Input, types: Record<string, string> = {}): Promise<Resource> {
    const got = (await client.operation({ resourceType, name, method: 'GET', input })) as Resource;
    const posted = (await client.operation({ resourceType, name, method: 'POST', input: parametersOf(input, types) })) as Resource;
    expect(fhirProblems(got)).toEqual([]);
    expect(fhirProblems(posted)).toEqual([]);
    // An expansion's identifier and timestamp are its own.
    const stable = (r: Resource) => JSON.parse(JSON.stringify(r).replace(/urn:uuid:[0-9a-f-]+/g, 'urn:uuid:*').replace(/"timestamp":"[^"]+"/g, '"timestamp":"*"')) as unknown;
    expect(stable(posted)).toEqual(stable(got));
    return got;
  }

  /** The OperationOutcome and status a refused operation answers (the client throws it). */
  async function refused(call: Promise<unknown>): Promise<{ status: number; issue: string }> {
    const error = await call.then(() => null, (e: { response?: { status: number; data: Resource } }) => e);
    expect(error?.response).toBeDefined();
    const outcome = error!.response!.data;
    expect(fhirProblems(outcome)).toEqual([]);
    return { status: error!.response!.status, issue: (outcome.issue as Array<{ code: string }>)[0]!.code };
  }

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    const key = await t.key({ tier: 'enterprise' });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    client = new Client({ baseUrl: `${base}/fhir`, customHeaders: { Authorization: `Bearer ${key}` } });
  });
  afterAll(() => t.close());

  it('reads the CapabilityStatement and, with mode=terminology, the TerminologyCapabilities', async () => {
    const capability = (await client.capabilityStatement()) as Resource;
    expect(fhirProblems(capability)).toEqual([]);
    expect(capability).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance' });
    const operations = (capability.rest as Array<{ resource: Array<{ type: string; operation: Array<{ name: string }> }> }>)[0]!.resource
      .flatMap((r) => r.operation.map((o) => `${r.type}/$${o.name}`));
    expect(operations).toEqual(expect.arrayContaining(['CodeSystem/$lookup', 'CodeSystem/$validate-code', 'ValueSet/$validate-code', 'ValueSet/$expand', 'ConceptMap/$translate']));
    const terminology = (await client.request('metadata?mode=terminology')) as Resource;
    expect(fhirProblems(terminology)).toEqual([]);
    expect(terminology.resourceType).toBe('TerminologyCapabilities');
    expect((terminology.codeSystem as Array<{ uri: string }>).map((s) => s.uri)).toEqual(expect.arrayContaining([ATC, GTIN, PZN]));
  });

  it('runs CodeSystem/$lookup by GET and POST', async () => {
    const atc = await both('CodeSystem', '$lookup', { system: ATC, code: 'M01AE' }, { system: 'valueUri', code: 'valueCode' });
    expect(value(atc, 'display')).toBe('Propionic acid derivatives');
    const pack = await both('CodeSystem', 'lookup', { system: PZN, code: CODES.ibuflamPzn }, { system: 'valueUri', code: 'valueCode' });
    expect(value(pack, 'display')).toBe('IBUFLAM 400 mg Filmtabletten, 20 St');
  });

  it('runs CodeSystem/$validate-code by GET and POST', async () => {
    const ok = await both('CodeSystem', '$validate-code', { url: GTIN, code: CODES.brufenGtin }, { url: 'valueUri', code: 'valueCode' });
    expect(value(ok, 'result')).toBe(true);
    const bad = await both('CodeSystem', '$validate-code', { url: GTIN, code: '7680528140030' }, { url: 'valueUri', code: 'valueCode' });
    expect(value(bad, 'result')).toBe(false);
    expect(value(bad, 'message')).toBeTruthy();
  });

  it('runs ValueSet/$validate-code by GET and POST', async () => {
    const member = await both('ValueSet', '$validate-code', { url: MARKETED_PZN, system: PZN, code: CODES.ibuflamPzn }, { url: 'valueUri', system: 'valueUri', code: 'valueCode' });
    expect(value(member, 'result')).toBe(true);
    const foreign = await both('ValueSet', '$validate-code', { url: 'urn:drugref:valueset:marketed:DE:GTIN', system: GTIN, code: CODES.brufenGtin }, { url: 'valueUri', system: 'valueUri', code: 'valueCode' });
    expect(value(foreign, 'result')).toBe(false);
  });

  it('runs ConceptMap/$translate by GET and POST', async () => {
    const translated = await both('ConceptMap', '$translate', { system: GTIN, code: CODES.brufenGtin, targetsystem: ATC }, { system: 'valueUri', code: 'valueCode', targetsystem: 'valueUri' });
    expect(value(translated, 'result')).toBe(true);
    const concepts = translated.parameter!.filter((p) => p.name === 'match').map((m) => m.part?.find((x) => x.name === 'concept')?.valueCoding);
    expect(concepts).toEqual([{ system: ATC, code: 'M01AE01' }]);
  });

  it('runs ValueSet/$expand by GET and POST', async () => {
    const expanded = await both('ValueSet', '$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu', count: 5 }, { url: 'valueUri' });
    const contains = (expanded.expansion as { contains: Array<{ system: string; code: string }> }).contains;
    expect(contains.map((c) => c.system)).toEqual(contains.map(() => PZN));
    expect(contains.map((c) => c.code)).toContain(CODES.ibuflamPzn);
  });

  it('answers a version it does not hold, and a call without a key, with an OperationOutcome the client receives as the error', async () => {
    const input = { system: PZN, code: CODES.ibuflamPzn, version: '2001-01-01' };
    expect(await refused(client.operation({ resourceType: 'CodeSystem', name: '$lookup', method: 'GET', input }))).toEqual({ status: 404, issue: 'not-found' });
    expect(await refused(client.operation({ resourceType: 'CodeSystem', name: '$validate-code', input: parametersOf(input) }))).toEqual({ status: 422, issue: 'code-invalid' });
    // A client without a key reads the capabilities (keyless) and is refused an operation.
    const anonymous = new Client({ baseUrl: client.baseUrl });
    expect(((await anonymous.capabilityStatement()) as Resource).resourceType).toBe('CapabilityStatement');
    expect(await refused(anonymous.operation({ resourceType: 'CodeSystem', name: '$lookup', method: 'GET', input: { system: PZN, code: CODES.ibuflamPzn } }))).toEqual({ status: 401, issue: 'login' });
  });
});
