/**
 * The FHIR R4 terminology service through a real HTTP client against the listening server:
 * every answer is checked by a FHIR R4 validator (test/helpers/fhir-validator.ts),
 * and the values against the seeded registers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { fhirProblems } from '../helpers/fhir-validator.ts';
import { CODES, IDS, seedCatalogue } from '../catalogue/fixtures.ts';
import { completePzn } from '../../vocabulary/check-digits.ts';

const ATC = 'http://www.whocc.no/atc';
const GTIN = 'https://www.gs1.org/gtin';
const PZN = 'http://fhir.de/CodeSystem/ifa/pzn';
const NDC = 'http://hl7.org/fhir/sid/ndc';
const UNII = 'http://fdasis.nlm.nih.gov';
const SWISSMEDIC = 'urn:drugref:identifier:swissmedic_no';

type Param = { name: string; valueString?: string; valueBoolean?: boolean; valueCode?: string; valueCoding?: { system: string; code: string }; part?: Param[] };
type Resource = { resourceType: string; parameter?: Param[]; [key: string]: unknown };

const values = (r: Resource, name: string) => (r.parameter ?? []).filter((p) => p.name === name);
const value = (r: Resource, name: string) => { const p = values(r, name)[0]; return p?.valueString ?? p?.valueBoolean ?? p?.valueCode; };
const part = (p: Param, name: string) => p.part?.find((x) => x.name === name);
const properties = (r: Resource) => values(r, 'property').map((p) => [part(p, 'code')?.valueCode, part(p, 'value')?.valueCode ?? part(p, 'value')?.valueString]);

describe('FHIR terminology service (/fhir)', () => {
  let t: TestApp;
  let key: string;
  let base: string;

  async function call(path: string, init: { method?: string; body?: unknown; auth?: boolean } = {}): Promise<{ status: number; type: string; body: Resource }> {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.auth === false ? {} : { authorization: `Bearer ${key}` }), accept: 'application/fhir+json',
        ...(init.body ? { 'content-type': 'application/fhir+json' } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    const body = (await res.json()) as Resource;
    expect(fhirProblems(body)).toEqual([]);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body };
  }
  const get = (op: string, query: Record<string, string>) => call(`/fhir/${op}?${new URLSearchParams(query)}`);

  beforeAll(async () => {
    t = await startTestApp();
    await seedCatalogue(t.db);
    key = await t.key({ tier: 'enterprise' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('answers metadata with a CapabilityStatement, and with mode=terminology each code system and its version (the last sync)', async () => {
    const cap = await call('/fhir/metadata');
    expect(cap.status).toBe(200);
    expect(cap.type).toMatch(/^application\/fhir\+json/);
    expect(cap.body.resourceType).toBe('CapabilityStatement');
    const terminology = await call('/fhir/metadata?mode=terminology');
    expect(terminology.body.resourceType).toBe('TerminologyCapabilities');
    const systems = terminology.body.codeSystem as Array<{ uri: string; version: Array<{ code?: string; language: string[] }> }>;
    const atc = systems.find((s) => s.uri === ATC)!;
    const synced = (await t.db.query<{ at: Date }>(`SELECT last_synced_at AS at FROM sources WHERE id = 'who-atc'`)).rows[0]!.at;
    expect(atc.version[0]!.code).toBe(synced.toISOString());
    expect(systems.find((s) => s.uri === PZN)!.version[0]!.language).toEqual(['de']);
    // Italy's register has never synced in the fixture: its system carries no version.
    expect(systems.find((s) => s.uri === 'urn:drugref:identifier:aic')!.version[0]!.code).toBeUndefined();
  });

  it('serves metadata and the TerminologyCapabilities without a key and counts them against no quota, limited per address', async () => {
    const free = await t.key({ tier: 'developer' });
    // Twelve reads, over the Free plan's daily cap of 10, keyless and with the key alike.
    for (let i = 0; i < 6; i++) {
      for (const [path, auth] of [['/fhir/metadata', false], ['/fhir/metadata?mode=terminology', true]] as const) {
        const res = await fetch(`${base}${path}`, auth ? { headers: { authorization: `Bearer ${free}` } } : {});
        expect([res.status, res.headers.get('content-type'), res.headers.get('x-ratelimit-remaining'), res.headers.get('x-service-tier')])
          .toEqual([200, 'application/fhir+json; charset=utf-8', null, null]);
        const body = (await res.json()) as Resource;
        expect(fhirProblems(body)).toEqual([]);
        expect(body.resourceType).toBe(path.includes('terminology') ? 'TerminologyCapabilities' : 'CapabilityStatement');
      }
    }
    // The key's first counted request still finds its whole daily cap.
    const counted = await fetch(`${base}/fhir/CodeSystem/$lookup?${new URLSearchParams({ system: ATC, code: 'M01AE' })}`, { headers: { authorization: `Bearer ${free}` } });
    expect([counted.status, counted.headers.get('x-ratelimit-remaining')]).toEqual([200, '9']);
    const cap = (await call('/fhir/metadata', { auth: false })).body as unknown as { rest: Array<{ security: { description: string } }> };
    expect(cap.rest[0]!.security.description).toMatch(/metadata needs no key/);
    // Keyless reads are limited per client address, answered as an OperationOutcome.
    const from = (address: string) => t.app.inject({ url: '/fhir/metadata', remoteAddress: address });
    for (let i = 0; i < t.config.publicRateLimitPerMinute; i++) expect((await from('203.0.113.9')).statusCode).toBe(200);
    const limited = await from('203.0.113.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'throttled', details: { coding: [{ code: 'rate_limited' }] } }] });
    expect((await from('203.0.113.10')).statusCode).toBe(200);
  });

  it('looks up an ATC code with its parent, children and DDD as properties', async () => {
    const { status, body } = await get('CodeSystem/$lookup', { system: ATC, code: 'm01ae' });
    expect(status).toBe(200);
    expect(value(body, 'display')).toBe('Propionic acid derivatives');
    expect(properties(body)).toEqual(expect.arrayContaining([['parent', 'M01A'], ['child', 'M01AE01'], ['child', 'M01AE02'], ['status', 'active']]));
    const leaf = await get('CodeSystem/$lookup', { system: ATC, code: 'M01AE01' });
    expect(properties(leaf.body)).toContainEqual(['ddd', '1.2 g O']);
  });

  it('looks up a pack code (GET and POST with Parameters): display, status, country and the register language', async () => {
    const { body } = await get('CodeSystem/$lookup', { system: PZN, code: `PZN-${CODES.ibuflamPzn}` });
    expect(value(body, 'display')).toBe('IBUFLAM 400 mg Filmtabletten, 20 St');
    expect(value(body, 'name')).toBe('PZN');
    expect(properties(body)).toEqual(expect.arrayContaining([['status', 'active'], ['country', 'DE'], ['atc', 'M01AE01'], ['drugref-id', IDS.ibuflamDe]]));
    expect(part(values(body, 'designation')[0]!, 'language')?.valueCode).toBe('de');
    const posted = await call('/fhir/CodeSystem/$lookup', {
      method: 'POST', body: { resourceType: 'Parameters', parameter: [{ name: 'coding', valueCoding: { system: NDC, code: CODES.advilNdcPrinted } }] },
    });
    expect(posted.status).toBe(200);
    expect(value(posted.body, 'display')).toBe('Advil, 24 TABLET, COATED in 1 BOTTLE');
    // Clients that percent-encode the operation's `$` reach the same operation.
    const encoded = await call(`/fhir/CodeSystem/%24lookup?${new URLSearchParams({ system: PZN, code: CODES.ibuflamPzn })}`);
    expect(encoded.status).toBe(200);
  });

  it('looks up a UNII with its designations in several languages, and displayLanguage picks one', async () => {
    const { body } = await get('CodeSystem/$lookup', { system: UNII, code: 'WK2XYI10QM', displayLanguage: 'fr' });
    expect(value(body, 'display')).toBe('ibuprofène');
    expect(values(body, 'designation').map((d) => part(d, 'language')?.valueCode)).toEqual(expect.arrayContaining(['de', 'fr']));
  });

  it('answers an unknown code with 404 and an unknown system with 422, both as OperationOutcome with the error table\'s code', async () => {
    const missing = await get('CodeSystem/$lookup', { system: ATC, code: 'Z99' });
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^application\/fhir\+json/);
    expect(missing.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found', details: { coding: [{ code: 'not_found' }] } }] });
    const system = await get('CodeSystem/$lookup', { system: 'http://snomed.info/sct', code: '1' });
    expect(system.status).toBe(422);
    expect((system.body.issue as Array<{ code: string }>)[0]!.code).toBe('invalid');
    const anonymous = await call(`/fhir/CodeSystem/$lookup?${new URLSearchParams({ system: ATC, code: 'M01AE' })}`, { auth: false });
    expect(anonymous.status).toBe(401);
    expect((anonymous.body.issue as Array<{ code: string }>)[0]!.code).toBe('login');
  });

  it('accepts the current version of a system and refuses any other: 404 not-found for $lookup, $translate and $expand, 422 code-invalid for $validate-code', async () => {
    const terminology = await call('/fhir/metadata?mode=terminology');
    const systems = terminology.body.codeSystem as Array<{ uri: string; version: Array<{ code?: string }> }>;
    const current = systems.find((s) => s.uri === PZN)!.version[0]!.code!;
    const lookup = await get('CodeSystem/$lookup', { system: PZN, code: CODES.ibuflamPzn, version: current });
    expect(lookup.status).toBe(200);
    expect(value(lookup.body, 'version')).toBe(current);
    const piped = await get('CodeSystem/$lookup', { system: `${PZN}|${current}`, code: CODES.ibuflamPzn });
    expect(piped.status).toBe(200);
    const old = '2001-01-01T00:00:00.000Z';
    const notFound = (r: { status: number; body: Resource }) => [r.status, (r.body.issue as Array<{ code: string }> | undefined)?.[0]?.code];
    expect(notFound(await get('CodeSystem/$lookup', { system: PZN, code: CODES.ibuflamPzn, version: old }))).toEqual([404, 'not-found']);
    expect(notFound(await get('CodeSystem/$lookup', { system: `${PZN}|${old}`, code: CODES.ibuflamPzn }))).toEqual([404, 'not-found']);
    expect(notFound(await get('ConceptMap/$translate', { system: PZN, code: CODES.ibuflamPzn, version: old }))).toEqual([404, 'not-found']);
    expect(notFound(await get('ValueSet/$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu', version: old }))).toEqual([404, 'not-found']);
    expect(notFound(await get('ValueSet/$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu', valueSetVersion: current }))).toEqual([200, undefined]);
    expect(notFound(await get('CodeSystem/$validate-code', { system: PZN, code: CODES.ibuflamPzn, version: old }))).toEqual([422, 'code-invalid']);
    expect(notFound(await get('ValueSet/$validate-code', { url: `${PZN}?fhir_vs`, system: PZN, code: CODES.ibuflamPzn, systemVersion: old }))).toEqual([422, 'code-invalid']);
    // A value set is versioned with its code system: another version of it is not held, the current one answers.
    expect(notFound(await get('ValueSet/$validate-code', { url: `${PZN}?fhir_vs|${old}`, system: PZN, code: CODES.ibuflamPzn }))).toEqual([404, 'not-found']);
    expect(notFound(await get('ValueSet/$validate-code', { url: `${PZN}?fhir_vs|${current}`, system: PZN, code: CODES.ibuflamPzn }))).toEqual([200, undefined]);
    expect((await get('ValueSet/$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu' })).body.version).toBe(current);
    const posted = await call('/fhir/CodeSystem/$validate-code', { method: 'POST', body: { resourceType: 'Parameters', parameter: [
      { name: 'coding', valueCoding: { system: PZN, code: CODES.ibuflamPzn, version: current } }] } });
    expect(value(posted.body, 'result')).toBe(true);
    // Italy's register has never synced: no version of its systems is held.
    expect(notFound(await get('CodeSystem/$lookup', { system: 'urn:drugref:identifier:aic', code: '012345678', version: old }))).toEqual([404, 'not-found']);
  });

  it('validates codes: result and display, a withdrawn code valid in its system with a message, no member of the marketed set', async () => {
    const ok = await get('CodeSystem/$validate-code', { url: GTIN, code: CODES.brufenGtin });
    expect(value(ok.body, 'result')).toBe(true);
    expect(value(ok.body, 'display')).toBe('Brufen 400 mg Filmtabletten, 20 Filmtabletten');
    const withdrawn = await get('CodeSystem/$validate-code', { system: SWISSMEDIC, code: '55001' });
    expect(value(withdrawn.body, 'result')).toBe(true);
    expect(value(withdrawn.body, 'message')).toMatch(/withdrawn/);
    const marketed = await get('ValueSet/$validate-code', { url: 'urn:drugref:valueset:marketed:CH:swissmedic_no', system: SWISSMEDIC, code: '55001' });
    expect(value(marketed.body, 'result')).toBe(false);
    expect(value(marketed.body, 'message')).toMatch(/withdrawn/);
    const badCheck = await get('CodeSystem/$validate-code', { system: GTIN, code: '7680528140030' });
    expect(value(badCheck.body, 'result')).toBe(false);
    const wrongCountry = await get('ValueSet/$validate-code', { url: 'urn:drugref:valueset:marketed:DE:GTIN', system: GTIN, code: CODES.brufenGtin });
    expect(value(wrongCountry.body, 'message')).toMatch(/code of CH, not of DE/);
    const posted = await call('/fhir/ValueSet/$validate-code', { method: 'POST', body: { resourceType: 'Parameters', parameter: [
      { name: 'url', valueUri: 'urn:drugref:valueset:atc:M01AE:PZN' }, { name: 'coding', valueCoding: { system: PZN, code: CODES.ibuflamPzn } }] } });
    expect(value(posted.body, 'result')).toBe(true);
  });

  it('translates a pack code to ATC, UNII, and the same medicine in another country with equivalence and basis', async () => {
    const { body } = await get('ConceptMap/$translate', { system: GTIN, code: CODES.brufenGtin });
    expect(value(body, 'result')).toBe(true);
    const matches = values(body, 'match').map((m) => ({
      equivalence: part(m, 'equivalence')?.valueCode, system: part(m, 'concept')?.valueCoding?.system, code: part(m, 'concept')?.valueCoding?.code,
      basis: part(part(m, 'property')!, 'value')?.valueCode,
    }));
    expect(matches).toContainEqual({ equivalence: 'wider', system: ATC, code: 'M01AE01', basis: 'register-atc' });
    expect(matches).toContainEqual({ equivalence: 'relatedto', system: UNII, code: 'WK2XYI10QM', basis: 'active-ingredient' });
    expect(matches).toContainEqual({ equivalence: 'equivalent', system: PZN, code: CODES.ibuflamPzn, basis: 'same-medicine' });
    const onlyPzn = await get('ConceptMap/$translate', { system: GTIN, code: CODES.brufenGtin, targetsystem: PZN });
    expect(values(onlyPzn.body, 'match').every((m) => part(m, 'concept')?.valueCoding?.system === PZN)).toBe(true);
  });

  it('expands a value set by a filter through the typeahead, with count and offset', async () => {
    const { status, body } = await get('ValueSet/$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu', count: '1' });
    expect(status).toBe(200);
    const expansion = body.expansion as { contains: Array<{ system: string; code: string; display: string }> };
    expect(expansion.contains).toHaveLength(1);
    expect(expansion.contains[0]!.system).toBe(PZN);
    const next = await get('ValueSet/$expand', { url: `${PZN}?fhir_vs`, filter: 'ibu', count: '1', offset: '1' });
    const second = (next.body.expansion as { contains: Array<{ code: string }> }).contains[0]!.code;
    // The two German ibuprofen products, one per page.
    expect([expansion.contains[0]!.code, second].sort()).toEqual([CODES.ibuflamPzn, completePzn('1234567')].sort());
    const noFilter = await get('ValueSet/$expand', { url: `${PZN}?fhir_vs` });
    const unii = await get('ValueSet/$expand', { url: `${UNII}?fhir_vs`, filter: 'ibu' });
    expect([unii.status, (unii.body.issue as Array<{ diagnostics: string }>)[0]!.diagnostics]).toEqual([422, 'Invalid request: UNII is not expanded; look its codes up with CodeSystem/$lookup.']);
    expect(noFilter.status).toBe(422);
    const noCode = await call('/fhir/CodeSystem/$lookup', { method: 'POST', body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: PZN }] } });
    expect(noCode.status).toBe(422);
    expect((noCode.body.issue as Array<{ expression?: string[] }>)[0]!.expression).toEqual(['code']);
  });

  it('expands the ATC value set: names by words, a code as a class prefix, with count, offset and the total', async () => {
    type Expansion = { total?: number; offset: number; contains?: Array<{ system: string; code: string; display: string; designation: unknown[] }> };
    const expand = async (query: Record<string, string>) => {
      const res = await get('ValueSet/$expand', { url: `${ATC}?fhir_vs`, ...query });
      expect([res.status, res.type]).toEqual([200, 'application/fhir+json; charset=utf-8']);
      return { body: res.body, expansion: res.body.expansion as Expansion };
    };
    const ibu = await expand({ filter: 'ibu' });
    expect(ibu.body).toMatchObject({ resourceType: 'ValueSet', url: `${ATC}?fhir_vs`, status: 'active' });
    const synced = (await t.db.query<{ at: Date }>(`SELECT last_synced_at AS at FROM sources WHERE id = 'who-atc'`)).rows[0]!.at;
    expect(ibu.body.version).toBe(synced.toISOString());
    expect(ibu.expansion.total).toBe(1);
    expect(ibu.expansion.contains).toEqual([{ system: ATC, code: 'M01AE01', display: 'ibuprofen', designation: [{ language: 'en', value: 'ibuprofen' }] }]);
    // Every word must appear; names starting with the first word come before names containing it.
    const words = await expand({ filter: 'Antirheumatic products' });
    expect(words.expansion.contains!.map((c) => c.code)).toEqual(['M01', 'M01A']);
    const inside = await expand({ filter: 'acid deriv' });
    expect(inside.expansion.contains!.map((c) => [c.code, c.display])).toEqual([['M01AE', 'Propionic acid derivatives']]);
    // A code is a class prefix: the class and its subtree in code order, paged.
    const byCode = await expand({ filter: 'm01ae', count: '1', offset: '1' });
    expect([byCode.expansion.total, byCode.expansion.offset, byCode.expansion.contains!.map((c) => c.code)]).toEqual([3, 1, ['M01AE01']]);
    const past = await expand({ filter: 'M01AE', offset: '3' });
    expect([past.expansion.total, past.expansion.contains]).toEqual([3, undefined]);
    const none = await expand({ filter: 'zzz' });
    expect([none.expansion.total, none.expansion.contains]).toEqual([0, undefined]);
    const posted = await call('/fhir/ValueSet/$expand', { method: 'POST', body: { resourceType: 'Parameters', parameter: [
      { name: 'url', valueUri: `${ATC}?fhir_vs` }, { name: 'filter', valueString: 'paracetamol' }, { name: 'count', valueInteger: 5 }] } });
    expect((posted.body.expansion as Expansion).contains!.map((c) => c.code)).toEqual(['N02BE01']);
    const tooMany = await get('ValueSet/$expand', { url: `${ATC}?fhir_vs`, filter: 'ibu', count: '101' });
    expect(tooMany.status).toBe(422);
  });
});
