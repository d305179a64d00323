/** Small hand-written snapshots for the engine tests, and helpers to read the catalogue state. */
import type { Queryable } from '../../platform/db.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';

export const PARACETAMOL = '362O9ITL9D';
export const IBUPROFEN = 'WK2XYI10QM';

export function atcSnapshot(): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    source: { id: 'test-atc', name: 'Test ATC', country: null, refresh_interval_hours: 24 },
    atc: [
      { code: 'N', name: 'NERVOUS SYSTEM' },
      { code: 'N02', name: 'ANALGESICS' },
      { code: 'N02BE01', name: 'paracetamol', ddd: [{ value: 3, unit: 'g', route: 'O' }, { value: 3, unit: 'g', route: 'R' }] },
    ],
  };
}

function product(key: string, name: string, unii: string, price: number): ProductEntry {
  return {
    key, country: 'CH', product_name: name, atc_code: 'N02BE01', dose_form: 'Filmtabl', route: 'oral',
    identifiers: [{ system: 'swissmedic_no', code: key }],
    ingredients: [{ unii, strength_value: 500, strength_unit: 'mg' }],
    packs: [{
      key: `7680${key}0010`, description: '16 Stk', units: 16, unit: 'Stk',
      identifiers: [{ system: 'gtin', code: `7680${key}0010` }],
      prices: [{ amount: price, currency: 'CHF', kind: 'public' }, { amount: price / 2, currency: 'CHF', kind: 'ex_factory' }],
    }],
    monographs: [{ lang: 'de', title: name, sections: { indications: 'Schmerzen' } }],
  };
}

/** A Swiss register: two products with one pack each, substances, a class, one recall. */
export function chSnapshot(): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    source: { id: 'test-ch', name: 'Test CH', country: 'CH', refresh_interval_hours: 24 * 30 },
    classes: [{ system: 'epc', code: 'N0000175722', label: 'Analgesic' }],
    substances: [
      { unii: PARACETAMOL, name: 'Paracetamol', classes: [{ system: 'epc', code: 'N0000175722' }] },
      { unii: IBUPROFEN, name: 'Ibuprofen' },
    ],
    products: [product('65317', 'Exemplol', PARACETAMOL, 3.9), product('39271', 'Ibuprex', IBUPROFEN, 7.5)],
    recalls: [],
  };
}

/** Row counts of every catalogue table, to compare states before and after. */
export async function tableCounts(db: Queryable): Promise<Record<string, number>> {
  const tables = ['sources', 'changes', 'atc_nodes', 'atc_ddd', 'classes', 'substances', 'substance_classes', 'products',
    'product_ingredients', 'product_classes', 'packs', 'pack_prices', 'identifiers', 'monographs', 'recalls'];
  const { rows } = await db.query<{ t: string; n: number }>(
    tables.map((t) => `SELECT '${t}' AS t, count(*)::int AS n FROM ${t}`).join(' UNION ALL '));
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

/** A digest of the whole catalogue's content (ids excluded where they are random). */
export async function catalogueDigest(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ d: string }>(`SELECT md5(string_agg(x, '|' ORDER BY x)) AS d FROM (
    SELECT 'p' || natural_key || content_hash || coalesce(substance_signature, '') AS x FROM products
    UNION ALL SELECT 'k' || natural_key || content_hash FROM packs
    UNION ALL SELECT 's' || unii || content_hash FROM substances
    UNION ALL SELECT 'a' || code || name FROM atc_nodes
    UNION ALL SELECT 'c' || id::text || change_type FROM changes
    UNION ALL SELECT 'src' || id || coalesce(last_synced_at::text, '') FROM sources) AS all_rows`);
  return rows[0]!.d ?? '';
}
