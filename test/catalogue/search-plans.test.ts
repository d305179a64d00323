/**
 * Query plans of the typeahead on PostgreSQL (docs/architecture.md "Hot path"): with tens
 * of thousands of products, a common prefix is a range scan of the name index that stops
 * at the limit, never a sort of every match, and the tiers gated behind it never run.
 * Plans are read with EXPLAIN (ANALYZE, FORMAT JSON) of the very statements search sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../platform/db.ts';
import { openDatabase } from '../../platform/db.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { searchDrugs } from '../../resolvers/catalogue/search.ts';
import { CODES, seedCatalogue } from './fixtures.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  'Actual Loops': number;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

/** The subtree of CTE `name`. */
function cte(plan: PlanNode, name: string): PlanNode {
  const found = [...walk(plan)].find((n) => n['Subplan Name'] === `CTE ${name}`);
  if (!found) throw new Error(`no CTE ${name} in the plan`);
  return found;
}

/** Runs one search and returns the ANALYZEd plan of each statement it sent. */
async function plansOf(db: Database, args: Parameters<typeof searchDrugs>[1]): Promise<PlanNode[]> {
  const plans: PlanNode[] = [];
  const explaining: Queryable = {
    async query(text: string, params?: unknown[]) {
      const { rows } = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
      plans.push(rows[0]!['QUERY PLAN'][0]!.Plan);
      return db.query(text, params) as never;
    },
  };
  await searchDrugs(explaining, args);
  return plans;
}

