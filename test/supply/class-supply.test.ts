/**
 * How many marketed packs of a class are short per country, on GET /v1/atc/{code} and
 * GET /v1/classes/{system}/{code} with include=supply: the real BDPM availability excerpt
 * as France's supply over a test catalogue of gemcitabine and piperacillin packs. Asked for,
 * it costs one query; not asked for, the answer and its round trips are as before.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { parseAndIngest } from '../../workers/ingest/apply.ts';
import { CLASS_SUPPLY_SQL } from '../../resolvers/classification/class-supply.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';

const EXCERPT = readFileSync(new URL('../fixtures/registers/fr-ansm-supply/real/CIS_CIP_Dispo_Spec_20260126_excerpt.txt', import.meta.url));

const product = (key: string, country: 'FR' | 'AT', atc: string, cis: string | null, packs: Array<[string, string | null]>): ProductEntry => ({
  key, country, product_name: key, atc_code: atc, ingredients: [], identifiers: cis ? [{ system: 'cis', code: cis }] : [],
  packs: packs.map(([description, cip13]) => ({ key: `${key}-${description}`, description, identifiers: cip13 ? [{ system: 'cip13', code: cip13 }] : [] })),
});
const snapshot = (country: 'FR' | 'AT', products: ProductEntry[]): Snapshot => ({
  format: SNAPSHOT_FORMAT, source: { id: `test-${country.toLowerCase()}`, name: `Test register ${country}`, country, refresh_interval_hours: 24 }, substances: [], products,
});

describe('packs of a class short per country (include=supply)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'developer' });
    await t.db.query(`INSERT INTO sources (id, name, refresh_interval_hours, last_synced_at, demo) VALUES ('who-atc', 'WHO ATC/DDD index', 8760, now(), false)`);
    await t.db.query(`INSERT INTO atc_nodes (code, name, level, parent_code, source) VALUES
      ('L', 'ANTINEOPLASTIC AND IMMUNOMODULATING AGENTS', 1, NULL, 'who-atc'), ('L01', 'ANTINEOPLASTIC AGENTS', 2, 'L', 'who-atc'),
      ('L01B', 'ANTIMETABOLITES', 3, 'L01', 'who-atc'), ('L01BC', 'Pyrimidine analogues', 4, 'L01B', 'who-atc'), ('L01BC05', 'gemcitabine', 5, 'L01BC', 'who-atc'),
      ('J', 'ANTIINFECTIVES FOR SYSTEMIC USE', 1, NULL, 'who-atc'), ('J01', 'ANTIBACTERIALS FOR SYSTEMIC USE', 2, 'J', 'who-atc')`);
    // Test data: the real notices' CIS and CIP13 on packs of a made-up catalogue.
    await ingestSnapshot(t.db, snapshot('FR', [
      product('gemcitabine-sun', 'FR', 'L01BC05', '62308535', [['poche 120 mL', '3400955028284'], ['poche 200 mL', null]]),
      product('gemcitabine-other', 'FR', 'L01BC05', null, [['flacon', null]]),
      product('piperacilline', 'FR', 'J01CA12', '60284142', [['1 flacon', null], ['10 flacons', null]]),
    ]));
    await ingestSnapshot(t.db, snapshot('AT', [product('gemcitabine-at', 'AT', 'L01BC05', null, [['1 Stk', null]])]));
    const ingested = await parseAndIngest(t.db, 'fr-ansm-supply', [{ name: 'CIS_CIP_Dispo_Spec.txt', content: EXCERPT }], { strict: true });
    expect(ingested).toMatchObject({ outcome: 'ok' });
  });
  afterAll(() => t.close());

  /** Round trips of the second of two identical requests (the first warms the key and sources caches). */
  const trips = async (url: string) => {
    expect((await t.app.inject({ url, headers: bearer(key) })).statusCode).toBe(200);
    const before = t.db.roundTrips;
    const res = await t.app.inject({ url, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return { trips: t.db.roundTrips - before, body: res.json() as Record<string, unknown> };
  };

  it('counts the subtree\'s marketed packs per country and the short ones by status, in one query more', async () => {
    const plain = await trips('/v1/atc/L01');
    expect(plain.body).not.toHaveProperty('supply');
    const asked = await trips('/v1/atc/L01?include=supply');
    expect(asked.trips).toBe(plain.trips + 1);
    expect(asked.body.supply).toEqual([
      { country: 'AT', status: null, packs: 1, short: 0, limited: 0, unavailable: 0, discontinued: 0 },
      // The CIP13 notice makes one bag short; the product's other pack is not reported.
      { country: 'FR', status: 'unavailable', packs: 3, short: 1, limited: 0, unavailable: 1, discontinued: 0 },
    ]);
    expect(asked.body).toMatchObject({ code: 'L01', name: 'ANTINEOPLASTIC AGENTS', level: 2 });
  });

  it('counts a notice on the whole medicine (CIS) against each of its packs', async () => {
    const res = await t.app.inject({ url: '/v1/therapies/J01?include=supply', headers: bearer(key) });
    expect(res.json().supply).toEqual([{ country: 'FR', status: 'limited', packs: 2, short: 2, limited: 2, unavailable: 0, discontinued: 0 }]);
  });

  it('answers the same on the class view, and refuses another include', async () => {
    const res = await t.app.inject({ url: '/v1/classes/atc/l01bc05?include=supply', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'L01BC05', drug_count: 3, supply: [{ country: 'AT', packs: 1, short: 0 }, { country: 'FR', packs: 3, short: 1, unavailable: 1 }] });
    expect((await t.app.inject({ url: '/v1/classes/atc/L01BC05', headers: bearer(key) })).json()).not.toHaveProperty('supply');
    expect((await t.app.inject({ url: '/v1/atc/L01?include=ddd', headers: bearer(key) })).statusCode).toBe(422);
  });

  it('counts a class of another axis through its substances\' ATC codes and the products put in it directly', async () => {
    // Test data: gemcitabine in an EPC class through its ATC code, and the piperacillin product put in the class directly.
    await t.db.query(`INSERT INTO substances (unii, name, moiety_unii, atc_codes, source, record, content_hash) VALUES ('B76N6SBZ8R', 'gemcitabine', 'B76N6SBZ8R', '{L01BC05}', 'who-atc', '{}', 'x')`);
    await t.db.query(`INSERT INTO classes (system, code, label, source) VALUES ('epc', 'N0000175617', 'Nucleoside Metabolic Inhibitor [EPC]', 'who-atc')`);
    await t.db.query(`INSERT INTO substance_classes (unii, system, code) VALUES ('B76N6SBZ8R', 'epc', 'N0000175617')`);
    await t.db.query(`INSERT INTO product_classes (product_id, system, code) SELECT id, 'epc', 'N0000175617' FROM products WHERE product_name = 'piperacilline'`);
    const res = await t.app.inject({ url: '/v1/classes/epc/N0000175617?include=supply', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json().supply).toEqual([
      { country: 'AT', status: null, packs: 1, short: 0, limited: 0, unavailable: 0, discontinued: 0 },
      { country: 'FR', status: 'unavailable', packs: 5, short: 3, limited: 2, unavailable: 1, discontinued: 0 },
    ]);
  });

  it('reaches an ATC subtree\'s products through the atc_code index, not a scan of the catalogue', async () => {
    // A catalogue large enough that a sequential scan would be the planner's choice if no index served.
    await t.db.query(`INSERT INTO products (source, natural_key, country, product_name, atc_code, record, content_hash)
      SELECT 'test-fr', 'filler-' || n, 'FR', 'filler ' || n, 'A' || lpad((n % 100)::text, 2, '0') || 'BC05', '{}', 'x' FROM generate_series(1, 20000) AS n`);
    await t.db.query('ANALYZE products');
    const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${CLASS_SUPPLY_SQL}`, [['atc'], ['L01']]);
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/products_atc/);
    expect(text).not.toMatch(/Seq Scan on products/);
  });
});
