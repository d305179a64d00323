/**
 * Supply end to end on one app: a test catalogue of sildenafil 50 mg tablets in AT, DE and FR,
 * the real BASG register excerpt ingested as the Austrian supply, then the same register with
 * the short pack back in supply. The drug record carries each pack's supply and the product's
 * worst status; GET /v1/drugs/{id}/supply sums up countries and offers only packs that are not
 * short; the pack's going short and coming back are two `changes.update` records of the feed,
 * delivered to a receiver on loopback.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { startReceiver, testDispatcher } from '../webhooks/receiver.ts';
import type { TestReceiver } from '../webhooks/receiver.ts';
import { mcpPost, rpc, toolText } from '../mcp/helpers.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { parseAndIngest } from '../../workers/ingest/apply.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';

const EXCERPT = readFileSync(new URL('../fixtures/registers/at-basg-supply/real/VertriebseinschraenkungenASP_20230923_excerpt.xml', import.meta.url));
/** The same register a day later: the 4-tablet pack (PZN 3920190) is supplied again. */
const RECOVERED = Buffer.from(EXCERPT.toString('utf8').replace(
  /(<Packung PZN="3920190"[^>]*Datum_letzte_Aenderung=")2023-09-15(" [^>]*>\n<Bezeichnung_Arzneispezialitaet>[^<]*<\/Bezeichnung_Arzneispezialitaet>\n<Status>)Nicht verfügbar/,
  '$12023-09-24$2verfügbar'));

const SILDENAFIL = { unii: '3M7OB98Y7H', strength_value: 50, strength_unit: 'mg' };
const product = (key: string, country: 'AT' | 'DE' | 'FR', name: string, packs: Array<[string, string | null]>): ProductEntry => ({
  key, country, product_name: name, dose_form: 'Filmtablette', route: 'oral', atc_code: 'G04BE03', ingredients: [SILDENAFIL],
  identifiers: [], packs: packs.map(([description, pzn]) => ({ key: `${key}-${description}`, description, identifiers: pzn ? [{ system: 'at_pzn', code: pzn }] : [] })),
});
const snapshot = (country: 'AT' | 'DE' | 'FR', products: ProductEntry[]): Snapshot => ({
  format: SNAPSHOT_FORMAT, source: { id: `test-${country.toLowerCase()}`, name: `Test register ${country}`, country, refresh_interval_hours: 24 },
  substances: [{ unii: '3M7OB98Y7H', name: 'Sildenafil' }], products,
});

interface Supply { status: string; reason: string | null; since: string | null; expected_until: string | null; source: string; fetched_at: string }
interface SupplyPack { drug: { id: string; product_name: string; country: string }; pack_id: string; description: string; country: string; supply: Supply | null }

