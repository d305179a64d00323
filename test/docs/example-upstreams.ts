/**
 * The services the documented examples reach beyond drugref, as local fakes answering
 * recorded payloads (test/fixtures/upstreams/): the enrichment sources, DrugBank for the
 * BYOL passthrough and a Stripe-style checkout for answer packs. Their own tests hold the
 * details; here they only let every example of the pages run without the internet.
 */
import type { Config } from '../../platform/config.ts';
import { FakeUpstream } from '../fakes/upstream-server.ts';
import { startFakeProvider, vaultConfig } from '../byol/helpers.ts';
import { startFake } from '../chat/helpers.ts';
import { fakeUpstreamConfig } from '../enrichment/helpers.ts';

const RX = '/rxnav/REST/rxcui/617312';
const OT = '/opentargets/graphql';

function enrichmentRoutes(fake: FakeUpstream): void {
  fake.on(
    { path: `${RX}/properties.json`, fixture: 'rxnav/properties-617312.json' },
    { path: `${RX}/related.json`, query: { tty: 'IN BN SCD SBD' }, fixture: 'rxnav/related-617312.json' },
    { path: '/rxnav/REST/rxclass/class/byRxcui.json', query: { rxcui: '617312', relaSource: 'ATC' }, fixture: 'rxnav/rxclass-atc-617312.json' },
    { path: `${RX}/ndcs.json`, fixture: 'rxnav/ndcs-617312.json' },
    { path: '/rxnav/REST/rxcui.json', query: { name: 'lipitor', search: '2' }, fixture: 'rxnav/rxcui-exact-lipitor.json' },
    { path: '/rxnav/REST/rxcui/153165/properties.json', fixture: 'rxnav/properties-153165.json' },
    { path: '/chembl/molecule/CHEMBL1487.json', fixture: 'chembl/molecule-CHEMBL1487.json' },
    { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"atorvastatin"', '"entity":"drug"'], fixture: 'opentargets/search-drug-atorvastatin.json' },
    { method: 'POST', path: OT, bodyIncludes: ['query Drug', '"id":"CHEMBL1487"'], fixture: 'opentargets/drug-CHEMBL1487.json' },
    { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"hmgcr"', '"entity":"target"'], fixture: 'opentargets/search-target-hmgcr.json' },
    { method: 'POST', path: OT, bodyIncludes: ['query Search', '"q":"coronary artery disease"', '"entity":"disease"'], fixture: 'opentargets/search-disease-cad.json' },
    { method: 'POST', path: OT, bodyIncludes: ['query Genetics', '"target":"ENSG00000113161"', '"disease":"EFO_0001645"'], fixture: 'opentargets/evidence-hmgcr-cad.json' },
    { path: '/cpic/drug', query: { name: 'eq.atorvastatin' }, fixture: 'cpic/drug-atorvastatin.json' },
    { path: '/cpic/pair_view', query: { drugid: 'eq.RxNorm:83367', removed: 'eq.false' }, fixture: 'cpic/pairs-atorvastatin.json' },
  );
}

export interface ExampleUpstreams {
  /** The app configuration pointing every upstream at its fake. */
  config: Partial<Config>;
  close(): Promise<void>;
}

export async function startExampleUpstreams(): Promise<ExampleUpstreams> {
  const enrichment = await new FakeUpstream().start();
  enrichmentRoutes(enrichment);
  const drugbank = await startFakeProvider((req) => {
    if (req.url.startsWith('/api/v1/drug_names')) return { status: 200, body: { products: [{ drugbank_id: 'DB00316', name: 'Acetaminophen' }] } };
    if (req.url === '/api/v1/drugs/DB00316') return { status: 200, body: { drugbank_id: 'DB00316', name: 'Acetaminophen' } };
    return { status: 404, body: { error: 'not found' } };
  });
  const checkout = await startFake(() => ({ status: 200, body: { id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.example/c/pay/cs_test_1' } }));
  const upstream = fakeUpstreamConfig(enrichment);
  return {
    config: {
      upstream,
      ...vaultConfig(),
      byolBaseUrls: { drugbank: drugbank.url },
      paymentBaseUrl: checkout.url,
      paymentSecretKey: 'sk_test_examples',
      paymentWebhookSecret: 'whsec_examples',
    },
    async close() {
      await Promise.all([enrichment.close(), drugbank.close(), checkout.close()]);
    },
  };
}
