/**
 * de-pzn on German lists as they were published (real files, original bytes; see
 * test/fixtures/registers/de-pzn/real/SOURCE.md): the GKV co-payment-exempt list as text from
 * its PDF, and de.oddb.org's article export `products.csv`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { parseDePzn } from '../../../workers/ingest/adapters/de-pzn.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const REAL = new URL('../../fixtures/registers/de-pzn/real/', import.meta.url);
const GKV = 'gkv_zuzahlungsbefreit_2009-09_p1.txt';
const bytes = (name: string): Buffer => readFileSync(new URL(name, REAL));
const input = (name: string): InputFile => ({ name, content: bytes(name) });
const DEFAULT_LIMITS = { maxDeletePercent: 20, maxSkippedPercent: 10 };

describe('de-pzn on the GKV co-payment-exempt list as text (title lines, a split two-line header, cells by runs of spaces)', async () => {
  const { snapshot, problems, files } = await parseDePzn(input(GKV));
  const text = bytes(GKV).toString('latin1');
  const pack = (pzn: string) => snapshot.products?.flatMap((p) => p.packs).find((k) => k.key === pzn);
  const productOf = (pzn: string) => snapshot.products?.find((p) => p.packs.some((k) => k.key === pzn));

  it('reads every pack line below the header; the page footer is no row', () => {
    expect(files).toEqual([{ file: GKV, role: 'Preisliste (AVP)', read: 11, kept: 10, malformed: 0, excluded: { not_data: 1 } }]);
    expect(problems).toEqual([]);
    expect(snapshot.source.id).toBe('de-pzn');
    expect(snapshot.products?.flatMap((p) => p.packs.map((k) => k.key))).toEqual([
      '04000646', '04000652', '04000669', '04000681', '04000698', '04000729', '04000735', '03867219', '03867225', '04789763',
    ]);
  });

  it('reads a pack line as printed: PZN, AVP dated by the Produktstand, pack count, dose form, holder', () => {
    expect(text).toContain('Produktstand   01.09.2009\n');
    expect(text).toMatch(/\nACC 200 {2,}3867219 {2,}HEXAL AG {2,}Acetylcystein {2,}200 {2,}mg {2,}50 {2,}St {2,}Brausetabletten {2,}12,74\n/);
    expect(pack('03867219')).toEqual({
      key: '03867219', description: '50 St Brausetabletten', units: 50, unit: 'St',
      identifiers: [{ system: 'pzn', code: '03867219' }], prices: [{ amount: 12.74, currency: 'EUR', kind: 'public', valid_from: '2009-09-01' }],
    });
    expect(productOf('03867219')).toMatchObject({
      product_name: 'ACC 200', holder: 'HEXAL AG', dose_form: 'Brausetabletten',
      ingredients: [{ unii: 'name:ACETYLCYSTEIN', strength_value: 200, strength_unit: 'mg', strength_text: '200 mg' }],
    });
    // The three ACC 200 packs are one product.
    expect(productOf('03867219')?.packs.map((k) => [k.key, k.units])).toEqual([['03867219', 50], ['03867225', 100], ['04789763', 20]]);
  });

  it('reads a size of several parts as written and counts its content (6X0.5 ml: 3 ml), units in I.E.', () => {
    expect(text).toMatch(/\nABSEAMED 1000I\.E\.\/0\.5ML {2,}4000646 {2,}MEDICE ARZN\.GMBH&CO\.KG {2,}Epoetin alfa {2,}1000 {2,}I\.E\. {2,}6X0\.5 {2,}ml {2,}Fertigspritzen {2,}64,20\n/);
    expect(pack('04000646')).toMatchObject({ description: '6X0.5 ml Fertigspritzen', units: 3, unit: 'ml', prices: [{ amount: 64.2 }] });
    expect(productOf('04000646')?.ingredients).toEqual([{ unii: 'name:EPOETIN ALFA', strength_value: 1000, strength_unit: 'I.E.', strength_text: '1000 I.E.' }]);
    expect(snapshot.substances?.map((s) => s.name)).toEqual(['Epoetin alfa', 'Acetylcystein']);
  });

  it('is ingested with the default limits and refuses a cut-short copy, another register\'s file and an empty file, writing nothing', async () => {
    const db: Database = await openTestDatabase();
    try {
      const ok = await parseAndIngest(db, 'de-pzn', [input(GKV)], { strict: true, shrink: DEFAULT_LIMITS });
      expect(ok).toMatchObject({ outcome: 'ok', rows: { read: 11, kept: 10, malformed: 0, excluded: 1 } });
      const count = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs`)).rows[0]!.n;
      expect(await count()).toBe(10);
      const whole = bytes(GKV);
      const headerOnly = whole.subarray(0, whole.indexOf('ABSEAMED'));
      const cut = await parseAndIngest(db, 'de-pzn', [{ name: GKV, content: headerOnly }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(cut).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/no header row with a PZN column|no usable PZN rows/) });
      const who = readFileSync(new URL('../../fixtures/registers/who-atc/real/WHO_ATC_DDD_2026-07-14.csv', import.meta.url));
      const other = await parseAndIngest(db, 'de-pzn', [{ name: 'WHO_ATC_DDD_2026-07-14.csv', content: who }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(other).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/no header row with a PZN column/) });
      const empty = await parseAndIngest(db, 'de-pzn', [{ name: GKV, content: Buffer.alloc(0) }], { strict: false, shrink: DEFAULT_LIMITS });
      expect(empty).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/no header row with a PZN column/) });
      expect(await count()).toBe(10);
    } finally {
      await db.close();
    }
  });
});

describe('de-pzn on de.oddb.org\'s products.csv (Langname, AVK_netto with its VAT class, ISO-8859-1)', async () => {
  const { snapshot, problems, files } = await parseDePzn(input('products.csv'));
  const text = bytes('products.csv').toString('latin1');
  const pack = (pzn: string) => snapshot.products?.flatMap((p) => p.packs).find((k) => k.key === pzn);
  const productOf = (pzn: string) => snapshot.products?.find((p) => p.packs.some((k) => k.key === pzn));

  it('reads every article', () => {
    expect(files).toEqual([{ file: 'products.csv', role: 'Preisliste (AVP)', read: 10, kept: 10, malformed: 0 }]);
    expect(problems).toEqual([]);
    expect(text.startsWith('"Pharmazentralnummer";"Langname";"Verschreibungspflicht";"Menge der Packungsgröße";"Einheit der Packungsgröße";"Darreichung";"AVK_netto"')).toBe(true);
  });

  it('gives the AVP with VAT: AVK_netto plus 19 % for VAT class 1 (18.9076 → 22.50)', () => {
    expect(text).toContain('"8999552";"BIOTIN HERMES 2,5 mg Tabletten";"Rezeptfrei";"90";"St";"Tabletten";18.9076;17.0168;"1";"HERMES ARZNEIM. GMBH"');
    expect(pack('08999552')).toEqual({
      key: '08999552', description: '90 St Tabletten', units: 90, unit: 'St', identifiers: [{ system: 'pzn', code: '08999552' }],
      prices: [{ amount: 22.5, currency: 'EUR', kind: 'public' }],
    });
    expect(productOf('08999552')).toMatchObject({ product_name: 'BIOTIN HERMES 2,5 mg Tabletten', holder: 'HERMES ARZNEIM. GMBH', dispensing_category: 'Rezeptfrei', attributes: { wirkstoffmenge: '2,5 mg' } });
    // An article without a price (AVK_netto 0.0000) keeps its pack, with no price.
    expect(text).toContain('"8999492";"KRANKENRING Bezug rund";"Rezeptfrei";"1";"St";;0.0000;');
    expect(pack('08999492')?.prices).toEqual([]);
  });

  it('reads sizes given as parts with their unit column (5X10 St: 50 St), old 7-digit PZNs padded', () => {
    expect(text).toContain('"2092271";"VOLTAREN 100 Zaepfchen";"Rezeptpflichtig";"5X10";"St";"Suppositorien";28.6303;');
    expect(pack('02092271')).toMatchObject({ description: '5X10 St Suppositorien', units: 50, unit: 'St', prices: [{ amount: 34.07 }] });
    expect(productOf('02092271')?.dispensing_category).toBe('Rezeptpflichtig');
    expect(pack('00225437')).toMatchObject({ units: 10, unit: 'ml', prices: [{ amount: 41.63 }] });
  });
});

describe('de-pzn: ingredients of a combination written out, pack count from the name', () => {
  it('gives each substance of `Allopurinol 100 mg + Benzbromaron 20 mg` its strength and reads `30 St`', async () => {
    const csv = 'PZN;Arzneimittelname;Hersteller;Wirkstoff;Preis (AVP)\n2542946;ALLO COMP RATIOPH Tabletten 30 St;ratiopharm GmbH;Allopurinol 100 mg + Benzbromaron 20 mg;12,80\n'
      + '2542952;Allopurinol 100 mg + Benzbromaron 20 mg Tabletten 100 St;X;;20,00\n';
    const { snapshot, files } = await parseDePzn({ name: 'liste.csv', content: Buffer.from(csv, 'latin1') });
    expect(files).toEqual([{ file: 'liste.csv', role: 'Preisliste (AVP)', read: 2, kept: 2, malformed: 0 }]);
    const both = [
      { unii: 'name:ALLOPURINOL', strength_value: 100, strength_unit: 'mg', strength_text: '100 mg' },
      { unii: 'name:BENZBROMARON', strength_value: 20, strength_unit: 'mg', strength_text: '20 mg' },
    ];
    expect(snapshot.products?.map((p) => [p.product_name, p.ingredients, p.packs.map((k) => [k.units, k.unit])])).toEqual([
      ['ALLO COMP RATIOPH Tabletten', both, [[30, 'St']]],
      ['Allopurinol 100 mg + Benzbromaron 20 mg Tabletten', both, [[100, 'St']]],
    ]);
  });
});
