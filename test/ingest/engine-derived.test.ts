import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { medicineSignature, normaliseDoseForm, normaliseRoute, normaliseStrength, substanceSignature } from '../../workers/ingest/signatures.ts';
import type { Snapshot } from '../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../helpers/db.ts';
import { chSnapshot, PARACETAMOL } from './snapshots.ts';

describe('equivalence signatures', () => {
  it('folds dose forms of several registers to one term', () => {
    expect(['Filmtabl', 'comprimé pelliculé', 'TABLET, FILM COATED', 'cpr pell'].map(normaliseDoseForm)).toEqual(['tablet', 'tablet', 'tablet', 'tablet']);
    expect(['Kaps', 'gélule', 'CAPSULE'].map(normaliseDoseForm)).toEqual(['capsule', 'capsule', 'capsule']);
    expect(normaliseDoseForm('Brausetabl')).toBe('effervescent tablet');
    expect(normaliseDoseForm('TABLET, EXTENDED RELEASE')).toBe('prolonged-release tablet');
    expect(normaliseDoseForm('suspension injectable')).toBe('injection');
    expect(normaliseDoseForm(undefined)).toBeNull();
  });

  it('folds routes, sorts several, and implies a missing route from the form', () => {
    expect(normaliseRoute('ORAL', 'tablet')).toBe('oral');
    expect(normaliseRoute('intramusculaire;sous-cutanée', 'injection')).toBe('intramuscular,subcutaneous');
    expect(normaliseRoute(null, 'prolonged-release tablet')).toBe('oral');
    expect(normaliseRoute(undefined, 'eye drops')).toBe('ophthalmic');
    expect(normaliseRoute(undefined, null)).toBeNull();
  });

  it('compares strengths in mg', () => {
    expect(normaliseStrength(1, 'g')).toBe('1000mg');
    expect(normaliseStrength(200, 'mg/1')).toBe('200mg');
    expect(normaliseStrength(40, 'microgrammes')).toBe('0.04mg');
    expect(normaliseStrength(5, 'mg/ml')).toBe('5mg/ml');
    expect(normaliseStrength(null, 'mg')).toBeNull();
  });

  it('builds order-independent signatures and none without ingredients', () => {
    const a = { moiety: 'B', value: 10, unit: 'mg' };
    const b = { moiety: 'A', value: 0.5, unit: 'g' };
    expect(substanceSignature([a, b, a])).toBe('A+B');
    expect(medicineSignature([a, b], 'Filmtabl', undefined)).toBe('A:500mg+B:10mg|tablet|oral');
    expect(medicineSignature([b, a], 'comprimé pelliculé', 'orale')).toBe(medicineSignature([a, b], 'Filmtabl', undefined));
    expect(substanceSignature([])).toBeNull();
    expect(medicineSignature([], 'tablet', 'oral')).toBeNull();
  });
});

describe('derived product columns through the engine', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  const columns = (key: string) => db.query<{ rate: string | null; substance_signature: string; medicine_signature: string }>(
    'SELECT reimbursement_rate_percent::text AS rate, substance_signature, medicine_signature FROM products WHERE natural_key = $1', [key]);

  it('refreshes a product rate from its packs with one pack update and no product change', async () => {
    const snapshot = chSnapshot();
    snapshot.products![0]!.packs[0]!.reimbursement_rate_percent = 65;
    await ingestSnapshot(db, snapshot);
    expect((await columns('65317')).rows[0]!.rate).toBe('65');
    snapshot.products![0]!.packs[0]!.reimbursement_rate_percent = 30;
    const report = await ingestSnapshot(db, snapshot);
    expect(report.changes).toBe(1);
    expect(report.tables.packs.update).toBe(1);
    expect(report.tables.products.update).toBe(0);
    expect((await columns('65317')).rows[0]!.rate).toBe('30');
  });

  it('folds a salt to its moiety and re-signs products of other sources when the substance changes', async () => {
    const salt = 'X9X9X9X9X9';
    const substances: Snapshot = {
      format: 'drugref-snapshot/1',
      source: { id: 'test-substances', name: 'Substances', country: null, refresh_interval_hours: 24 },
      substances: [{ unii: salt, name: 'Paracetamol salt', provisional: true }],
    };
    await ingestSnapshot(db, substances);
    const products = chSnapshot();
    products.source = { id: 'test-salt', name: 'Salt products', country: 'CH', refresh_interval_hours: 24 };
    products.substances = [];
    products.classes = [];
    products.products = [products.products![0]!];
    products.products[0]!.key = '99999';
    products.products[0]!.packs[0]!.key = '7680999990010';
    products.products[0]!.ingredients = [{ unii: salt, strength_value: 500, strength_unit: 'mg' }];
    await ingestSnapshot(db, products);
    // A provisional key no UNII names yet signs with its normalised INN name (write-links.ts).
    expect((await columns('99999')).rows[0]!.substance_signature).toBe('inn:paracetamol salt');
    substances.substances![0]!.moiety_unii = PARACETAMOL;
    const report = await ingestSnapshot(db, substances);
    expect(report.changes).toBe(1);
    expect((await columns('99999')).rows[0]).toMatchObject({ substance_signature: PARACETAMOL, medicine_signature: `${PARACETAMOL}:500mg|tablet|oral` });
  });
});