describe('supply status of packs', () => {
  let t: TestApp;
  let key: string;
  let receiver: TestReceiver;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
    key = await t.key({ tier: 'starter' });
    await ingestSnapshot(t.db, snapshot('AT', [
      product('a', 'AT', 'Sildenafil 1A Pharma 50 mg - Tabletten', [['4 Stück', '3920190'], ['12 Stück', '3920209']]),
      product('b', 'AT', 'Sildenafil Genericon 50 mg Filmtabletten', [['12 Stück', '1303725']]),
      // Test data: this pack carries a PZN the excerpt reports unavailable (Verkazia's), so one alternative is itself short.
      product('c', 'AT', 'Sildenafil Sandoz 50 mg Filmtabletten', [['12 Stück', '4966739']]),
      // Test data: a product whose authorisation number the excerpt reports unavailable without PZN (Neurolite's), so its pack is short too.
      { ...product('e', 'AT', 'Sildenafil Stada 50 mg Filmtabletten', [['12 Stück', null]]), identifiers: [{ system: 'at_zulassungsnummer', code: '4-00002' }] },
    ]));
    await ingestSnapshot(t.db, snapshot('DE', [product('d', 'DE', 'Sildenafil AL 50 mg Filmtabletten', [['12 St', null]])]));
    await ingestSnapshot(t.db, snapshot('FR', [product('f', 'FR', 'Sildenafil Biogaran 50 mg', [['8 comprimés', null]])]));
    const { rows } = await t.db.query<{ id: string; key: string }>(`SELECT id, record->>'key' AS key FROM products`);
    for (const r of rows) ids[r.key] = r.id;
    receiver = await startReceiver();
    const sub = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${receiver.url}/hooks` } });
    expect(sub.statusCode).toBe(201);
    const ingested = await parseAndIngest(t.db, 'at-basg-supply', [{ name: 'VertriebseinschraenkungenASP.xml', content: EXCERPT }], { strict: true });
    expect(ingested).toMatchObject({ outcome: 'ok', rows: { read: 6, kept: 6, malformed: 0 }, supply: { insert: 6, update: 0, delete: 0 } });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('gives each reported pack of the drug record its supply and the product its worst status', async () => {
    const res = await t.app.inject({ url: `/v1/drugs/${ids.a}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const drug = res.json() as { supply_status: string; packs: Array<{ description: string; supply: Supply | null }> };
    expect(drug.supply_status).toBe('unavailable');
    const bySize = Object.fromEntries(drug.packs.map((p) => [p.description, p.supply]));
    expect(bySize['4 Stück']).toEqual({
      status: 'unavailable', reason: 'Verknappung des Wirkstoffes', since: '2023-09-15', expected_until: null, source: 'at-basg-supply',
      fetched_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    });
    expect(bySize['12 Stück']).toMatchObject({ status: 'available', since: '2023-09-15' });
    const unreported = (await t.app.inject({ url: `/v1/drugs/${ids.b}`, headers: bearer(key) })).json() as { supply_status: string | null; packs: Array<{ supply: unknown }> };
    expect(unreported.supply_status).toBeNull();
    expect(unreported.packs[0]!.supply).toBeNull();
  });

  it('sums the medicine up per country and offers only packs that are not short, at home then next door', async () => {
    const res = await t.app.inject({ url: `/v1/drugs/${ids.a}/supply`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeDefined();
    const body = res.json() as { status: string; basis: string; countries: unknown[]; packs: SupplyPack[]; alternatives: { same_country: SupplyPack[]; neighbouring_markets: SupplyPack[] }; _meta: { sources: Array<{ id: string }> } };
    expect(body.status).toBe('unavailable');
    expect(body.basis).toBe('identity');
    expect(body.countries).toEqual([
      { country: 'AT', status: 'unavailable', packs: 5, short: 3 },
      { country: 'DE', status: null, packs: 1, short: 0 },
      { country: 'FR', status: null, packs: 1, short: 0 },
    ]);
    expect(body.packs.map((p) => [p.description, p.supply?.status ?? null])).toEqual([['12 Stück', 'available'], ['4 Stück', 'unavailable']]);
    // Sandoz's pack is short itself, Stada's authorisation is, the drug's own packs are not alternatives, FR is no neighbour of AT.
    expect(body.alternatives.same_country.map((p) => [p.drug.product_name, p.description, p.supply])).toEqual([['Sildenafil Genericon 50 mg Filmtabletten', '12 Stück', null]]);
    expect(body.alternatives.neighbouring_markets.map((p) => [p.country, p.drug.id])).toEqual([['DE', ids.d]]);
    expect(body._meta.sources.map((s) => s.id)).toEqual(['at-basg-supply', 'test-at', 'test-de']);
  });

  it('answers the same through the MCP tool', async () => {
    const res = await mcpPost(t, key, rpc('tools/call', { name: 'get_drug_supply', arguments: { id: ids.a } }));
    const tool = toolText(res);
    expect(tool.isError).toBe(false);
    const answer = tool.json as { status: string; alternatives: { same_country: unknown[] } };
    expect(answer.status).toBe('unavailable');
    expect(answer.alternatives.same_country).toHaveLength(1);
  });

  it('records going short and coming back as two changes.update of the pack, delivered to a webhook receiver', async () => {
    const recovered = await parseAndIngest(t.db, 'at-basg-supply', [{ name: 'VertriebseinschraenkungenASP.xml', content: RECOVERED }], { strict: true });
    expect(recovered).toMatchObject({ outcome: 'ok', supply: { insert: 0, update: 1, delete: 0, unchanged: 5, changes: 1 } });
    const feed = (await t.app.inject({ url: '/v1/changes', headers: bearer(key) })).json() as { changes: Array<{ id: string; table_name: string; natural_key: unknown; drug_id: string; change_type: string; before: Supply | null; after: Supply | null }> };
    const pack = feed.changes.filter((c) => c.table_name === 'pack_supply' && JSON.stringify(c.natural_key) === JSON.stringify({ code: '3920190', system: 'at_pzn' }));
    expect(pack.map((c) => [c.change_type, c.drug_id, c.before?.status ?? null, c.after?.status ?? null])).toEqual([
      ['update', ids.a, null, 'unavailable'],
      ['update', ids.a, 'unavailable', 'available'],
    ]);
    expect(pack[1]!.after).toMatchObject({ since: '2023-09-24', expected_until: null, source: 'at-basg-supply' });
    const worker = testDispatcher(t.db, t.config);
    await worker.runOnce();
    await worker.close();
    const delivered = receiver.received.flatMap((r) => r.body.changes.map((c) => c.id));
    expect(delivered).toEqual(expect.arrayContaining(pack.map((c) => c.id)));
    expect(receiver.received.every((r) => r.answered === 200)).toBe(true);
    const after = (await t.app.inject({ url: `/v1/drugs/${ids.a}/supply`, headers: bearer(key) })).json() as { status: string; alternatives: { same_country: unknown[] } };
    expect(after.status).toBe('available');
    expect(after.alternatives.same_country).toEqual([]);
  });
});