describe.skipIf(testBackend() !== 'postgres')('typeahead plans on PostgreSQL', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
    await seedCatalogue(db);
    // 40,000 products in four registers under five ATC codes, a fifth of them named "Ibu…",
    // a fifth containing ibuprofen, each with an identifier.
    await db.query(
      `INSERT INTO products (source, natural_key, country, product_name, atc_code, record, content_hash)
       SELECT 'ch-sl', 'gen-' || i, (ARRAY['CH', 'DE', 'FR', 'US'])[1 + i % 4],
              (ARRAY['Ibuprofen', 'Paracetamol', 'Amlodipin', 'Brufen', 'Dafalgan'])[1 + i % 5] || ' Generika ' || i,
              (ARRAY['M01AE01', 'M01AE02', 'C09AA05', 'C09AA02', 'N02BE01'])[1 + (i / 7) % 5], '{}', 'gen'
         FROM generate_series(1, 40000) AS i`,
    );
    await db.query(
      `INSERT INTO product_ingredients (product_id, position, unii)
       SELECT id, 0, 'WK2XYI10QM' FROM products WHERE natural_key LIKE 'gen-%' AND product_name LIKE 'Brufen%'`,
    );
    await db.query(
      `INSERT INTO identifiers (system, code, drug_id)
       SELECT 'swissmedic_no', lpad(substr(natural_key, 5), 5, '0') || 'g', id FROM products WHERE natural_key LIKE 'gen-%'`,
    );
    await db.query('ANALYZE');
  }, 120_000);
  afterAll(() => db?.close());

  it.each([['CH', 'products_search_name'], ['ALL', 'products_search_name_all']])(
    'finds a common name prefix (country %s) by a range scan of %s that stops at the limit, and never sends the later tiers',
    async (country, index) => {
      const plans = await plansOf(db, { q: 'ibu', country, atc: null, limit: 20 });
      // The names starting with q fill the page: the statement of the later tiers is never sent.
      expect(plans).toHaveLength(1);
      const [plan] = plans;
      const starts = [...walk(cte(plan!, 'starts'))];
      expect(starts.find((n) => n['Node Type'] === 'Index Scan')).toMatchObject({ 'Index Name': index, 'Actual Rows': 20 });
      expect(starts.some((n) => n['Node Type'] === 'Sort')).toBe(false);
      expect([...walk(plan!)].some((n) => n['Subplan Name'] === 'CTE contains')).toBe(false);
      // What is sorted at the end is the page, not the match set.
      const sorts = [...walk(plan!)].filter((n) => n['Node Type'] === 'Sort');
      expect(sorts.every((n) => n['Actual Rows'] <= 20 * 4)).toBe(true);
    },
  );

  it('plans the names starting with q once per connection: their generic plan is kept, for rare prefixes too', async () => {
    const one = await openDatabase({ url: (db as Database & { url: string }).url, max: 1 });
    try {
      // A rare prefix (6 names in CH) is where seen values would make the custom plans cheaper than the generic one.
      for (const [q, country] of [['ibuprofen generika 111', 'CH'], ['ibu', 'ALL']] as const) {
        for (let i = 0; i < 8; i++) {
          const { results } = await searchDrugs(one, { q, country, atc: null, limit: 5 });
          expect(results).toHaveLength(5);
        }
      }
      const { rows } = await one.query<{ country: boolean; generic: number }>(
        `SELECT statement LIKE '%p.country = $%' AS country, generic_plans::int AS generic FROM pg_prepared_statements
          WHERE statement LIKE '%starts AS%' AND statement NOT LIKE '%contains AS%' ORDER BY 1`);
      expect(rows.map((r) => [r.country, r.generic > 0])).toEqual([[false, true], [true, true]]);
    } finally {
      await one.close();
    }
  });

  it('walks the name index for a substance in thousands of products instead of sorting them', async () => {
    // No name starts with or contains "ibuprofen lysin": the full statement runs, and its
    // substance tier finds every product of the moiety (ibuprofen, thousands of Brufen).
    const plans = await plansOf(db, { q: 'ibuprofen lysin', country: 'CH', atc: null, limit: 50 });
    expect(plans).toHaveLength(2);
    const plan = plans[1];
    const dense = [...walk(cte(plan!, 'dense'))];
    expect(dense.find((n) => n['Relation Name'] === 'products')).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'products_search_name' });
    expect(dense.some((n) => n['Node Type'] === 'Sort')).toBe(false);
  });

  it('fetches a substance in few products (under 1 in 20 of the catalogue) by key instead of walking the name index', async () => {
    // Paracetamol is in a handful of the 40,000 products: a walk in name order would read
    // thousands of names before meeting them, its own products cost a few key lookups.
    const [plan] = await plansOf(db, { q: '362O9ITL9D', country: 'ALL', atc: null, limit: 20 });
    const walked = [...walk(cte(plan!, 'dense'))].filter((n) => n['Relation Name'] === 'products');
    expect(walked.every((n) => n['Actual Loops'] === 0)).toBe(true);
    const fetched = [...walk(cte(plan!, 'sparse'))].find((n) => n['Relation Name'] === 'products');
    expect(fetched).toMatchObject({ 'Index Name': 'products_pkey' });
    expect(fetched!['Actual Loops']).toBeGreaterThan(0);
  });

  it('with an ATC filter, reads only the substance\'s own products, never the name index: same answer as a plain query', async () => {
    // Ibuprofen is in a fifth of the catalogue, so unfiltered it is walked in name order; in
    // a class where none of it were, that walk would read every product.
    const args = { q: 'ibuprofen lysin', country: 'ALL', atc: 'C09', limit: 20 };
    const plans = await plansOf(db, args);
    const plan = plans.at(-1)!;
    expect([...walk(plan)].some((n) => n['Subplan Name'] === 'CTE dense')).toBe(false);
    expect([...walk(cte(plan, 'sparse'))].find((n) => n['Relation Name'] === 'products')).toMatchObject({ 'Index Name': 'products_pkey' });
    const { results } = await searchDrugs(db, args);
    const { rows } = await db.query<{ id: string }>(
      `SELECT p.id FROM products p WHERE p.searchable AND p.atc_code LIKE 'C09%'
          AND EXISTS (SELECT 1 FROM product_ingredients i JOIN substances s ON s.unii = i.unii
                       WHERE i.product_id = p.id AND s.moiety_unii = (SELECT moiety_unii FROM substances WHERE unii = 'WK2XYI10QM'))
        ORDER BY lower(p.product_name) COLLATE "C", p.id LIMIT 20`);
    expect(rows.length).toBeGreaterThan(0);
    expect(results.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('finds a code through the identifiers index, whatever the catalogue size', async () => {
    const [plan] = await plansOf(db, { q: CODES.brufenGtin, country: null, atc: null, limit: 20 });
    const byId = [...walk(cte(plan!, 'by_id'))];
    expect(byId.find((n) => n['Relation Name'] === 'identifiers')).toMatchObject({ 'Index Name': 'identifiers_lookup' });
    expect([...walk(plan!)].filter((n) => n['Relation Name'] === 'products').every((n) => n['Node Type'] !== 'Seq Scan')).toBe(true);
  });

  it.each([['ALL', 'products_search_atc_all'], ['CH', 'products_search_atc']])(
    'finds an ATC code or class (country %s) by probing %s once per code and reading only each code\'s first names',
    async (country, index) => {
      for (const [q, codes] of [['C09AA05', 1], ['C09AA', 2]] as const) {
        const [plan] = await plansOf(db, { q, country, atc: null, limit: 20 });
        const reads = [...walk(cte(plan!, 'by_atc'))].filter((n) => n['Relation Name'] === 'products');
        expect(reads.length, q).toBeGreaterThan(0);
        for (const read of reads) expect(read, q).toMatchObject({ 'Index Name': index });
        // The name-ordered reads: at most the limit per code, never the thousands under it.
        const named = reads.filter((n) => n['Node Type'] === 'Index Scan');
        expect(named.reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0), q).toBeLessThanOrEqual(20 * codes);
      }
    },
  );

  it('plans a code search once per connection: the generic plan is kept, as the custom ones cost no less', async () => {
    const one = await openDatabase({ url: (db as Database & { url: string }).url, max: 1 });
    try {
      for (const q of [CODES.brufenGtin, 'C09AA05']) {
        for (let i = 0; i < 8; i++) await searchDrugs(one, { q, country: 'ALL', atc: null, limit: 20 });
      }
      const { rows } = await one.query<{ tier: string; generic: number }>(
        `SELECT CASE WHEN statement LIKE '%by_atc AS%' THEN 'by_atc' ELSE 'by_id' END AS tier, generic_plans::int AS generic
           FROM pg_prepared_statements WHERE statement LIKE '%by_id AS%' OR statement LIKE '%by_atc AS%' ORDER BY 1`);
      expect(rows.map((r) => [r.tier, r.generic > 0])).toEqual([['by_atc', true], ['by_id', true]]);
    } finally {
      await one.close();
    }
  });
});
