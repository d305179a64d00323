/**
 * A test app for the CDS Hooks service: a fresh database with the demo ATC tree, the Swiss
 * and US demo registers (GTINs, pharmacodes, NDCs) and the demo interaction set; RxNav
 * pointed at a local fake upstream replaying recorded payloads. Also a small CDS client
 * that speaks the protocol: discovery, then FHIR R4 requests built from real demo codes.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildDemoSnapshots, DEMO_ATC_SOURCE_ID, demoSourceId } from '../../data/demo/build.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { loadDemoInteractions } from '../../workers/ingest/interactions.ts';
import { UpstreamClient } from '../../platform/upstream/client.ts';
import type { Config } from '../../platform/config.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { fakeUpstreamConfig } from '../enrichment/helpers.ts';
import '../../resolvers/enrichment/upstream.ts';

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const GTIN = 'urn:oid:1.3.160';
export const NDC = 'http://hl7.org/fhir/sid/ndc';
export const ATC = 'http://www.whocc.no/atc';

export interface CdsTestApp extends TestApp {
  fake: FakeUpstream;
}

export async function startCdsApp(config: Partial<Config> = {}): Promise<CdsTestApp> {
  const fake = await new FakeUpstream().start();
  fake.on({ path: '/rxnav/REST/rxcui/617312/related.json', query: { tty: 'IN BN SCD SBD' }, fixture: 'rxnav/related-617312.json' });
  const db = await openTestDatabase();
  const wanted = [DEMO_ATC_SOURCE_ID, demoSourceId('CH'), demoSourceId('US')];
  await ingestSnapshots(db, buildDemoSnapshots().filter((s) => wanted.includes(s.source.id)));
  await loadDemoInteractions(db);
  const upstreamConfig = fakeUpstreamConfig(fake);
  const upstream = new UpstreamClient({ config: upstreamConfig, db, now: () => new Date(), log: { fatal: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, trace: () => undefined } as never });
  const t = await startTestApp({
    db,
    services: { upstream } as never,
    // A configured signing key: no key row is written on first use, so "nothing stored" is measurable.
    config: { upstream: upstreamConfig, receiptSigningKey: generateKeyPairSync('ed25519').privateKey, ...config },
  });
  return Object.assign(t, {
    fake,
    async close() {
      await t.app.close();
      await upstream.close();
      await fake.close();
      await db.close();
    },
  });
}

interface DemoProduct { country: string; product_name: string; atc_code: string; marketing_status: string; packs: Array<{ identifiers: Array<{ system: string; code: string }> }> }

/** The first marketed demo product of `country` with this ATC code, and one pack code of `system`. */
export function demoPackCode(country: Parameters<typeof demoSourceId>[0], atc: string, system: string): { name: string; code: string } {
  const snapshot = buildDemoSnapshots().find((s) => s.source.id === demoSourceId(country))!;
  const product = (snapshot as unknown as { products: DemoProduct[] }).products
    .find((p) => p.atc_code === atc && p.marketing_status === 'active' && p.packs.some((k) => k.identifiers.some((i) => i.system === system)))!;
  const code = product.packs.flatMap((k) => k.identifiers).find((i) => i.system === system)!.code;
  return { name: product.product_name, code };
}

/** The RxCUI the demo catalogue gives a substance (an RxNorm ingredient, tty IN). */
export function demoRxcui(name: string): string {
  const substances = JSON.parse(readFileSync(new URL('../../data/demo/curated/substances.json', import.meta.url), 'utf8')) as Array<{ name: string; rxcui?: string }>;
  return substances.find((s) => s.name === name)!.rxcui!;
}

type Json = Record<string, unknown>;

/** A FHIR R4 MedicationRequest coded with `codings` (or pointing at a Medication). */
export function medicationRequest(id: string, status: string, medication: { codings?: Array<{ system: string; code: string; display?: string }>; reference?: string }, extra: Json = {}): Json {
  return {
    resourceType: 'MedicationRequest', id, status, intent: 'order',
    ...(medication.codings ? { medicationCodeableConcept: { coding: medication.codings } } : {}),
    ...(medication.reference ? { medicationReference: { reference: medication.reference } } : {}),
    subject: { reference: 'Patient/example-1' },
    dosageInstruction: [{ text: '1 tablet daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }],
    ...extra,
  };
}

export function bundle(resources: Json[], type = 'collection'): Json {
  return { resourceType: 'Bundle', type, entry: resources.map((resource) => ({ resource })) };
}

/** The CDS client side of the protocol: discovery, then calls built from its templates. */
export class CdsClient {
  services: Array<{ id: string; hook: string; prefetch: Record<string, string> }> = [];
  constructor(private readonly t: TestApp, private readonly bearerKey: string) {}

  async discover(): Promise<void> {
    const res = await this.t.app.inject({ method: 'GET', url: '/cds-services' });
    if (res.statusCode !== 200) throw new Error(`discovery answered ${res.statusCode}`);
    this.services = res.json<{ services: CdsClient['services'] }>().services;
  }

  /** A request for `hook`: the client fills each prefetch key the service asked for. */
  request(hook: string, context: Json, prefetched: Record<string, Json | null>): { serviceId: string; body: Json } {
    const service = this.services.find((s) => s.hook === hook)!;
    const prefetch = Object.fromEntries(Object.keys(service.prefetch).filter((k) => k in prefetched).map((k) => [k, prefetched[k]!]));
    return {
      serviceId: service.id,
      body: { hook, hookInstance: crypto.randomUUID(), fhirServer: 'https://ehr.example.org/fhir', context: { userId: 'Practitioner/dr-1', patientId: 'example-1', ...context }, prefetch },
    };
  }

  call(serviceId: string, body: Json | string) {
    return this.t.app.inject({
      method: 'POST', url: `/cds-services/${serviceId}`,
      headers: { authorization: `Bearer ${this.bearerKey}`, 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
}
