/**
 * French supply end to end, and a pack's supply history: the real BDPM availability excerpt
 * ingested as France's supply over a test catalogue of two of the medicines it names, then
 * the same file with the gemcitabine pack back in supply. Reports keyed by CIP13 reach the
 * pack, reports keyed by CIS the product; going short and coming back are two records of the
 * change feed, and the record asked `as_of` an instant inside the shortage shows it short.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { parseAndIngest } from '../../workers/ingest/apply.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { Snapshot } from '../../workers/ingest/snapshot.ts';

const EXCERPT = readFileSync(new URL('../fixtures/registers/fr-ansm-supply/real/CIS_CIP_Dispo_Spec_20260126_excerpt.txt', import.meta.url));
const SHORT_LINE = '62308535\t3400955028284\t1\tRupture de stock\t12/11/2025\t07/01/2026\t\t';
/** The same list a few days on: the gemcitabine bag is back (Latin-1, as published). */
const RECOVERED = Buffer.from(EXCERPT.toString('latin1').replace(SHORT_LINE, '62308535\t3400955028284\t4\tRemise \u00e0 disposition\t12/11/2025\t20/01/2026\t20/01/2026\t'), 'latin1');

const catalogue: Snapshot = {
  format: SNAPSHOT_FORMAT, source: { id: 'test-fr', name: 'Test register FR', country: 'FR', refresh_interval_hours: 24 },
  substances: [],
  products: [
    {
      key: 'gemcitabine', country: 'FR', product_name: 'GEMCITABINE SUN 10 mg/mL, solution pour perfusion en poche', identifiers: [{ system: 'cis', code: '62308535' }], ingredients: [],
      packs: [{ key: 'gemcitabine-120', description: '1 poche de 120 mL', identifiers: [{ system: 'cip13', code: '3400955028284' }] }],
    },
    {
      key: 'piperacilline', country: 'FR', product_name: 'PIPERACILLINE PANPHARMA 4 g, poudre pour solution injectable', identifiers: [{ system: 'cis', code: '60284142' }], ingredients: [],
      packs: [{ key: 'piperacilline-1', description: '1 flacon', identifiers: [] }],
    },
  ],
};

interface Supply { status: string; since: string | null; source: string }
interface Drug { supply_status: string | null; packs: Array<{ description: string; supply: Supply | null }> }

describe('French supply and supply history', () => {
  let t: TestApp;
  let key: string;
  const ids: Record<string, string> = {};
  let before = '';
  let inside = '';

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'starter' });
    await ingestSnapshot(t.db, catalogue);
    const { rows } = await t.db.query<{ id: string; key: string }>(`SELECT id, record->>'key' AS key FROM products`);
    for (const r of rows) ids[r.key] = r.id;
    await sleep(20);
    before = new Date().toISOString();
    await sleep(20);
    const short = await parseAndIngest(t.db, 'fr-ansm-supply', [{ name: 'CIS_CIP_Dispo_Spec.txt', content: EXCERPT }], { strict: true });
    expect(short).toMatchObject({ outcome: 'ok', rows: { read: 32, kept: 28, malformed: 0 }, supply: { insert: 28, update: 0, delete: 0 } });
    await sleep(20);
    inside = new Date().toISOString();
    await sleep(20);
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows a CIP13 report on the pack and a CIS report on the product', async () => {
    const gem = (await t.app.inject({ url: `/v1/drugs/${ids.gemcitabine}`, headers: bearer(key) })).json() as Drug;
    expect(gem.supply_status).toBe('unavailable');
    expect(gem.packs[0]!.supply).toMatchObject({ status: 'unavailable', since: '2025-11-12', expected_until: null, source: 'fr-ansm-supply' });
    const res = await t.app.inject({ url: `/v1/drugs/${ids.piperacilline}/supply`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status: string; authorisation: Supply | null; packs: Array<{ supply: Supply | null }> };
    expect(body.status).toBe('limited');
    expect(body.authorisation).toMatchObject({ status: 'limited', since: '2025-08-13', source: 'fr-ansm-supply' });
    expect(body.packs.map((p) => p.supply)).toEqual([null]);
  });

  it('records going short and coming back as two changes.update of the pack, and shows either as_of its time', async () => {
    const recovered = await parseAndIngest(t.db, 'fr-ansm-supply', [{ name: 'CIS_CIP_Dispo_Spec.txt', content: RECOVERED }], { strict: true });
    expect(recovered).toMatchObject({ outcome: 'ok', supply: { insert: 0, update: 1, delete: 0, unchanged: 27, changes: 1 } });
    const feed = (await t.app.inject({ url: '/v1/changes?limit=100', headers: bearer(key) })).json() as { changes: Array<{ table_name: string; natural_key: unknown; drug_id: string | null; change_type: string; occurred_at: string; before: Supply | null; after: Supply | null }> };
    const pack = feed.changes.filter((c) => c.table_name === 'pack_supply' && JSON.stringify(c.natural_key) === JSON.stringify({ code: '3400955028284', system: 'cip13' }));
    expect(pack.map((c) => [c.change_type, c.drug_id, c.before?.status ?? null, c.after?.status ?? null, c.after?.since ?? null])).toEqual([
      ['update', ids.gemcitabine, null, 'unavailable', '2025-11-12'],
      ['update', ids.gemcitabine, 'unavailable', 'available', '2026-01-20'],
    ]);

    const at = async (asOf: string | null) => {
      const res = await t.app.inject({ url: `/v1/drugs/${ids.gemcitabine}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      const drug = res.json() as Drug;
      return [drug.supply_status, drug.packs.map((p) => p.supply?.status ?? null)];
    };
    expect(await at(null)).toEqual(['available', ['available']]);
    expect(await at(inside)).toEqual(['unavailable', ['unavailable']]);
    // Before any publication reported on it: no supply, as for a pack no publication names.
    expect(await at(before)).toEqual([null, [null]]);
    // The product-level (CIS) report as it stood inside the shortage, too.
    const pip = (await t.app.inject({ url: `/v1/drugs/${ids.piperacilline}?as_of=${encodeURIComponent(inside)}`, headers: bearer(key) })).json() as Drug;
    expect(pip.supply_status).toBe('limited');
  });
});
