/**
 * Two registers ingested twice through the engine, with the engine's clock set, for the
 * `as_of` tests: a Swiss one keyed by GTIN and a US one keyed by NDC11. The second ingest
 * renames a product, withdraws one pack, recalls another, adds a pack and deletes a product
 * with its pack (CH), and deletes one pack and adds another (US).
 */
import type { Database } from '../../platform/db.ts';
import { completeGtin } from '../../vocabulary/check-digits.ts';
import { ingestSnapshots } from '../../workers/ingest/engine.ts';
import { SNAPSHOT_FORMAT } from '../../workers/ingest/snapshot.ts';
import type { PackEntry, ProductEntry, Snapshot } from '../../workers/ingest/snapshot.ts';

/** Ingest instants: the first snapshot, the second. */
export const T1 = '2031-01-10T12:00:00';
export const T2 = '2031-03-10T12:00:00';

const PARACETAMOL = '362O9ITL9D';
export const GTIN = {
  dolorex16: completeGtin('768060001001'),
  dolorex32: completeGtin('768060001002'),
  dolorex64: completeGtin('768060001003'),
  febrex: completeGtin('768060002001'),
};
export const NDC = { old: '12345067801', kept: '12345067802', added: '12345067803' };

function pack(key: string, system: 'gtin' | 'ndc11', units: number, extra: Partial<PackEntry> = {}): PackEntry {
  return {
    key, description: `${units} Stk`, units, unit: 'Stk', identifiers: [{ system, code: key }],
    prices: [{ amount: units / 4, currency: system === 'gtin' ? 'CHF' : 'USD', kind: 'public' }], ...extra,
  };
}

function product(key: string, country: 'CH' | 'US', name: string, packs: PackEntry[]): ProductEntry {
  return {
    key, country, product_name: name, atc_code: 'N02BE01', dose_form: 'tablet', route: 'oral',
    identifiers: [], ingredients: [{ unii: PARACETAMOL, strength_value: 500, strength_unit: 'mg' }], packs,
  };
}

function register(id: string, country: 'CH' | 'US', products: ProductEntry[], recalls: Snapshot['recalls'] = []): Snapshot {
  return {
    format: SNAPSHOT_FORMAT,
    source: { id, name: `As-of ${country}`, country, refresh_interval_hours: 24 * 365 },
    substances: [{ unii: PARACETAMOL, name: 'Paracetamol' }],
    products, recalls,
  };
}

function first(): Snapshot[] {
  return [
    register('asof-ch', 'CH', [
      product('60001', 'CH', 'Dolorex 500', [pack(GTIN.dolorex16, 'gtin', 16), pack(GTIN.dolorex32, 'gtin', 32)]),
      product('60002', 'CH', 'Febrex', [pack(GTIN.febrex, 'gtin', 10)]),
    ]),
    register('asof-us', 'US', [product('12345-678', 'US', 'Painaway', [pack(NDC.old, 'ndc11', 30), pack(NDC.kept, 'ndc11', 60)])]),
  ];
}

function second(): Snapshot[] {
  return [
    register('asof-ch', 'CH', [
      product('60001', 'CH', 'Dolorex forte 500', [
        pack(GTIN.dolorex16, 'gtin', 16, { marketing_status: 'withdrawn' }), pack(GTIN.dolorex32, 'gtin', 32), pack(GTIN.dolorex64, 'gtin', 64),
      ]),
    ], [{ key: 'R-2031-7', product_key: '60001', country: 'CH', published_on: '2031-03-09', reason: 'Contamination', level: 'B', pack_keys: [GTIN.dolorex32] }]),
    register('asof-us', 'US', [product('12345-678', 'US', 'Painaway Extra', [pack(NDC.kept, 'ndc11', 60), pack(NDC.added, 'ndc11', 90)])]),
  ];
}

/** Ingests both snapshots, the first stamped T1 and the second T2 (UTC). */
export async function ingestHistory(db: Database): Promise<void> {
  await ingestSnapshots(db, first(), { now: () => new Date(`${T1}Z`) });
  await ingestSnapshots(db, second(), { now: () => new Date(`${T2}Z`) });
}
