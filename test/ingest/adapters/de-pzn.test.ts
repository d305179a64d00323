import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseDePzn, pznOf } from '../../../workers/ingest/adapters/de-pzn.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const festbetraege = () => ({ name: 'festbetraege.csv', content: readFileSync(new URL('../../fixtures/registers/de-pzn/festbetraege.csv', import.meta.url)) });

/** A price list as xlsx (no Festbetrag column), title rows above the header, PZNs as numbers. */
async function priceList(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Befreiungsliste');
  sheet.getRow(1).values = ['Zuzahlungsbefreite Arzneimittel nach § 31 Abs. 3 Satz 4 SGB V'];
  sheet.getRow(2).values = ['Stand: 15.11.2026'];
  sheet.getRow(4).values = ['PZN', 'Arzneimittelname', 'Hersteller', 'Wirkstoff', 'Packungsgröße', 'Darreichungsform', 'Preis (AVP)'];
  sheet.getRow(5).values = [4884562, 'ACC akut 600 Brausetabletten', 'Hexal AG', 'Acetylcystein', 20, 'BTA', 13.97];
  sheet.getRow(6).values = [123458, 'IBU-ratiopharm 400 mg Filmtabletten', 'ratiopharm GmbH', 'Ibuprofen', 20, 'FTA', 11.15];
  sheet.getRow(7).values = ['PZN-12345679', 'Falsch 1 mg', 'X', 'X', 1, 'TAB', 1];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const festbetragList = await parseDePzn(festbetraege());

describe('de-pzn adapter: the Festbetrag overview (CSV, Windows-1252, German decimals)', () => {
  const { snapshot, problems, files } = festbetragList;
  const pack = (pzn: string) => snapshot.products?.flatMap((p) => p.packs).find((k) => k.key === pzn);

  it('reads the list below its title rows, as source de-festbetrag in country DE', () => {
    expect(snapshot.source).toMatchObject({ id: 'de-festbetrag', country: 'DE' });
    expect(files).toEqual([{ file: 'festbetraege.csv', role: 'Festbetragsarzneimittel', read: 6, kept: 4, malformed: 2 }]);
    expect(snapshot.products?.map((p) => [p.product_name, p.packs.map((k) => k.key)])).toEqual([
      ['ACC akut 600 Brausetabletten', ['04884562', '12345678']],
      ['IBU-ratiopharm 400 mg Filmtabletten', ['08123452', '00123458']],
    ]);
  });

  it('keys packs by PZN8: old 7-digit PZNs and numbers cut of their zeros are padded and verified', () => {
    expect(pack('08123452')?.identifiers).toEqual([{ system: 'pzn', code: '08123452' }]);
    expect(pack('00123458')).toBeDefined();
    expect(pznOf('4884562')).toBe('04884562');
    expect(pznOf('PZN-04884562')).toBe('04884562');
    expect(pznOf('04884563')).toBeNull();
  });

  it('carries the Festbetrag as a reimbursed price and the AVP as the public price, dated by the Stand', () => {
    expect(pack('04884562')).toMatchObject({
      description: '20 BTA', units: 20, unit: 'BTA',
      prices: [
        { amount: 14.35, currency: 'EUR', kind: 'reimbursed', valid_from: '2026-11-01' },
        { amount: 13.97, currency: 'EUR', kind: 'public', valid_from: '2026-11-01' },
      ],
    });
    expect(snapshot.products?.[0]).toMatchObject({
      country: 'DE', dose_form: 'BTA', ingredients: [{ unii: 'name:ACETYLCYSTEIN' }],
      attributes: { festbetragsgruppe: 'Acetylcystein, Gruppe 1', festbetragsstufe: '1', wirkstoffmenge: '600' },
    });
    expect(snapshot.substances).toContainEqual({ unii: 'name:IBUPROFEN', name: 'Ibuprofen', names: { de: 'Ibuprofen' }, provisional: true });
  });

  it('reports a bad check digit and an unreadable Festbetrag as row problems', () => {
    expect(problems).toEqual([
      { file: 'festbetraege.csv', line: 8, message: 'PZN "17000287" is not a valid PZN (check digit)' },
      { file: 'festbetraege.csv', line: 9, message: 'PZN 03456781: Festbetrag "k.A." is not an amount in EUR' },
    ]);
  });

  it('rejects a file without a PZN header', async () => {
    await expect(parseDePzn({ name: 'x.csv', content: Buffer.from('Name;Preis\nA;1,00\n') })).rejects.toThrow(FileRejectedError);
  });
});

describe('de-pzn adapter: a price list as xlsx', () => {
  it('reads AVP prices as public prices of source de-pzn, PZN numbers padded back to eight digits', async () => {
    const { snapshot, problems } = await findAdapter('de-pzn')!.parse([{ name: 'befreiungsliste.xlsx', content: await priceList() }]);
    expect(snapshot.source.id).toBe('de-pzn');
    const packs = snapshot.products?.flatMap((p) => p.packs);
    expect(packs?.map((p) => [p.key, p.prices])).toEqual([
      ['04884562', [{ amount: 13.97, currency: 'EUR', kind: 'public' }]],
      ['00123458', [{ amount: 11.15, currency: 'EUR', kind: 'public' }]],
    ]);
    expect(snapshot.products?.[0]?.holder).toBe('Hexal AG');
    expect(problems).toEqual([{ file: 'befreiungsliste.xlsx', line: 7, message: 'PZN "PZN-12345679" is not a valid PZN (check digit)' }]);
  });
});

const fixture = (name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/de-pzn/${name}`, import.meta.url)) });

describe('de-pzn adapter: a price list naming its articles "Handelsname", pack and strength only in the text', async () => {
  const { snapshot, problems, files } = await parseDePzn(fixture('preisliste-handelsname.csv'));
  const product = (name: string) => snapshot.products?.find((p) => p.product_name === name);

  it('reads pack size and Normgröße from the text (`30 St N1`, `5X10 St N2`) and keeps the pack sizes of one product together', () => {
    expect(product('Ibuprofen AbZ 400 mg Filmtabletten')).toMatchObject({
      dose_form: 'Filmtabletten', holder: 'AbZ-Pharma GmbH', attributes: { wirkstoffmenge: '400 mg' },
      packs: [
        { key: '10000018', description: '30 St Filmtabletten N1', units: 30, unit: 'St', prices: [{ amount: 5.79, currency: 'EUR', kind: 'public' }] },
        { key: '10000024', description: '50 St Filmtabletten N2', units: 50, unit: 'St', prices: [{ amount: 7.42, currency: 'EUR', kind: 'public' }] },
      ],
    });
    expect(product('Ibuprofen AbZ 600 mg Filmtabletten')?.attributes).toEqual({ wirkstoffmenge: '600 mg' });
  });

  it('reads a strength per volume, and takes no strength from a pack quantity (`; 100 g`)', () => {
    expect(product('Novaminsulfon Lichtenstein 500 mg/ml Tropfen')).toMatchObject({
      dose_form: 'Tropfen', attributes: { wirkstoffmenge: '500 mg/ml' }, packs: [{ units: 100, unit: 'ml', description: '100 ml Tropfen N3' }],
    });
    expect(product('Bepanthen Wund- und Heilsalbe')).toMatchObject({ dose_form: 'Heilsalbe', packs: [{ units: 100, unit: 'g' }] });
    expect(product('Bepanthen Wund- und Heilsalbe')?.attributes).toBeUndefined();
    expect(snapshot.products?.every((p) => p.ingredients.length === 0)).toBe(true);
  });

  it('reports the bad check digit and counts the rows', () => {
    expect(problems).toEqual([{ file: 'preisliste-handelsname.csv', line: 9, message: 'PZN "10000059" is not a valid PZN (check digit)' }]);
    expect(files).toEqual([{ file: 'preisliste-handelsname.csv', role: 'Preisliste (AVP)', read: 6, kept: 5, malformed: 1 }]);
  });
});

describe('de-pzn adapter: a fixed-width list (Windows-1252, columns under a header, a ruler and a footer)', async () => {
  const { snapshot, problems } = await parseDePzn(fixture('pzn-liste-festbreite.txt'));
  const pack = (pzn: string) => snapshot.products?.flatMap((p) => p.packs).find((k) => k.key === pzn);

  it('cuts the columns at the header titles, a right-aligned price included', () => {
    expect(snapshot.products?.map((p) => p.product_name)).toEqual([
      'ACC akut 600 Brausetabletten', 'Ibuprofen 400 mg Filmtabletten', 'Otriven 0,1 % Nasenspray für Erwachsene', 'Paracetamol-ratiopharm 500 mg Tabletten',
    ]);
    expect(pack('01234562')).toMatchObject({ units: 50, unit: 'St', prices: [{ amount: 9.85, currency: 'EUR', kind: 'public' }] });
    expect(pack('11111116')).toMatchObject({ units: 10, unit: 'ml', prices: [{ amount: 4.49 }] });
    expect(snapshot.products?.find((p) => p.product_name.startsWith('Otriven'))).toMatchObject({ dose_form: 'Nasenspray', attributes: { wirkstoffmenge: '0,1 %' } });
  });

  it('reports the row with a bad check digit and the footer line with their lines', () => {
    expect(problems).toEqual([
      { file: 'pzn-liste-festbreite.txt', line: 9, message: 'PZN "1234567" is not a valid PZN (check digit)' },
      { file: 'pzn-liste-festbreite.txt', line: 11, message: '"3 Artikel" is not a PZN (a footer or note line?)' },
    ]);
  });
});

describe('de-pzn through the ingest engine', () => {
  let db: Database;
  beforeAll(async () => { db = await openTestDatabase(); });
  afterAll(() => db.close());

  it('stores DE packs findable by PZN with both prices; a second ingest writes nothing', async () => {
    const { snapshot } = await parseDePzn(festbetraege());
    const report = await ingestSnapshot(db, snapshot);
    expect(report.tables).toMatchObject({ products: { insert: 2 }, packs: { insert: 4 } });
    const { rows } = await db.query<{ country: string; kinds: string[] }>(
      `SELECT pr.country, array_agg(pp.kind ORDER BY pp.kind) AS kinds FROM identifiers i JOIN packs k ON k.id = i.pack_id
         JOIN products pr ON pr.id = k.product_id JOIN pack_prices pp ON pp.pack_id = k.id
        WHERE i.system = 'pzn' AND i.code = '08123452' GROUP BY pr.country`);
    expect(rows).toEqual([{ country: 'DE', kinds: ['public', 'reimbursed'] }]);
    expect((await ingestSnapshot(db, snapshot)).changes).toBe(0);
  });
});
