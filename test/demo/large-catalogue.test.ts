/**
 * The large synthetic catalogue generator (data/large/, `drugref demo generate`): on
 * PostgreSQL it writes rows the service reads through real HTTP (search, lookup by every
 * pack code system, the drug record) with valid check digits; on the embedded database it
 * refuses clearly and writes nothing.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isValidAic, isValidCip13, isValidGtin, isValidPzn, isValidSctConceptId,
} from '../../vocabulary/check-digits.ts';
import { normaliseIdentifier } from '../../vocabulary/codes.ts';
import { writeLargeCatalogue } from '../../data/large/write.ts';
import { countryProducts } from '../../data/large/catalogue.ts';
import { JURISDICTIONS } from '../../workers/ingest/snapshot.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';

const PRODUCTS = 2000;

/** Check-digit validators of the systems that have one. */
const VALID: Record<string, (code: string) => boolean> = {
  gtin: isValidGtin, cip13: isValidCip13, pzn: isValidPzn, aic: isValidAic, dmd_amppid: isValidSctConceptId,
};

describe.runIf(testBackend() === 'postgres')('demo generate on PostgreSQL', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  const get = async (path: string) => {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() as Record<string, unknown> & { results?: Array<Record<string, unknown>> } };
  };

  beforeAll(async () => {
    const db = await openTestDatabase({ demo: true });
    const report = await writeLargeCatalogue(db, { products: PRODUCTS, packsPerProduct: 2, seed: 'test' });
    expect(report).toMatchObject({ products: PRODUCTS, packs: 2 * PRODUCTS });
    t = await startTestApp({ db });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    key = await t.key();
  }, 180_000);
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  it('spreads the products over the 16 jurisdictions, one synced source each', async () => {
    const { rows } = await t.db.query<{ country: string; n: number; synced: boolean }>(
      `SELECT p.country, count(*)::int AS n, bool_and(s.last_synced_at IS NOT NULL) AS synced
         FROM products p JOIN sources s ON s.id = p.source WHERE p.source LIKE 'synthetic-%' GROUP BY p.country`);
    expect(rows.map((r) => r.country).sort()).toEqual([...JURISDICTIONS].sort());
    for (const r of rows) expect(r).toMatchObject({ n: PRODUCTS / 16, synced: true });
  });

  it('gives every code with a check digit a valid one, and every stored code its normalised form', async () => {
    const { rows } = await t.db.query<{ system: string; code: string }>(
      "SELECT i.system, i.code FROM identifiers i JOIN products p ON p.id = i.drug_id WHERE p.source LIKE 'synthetic-%'");
    expect(rows.length).toBeGreaterThan(4 * PRODUCTS);
    const bad = rows.filter((r) => VALID[r.system] && !VALID[r.system]!(r.code));
    expect(bad).toEqual([]);
    const unnormalised = rows.filter((r) => {
      const n = normaliseIdentifier(r.system, r.code);
      return n !== null && n !== r.code;
    });
    expect(unnormalised).toEqual([]);
    expect(new Set(rows.filter((r) => r.system === 'gtin').map((r) => r.code)).size).toBe(rows.filter((r) => r.system === 'gtin').length);
  });

  it('resolves a generated pack by each lookup system to its product', async () => {
    const { rows } = await t.db.query<{ system: string; code: string; drug_id: string; pack_id: string }>(
      `SELECT DISTINCT ON (i.system) i.system, i.code, i.drug_id, i.pack_id FROM identifiers i JOIN products p ON p.id = i.drug_id
        WHERE p.source LIKE 'synthetic-%' AND i.pack_id IS NOT NULL
          AND i.system IN ('gtin', 'pzn', 'cip13', 'aic', 'ndc11', 'dmd_amppid', 'pharmacode', 'swissmedic_no', 'be_apb', 'cima_codigo',
                           'dk_varenummer', 'se_varunummer', 'no_varenummer')
        ORDER BY i.system, i.code`);
    expect(rows).toHaveLength(13);
    for (const r of rows) {
      const res = await get(`/v1/drugs/lookup?system=${r.system}&code=${r.code}`);
      expect(res.status, `${r.system} ${r.code}`).toBe(200);
      expect(res.body).toMatchObject({ id: r.drug_id, matched_pack: { id: r.pack_id } });
    }
  });

  it('finds generated products by name and by substance, and serves their record', async () => {
    const { rows } = await t.db.query<{ id: string; product_name: string; substance: string }>(
      `SELECT p.id, p.product_name, s.name AS substance FROM products p JOIN product_ingredients i ON i.product_id = p.id AND i.position = 0
         JOIN substances s ON s.unii = i.unii
        WHERE p.source = 'synthetic-de' AND p.marketing_status = 'active' AND cardinality(ARRAY(SELECT 1 FROM product_ingredients x WHERE x.product_id = p.id)) = 1
        ORDER BY p.natural_key LIMIT 1`);
    const product = rows[0]!;
    const byName = await get(`/v1/drugs?q=${encodeURIComponent(product.product_name)}&country=DE&limit=100`);
    expect(byName.status).toBe(200);
    expect(byName.body.results!.map((d) => d.id)).toContain(product.id);
    const { rows: same } = await t.db.query<{ id: string }>(
      `SELECT p.id FROM products p JOIN product_ingredients i ON i.product_id = p.id JOIN substances s ON s.unii = i.unii
        WHERE p.source = 'synthetic-de' AND s.name = $1`, [product.substance]);
    const bySubstance = await get(`/v1/drugs?q=${encodeURIComponent(product.substance)}&country=DE&limit=100`);
    expect(bySubstance.body.results!.some((d) => same.some((x) => x.id === d.id))).toBe(true);
    const prefix = await get('/v1/drugs?q=ibu&country=ALL&limit=50');
    expect(prefix.status).toBe(200);
    expect(prefix.body.results!.length).toBeGreaterThan(0);

    const record = await get(`/v1/drugs/${product.id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: product.id, country: 'DE', product_name: product.product_name });
    const packs = record.body.packs as Array<{ prices: unknown[]; identifiers: Array<{ system: string }> }>;
    expect(packs).toHaveLength(2);
    expect(packs[0]!.prices.length).toBeGreaterThan(0);
    expect(packs[0]!.identifiers.map((i) => i.system).sort()).toEqual(['gtin', 'pzn']);
  });

  it('refuses a second catalogue in the same database', async () => {
    await expect(writeLargeCatalogue(t.db, { products: 10, packsPerProduct: 2, seed: 'again' })).rejects.toThrow(/already holds a generated catalogue/);
  });
});

describe.runIf(testBackend() === 'pglite')('demo generate on the embedded database', () => {
  it('refuses clearly and writes nothing', async () => {
    const db = await openTestDatabase();
    try {
      await expect(writeLargeCatalogue(db, { products: 10, packsPerProduct: 2, seed: 'x' })).rejects.toThrow(/needs PostgreSQL: set DATABASE_URL/);
      expect((await db.query("SELECT 1 FROM sources WHERE id LIKE 'synthetic-%'")).rowCount).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe('the generator itself', () => {
  it('is deterministic for a seed and honours the pack count', () => {
    const a = [...countryProducts('US', 50, { products: 50, packsPerProduct: 3, seed: 's' })];
    const b = [...countryProducts('US', 50, { products: 50, packsPerProduct: 3, seed: 's' })];
    expect(a).toEqual(b);
    expect(a).toHaveLength(50);
    expect(a.every((p) => p.packs.length === 3)).toBe(true);
    expect(new Set(a.flatMap((p) => p.packs.map((k) => k.key))).size).toBe(150);
  });

  it('refuses a pack count its layouts cannot number', () => {
    expect(() => [...countryProducts('CH', 1, { products: 1, packsPerProduct: 10, seed: 's' })]).toThrow(/1 to 9/);
  });
});
