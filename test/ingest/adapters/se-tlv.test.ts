import { readFileSync, readdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { parseSeTlv, parseSeTlvFiles } from '../../../workers/ingest/adapters/se-tlv.ts';

const NPL_DIR = new URL('../../fixtures/registers/se-tlv/npl/', import.meta.url);
const nplFiles = () => readdirSync(NPL_DIR).sort().map((name) => ({ name, content: readFileSync(new URL(name, NPL_DIR)) }));
const csv = () => ({ name: 'tlv_lakemedel.csv', content: readFileSync(new URL('../../fixtures/registers/se-tlv/tlv_lakemedel.csv', import.meta.url)) });

/** An older xlsx export: other header wording, numbers and dates as cells, Varunummer cut of its zero. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Läkemedel');
  sheet.getRow(1).values = ['Sökresultat från TLV:s databas'];
  sheet.getRow(3).values = ['Varunr', 'Namn', 'Styrka', 'Läkemedelsform', 'Förpackning', 'AIP (SEK)', 'AUP (SEK)', 'NPL pack id', 'Gäller från'];
  sheet.getRow(4).values = [47829, 'Metformin Teva', '500 mg', 'Filmdragerad tablett', 'Blister, 100 tabletter', 45.5, 83.25, '20050216100245', new Date(Date.UTC(2026, 10, 1))];
  sheet.getRow(5).values = [405122, 'Eliquis', '5 mg', 'Filmdragerad tablett', 'Blister, 60 tabletter', 1029.66, 1096.13, '2011061310004', undefined];
  return Buffer.from(await book.xlsx.writeBuffer());
}

const result = await parseSeTlv(csv());
const packs = () => result.snapshot.products!.flatMap((p) => p.packs);
const pack = (key: string) => packs().find((p) => p.key === key);

describe('se-tlv adapter: TLV price list (CSV, Windows-1252, CRLF, title rows, decimal commas)', () => {
  it('reads the list below its title rows as source se-tlv in SE, one product per NPL-id', () => {
    expect(result.snapshot.source).toMatchObject({ id: 'se-tlv', country: 'SE' });
    expect(result.files).toEqual([{ file: 'tlv_lakemedel.csv', role: 'TLV läkemedel', read: 9, kept: 6, malformed: 3 }]);
    expect(result.snapshot.products!.map((p) => [p.key, p.packs.map((k) => k.key)])).toEqual([
      ['20050120000091', ['047829', '163521']],
      ['20101207000017', ['405122']],
      ['20090318000046', ['112467']],
      ['20000609000058', ['521493']],
      ['19930101000026', ['138602']],
    ]);
  });

  it('maps the product: name with strength and form, ATC, holder, NPL-id, substance in Swedish and förmånsstatus', () => {
    expect(result.snapshot.products![0]).toMatchObject({
      country: 'SE', product_name: 'Metformin Teva 500 mg Filmdragerad tablett', brand: 'Metformin Teva', dose_form: 'Filmdragerad tablett',
      atc_code: 'A10BA02', holder: 'Teva Sweden AB', identifiers: [{ system: 'se_npl_id', code: '20050120000091' }],
      ingredients: [{ unii: 'name:METFORMINHYDROKLORID', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      attributes: { styrka: '500 mg', formansstatus: 'Beviljad' },
    });
    expect(result.snapshot.products!.find((p) => p.brand === 'Lantus')?.attributes?.formansstatus).toBe('Begränsad');
    expect(result.snapshot.products!.find((p) => p.brand === 'Laktulos Meda')?.atc_code).toBeUndefined();
    expect(result.snapshot.substances).toContainEqual({ unii: 'name:APIXABAN', name: 'Apixaban', names: { sv: 'Apixaban' }, provisional: true });
  });

  it('keys packs by Varunummer with the NPL pack id, AIP as ex_factory and AUP as public in SEK, dated', () => {
    expect(pack('405122')).toEqual({
      key: '405122', description: 'Blister, 60 tabletter', units: 60, unit: 'tabletter',
      identifiers: [{ system: 'se_varunummer', code: '405122' }, { system: 'se_npl_pack_id', code: '20110613100044' }],
      prices: [
        { amount: 1029.66, currency: 'SEK', kind: 'ex_factory', valid_from: '2026-11-01' },
        { amount: 1096.13, currency: 'SEK', kind: 'public', valid_from: '2026-11-01' },
      ],
    });
    expect(pack('521493')).toMatchObject({ description: 'Förfylld injektionspenna, 5 x 3 ml', units: 15, unit: 'ml' });
    expect(pack('138602')).toMatchObject({ units: 500, unit: 'ml' });
  });

  it('reports a malformed Varunummer, an unreadable AUP and a short row with their lines', () => {
    expect(result.problems).toEqual([
      { file: 'tlv_lakemedel.csv', line: 11, message: 'Varunummer "12A45" is not a 6-digit Varunummer' },
      { file: 'tlv_lakemedel.csv', line: 12, message: 'AUP "ej fastställt" is not an amount in SEK' },
      { file: 'tlv_lakemedel.csv', line: 13, message: '3 fields where the header names 15' },
    ]);
  });

  it('reads an xlsx export with older header wording; a Varunummer cut of its leading zero is restored', async () => {
    const { snapshot, problems } = await findAdapter('se-tlv')!.parse([{ name: 'export.xlsx', content: await workbook() }]);
    expect(snapshot.products!.flatMap((p) => p.packs).map((p) => [p.key, p.prices])).toEqual([
      ['047829', [
        { amount: 45.5, currency: 'SEK', kind: 'ex_factory', valid_from: '2026-11-01' },
        { amount: 83.25, currency: 'SEK', kind: 'public', valid_from: '2026-11-01' },
      ]],
    ]);
    expect(problems).toEqual([{ file: 'export.xlsx', line: 5, message: 'Varunummer 405122: NPL pack id "2011061310004" is not a 14-digit NPL id' }]);
  });

  it('excludes a Varunummer listed again as a duplicate (the first row kept), not as malformed', async () => {
    const { content } = csv();
    const lines = content.toString('latin1').split('\r\n');
    const first = lines.find((l) => l.includes(';047829;'))!;
    const twice = await parseSeTlv({ name: 'tlv_lakemedel.csv', content: Buffer.from([...lines.slice(0, -1), first, ''].join('\r\n'), 'latin1') });
    expect(twice.files).toEqual([{ file: 'tlv_lakemedel.csv', role: 'TLV läkemedel', read: 10, kept: 6, malformed: 3, excluded: { duplicate: 1 } }]);
    expect(twice.problems).toHaveLength(3);
  });

  it('reads the column names of TLV\'s open-data download (NPL id, NPL pack-id, AIP/AUP per st beside AIP/AUP)', async () => {
    // Hand-written: the header as readers of tlv.se/file/medprice name it (no copy of the file was found).
    const header = 'Produktnamn;Varunummer;ATC-kod;NPL id;NPL pack-id;Form;Styrka;Förpackning;Antal;Företag;AIP;AUP;AIP per st;AUP per st;Subventionerad';
    const row = 'Metformin Teva;047829;A10BA02;20050120000091;20050216100245;Filmdragerad tablett;500 mg;Blister;100 tabletter;Teva Sweden AB;45,50;83,25;0,46;0,83;Ja';
    const { snapshot, files } = await parseSeTlv({ name: 'medprice.csv', content: Buffer.from(`${header}\r\n${row}\r\n`, 'utf8') });
    expect(files).toEqual([{ file: 'medprice.csv', role: 'TLV läkemedel', read: 1, kept: 1, malformed: 0 }]);
    expect(snapshot.products![0]!.packs[0]).toMatchObject({
      key: '047829', identifiers: [{ system: 'se_varunummer', code: '047829' }, { system: 'se_npl_pack_id', code: '20050216100245' }],
      prices: [expect.objectContaining({ kind: 'ex_factory', amount: 45.5 }), expect.objectContaining({ kind: 'public', amount: 83.25 })],
    });
  });

  it('rejects a file without a Varunummer header', async () => {
    await expect(parseSeTlv({ name: 'x.csv', content: Buffer.from('Namn;Pris\r\nA;1,00\r\n') })).rejects.toThrow(FileRejectedError);
  });
});

describe('se-tlv adapter: Läkemedelsverket NPL product files beside the list', () => {
  const joined = async () => parseSeTlvFiles([csv(), ...nplFiles()]);

  it('reads one product per NPL file (namespaces urn:schemas-npl) and reports an unusable one with its line', async () => {
    const { files, problems } = await joined();
    expect(files).toEqual([
      { file: 'tlv_lakemedel.csv', role: 'TLV läkemedel', read: 9, kept: 6, malformed: 3 },
      { file: '10010101000011.xml and 5 more NPL files', role: 'NPL medprod', read: 6, kept: 5, malformed: 1 },
    ]);
    expect(problems.at(-1)).toEqual({ file: '20991231X00001.xml', line: 3, message: 'nplid "20991231X00001" is not a 14-digit NPL id' });
  });

  it('adds NPL facts to the TLV product of the same NPL-id, and its packages TLV does not list', async () => {
    const products = (await joined()).snapshot.products!;
    const metformin = products.find((p) => p.key === '20050120000091')!;
    expect(metformin.attributes).toEqual({ styrka: '500 mg', formansstatus: 'Beviljad', npl_lakemedelsform: 'FICOTA' });
    expect(metformin.packs.map((p) => [p.key, p.dispensing_category])).toEqual([
      ['047829', 'receptbelagd'], ['163521', 'receptbelagd'], ['20050216100276', 'receptbelagd'],
    ]);
    expect(metformin.packs[2]).toMatchObject({ description: 'Blister, 30 tabletter', units: 30, identifiers: [{ system: 'se_npl_pack_id', code: '20050216100276' }] });
    const ibuprofen = products.find((p) => p.key === '20090318000046')!;
    expect(ibuprofen).toMatchObject({ marketing_status: 'withdrawn', packs: [{ key: '112467', dispensing_category: 'receptfri', marketing_status: 'withdrawn' }] });
  });

  it('adds products TLV does not list: an OTC medicine, a licence product (1001 id) and a narcotic on list II', async () => {
    const products = (await joined()).snapshot.products!;
    expect(products.find((p) => p.key === '20130101000028')).toMatchObject({
      country: 'SE', product_name: 'Alvedon 500 mg', brand: 'Alvedon', atc_code: 'N02BE01', identifiers: [{ system: 'se_npl_id', code: '20130101000028' }],
      packs: [{ key: '20130115100016', description: 'Blister, 20 tabletter', units: 20, dispensing_category: 'receptfri' }],
    });
    expect(products.find((p) => p.key === '10010101000011')).toMatchObject({
      attributes: { npl_produktklass: 'LIC' }, packs: [{ key: '20131105100082', description: 'Licensförpackning' }],
    });
    expect(products.find((p) => p.key === '20180606000012')?.packs[0]).toMatchObject({ narcotic_list: 'II' });
  });

  it('refuses an XML file that is not an NPL product, and NPL files without a TLV list', async () => {
    const other = { name: '20050120000091.xml', content: Buffer.from('<?xml version="1.0"?>\n<medprod xmlns="urn:other"><nplid>20050120000091</nplid></medprod>') };
    await expect(parseSeTlvFiles([csv(), other])).rejects.toThrow(/not an NPL product document/);
    await expect(parseSeTlvFiles(nplFiles())).rejects.toThrow(FileRejectedError);
  });
});
