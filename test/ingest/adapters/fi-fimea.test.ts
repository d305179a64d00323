import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseFiFimea } from '../../../workers/ingest/adapters/fi-fimea.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import type { PackEntry } from '../../../workers/ingest/snapshot.ts';
import { normalisePackUnit } from '../../../vocabulary/pack-size.ts';

const fixture = (name: string) => ({ name, content: readFileSync(new URL(`../../fixtures/registers/fi-fimea/${name}`, import.meta.url)) });
const FILES = ['PAKKAUS.txt', 'LAAKEAINE.txt', 'kela_hinnat.txt'];

/** A later Kela export as xlsx: other header wording, the wholesale price and the reimbursement category. */
async function kelaWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hinnat');
  sheet.getRow(1).values = ['Vnr-numero', 'Lääkenimi', 'Tukkuhinta (VMH)', 'Vähittäismyyntihinta', 'Korvattavuus'];
  sheet.getRow(2).values = [46718, 'Metformin Orion', 4.12, 7.45, 'Peruskorvattava'];
  sheet.getRow(3).values = ['161064', 'Eliquis', 60.5, 84.37, '100 %'];
  sheet.getRow(4).values = ['096583', 'Lantus', 45.1, 63.2, 'Alempi erityiskorvattava'];
  sheet.getRow(5).values = ['448597', 'Burana', 5, 12.3, 'ei'];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const result = await parseFiFimea(FILES.map(fixture));
const packs = (): PackEntry[] => result.snapshot.products!.flatMap((p) => p.packs);
const pack = (key: string) => packs().find((p) => p.key === key);
const product = (name: string) => result.snapshot.products!.find((p) => p.brand === name);

describe('fi-fimea adapter: Fimea basic register with Kela prices', () => {
  it('reads each file by its header (Windows ANSI, CRLF; UTF-16 with a title row) as source fi-fimea in FI', () => {
    expect(result.snapshot.source).toMatchObject({ id: 'fi-fimea', country: 'FI', url: 'https://fimea.fi/en/databases_and_registers/basic-register' });
    expect(result.files).toEqual([
      { file: 'PAKKAUS.txt', role: 'PAKKAUS', read: 8, kept: 6, malformed: 2 },
      { file: 'LAAKEAINE.txt', role: 'LAAKEAINE', read: 7, kept: 6, malformed: 0, excluded: { not_in_register: 1 } },
      { file: 'kela_hinnat.txt', role: 'Kela', read: 6, kept: 4, malformed: 1, excluded: { not_in_register: 1 } },
    ]);
    expect(result.snapshot.products!.map((p) => [p.key, p.packs.map((k) => k.key)])).toEqual([
      ['MT 13466|500 mg|tabletti, kalvopäällysteinen', ['28101', '28102']],
      ['EU/1/11/691|5 mg|tabletti, kalvopäällysteinen', ['31544']],
      ['MT 17035|400 mg|tabletti, kalvopäällysteinen', ['19877']],
      ['EU/1/00/134|100 yksikköä/ml|injektioneste, liuos', ['30561']],
      ['MT 29876|450 mg|tabletti, päällystetty', ['40112']],
    ]);
  });

  it('maps the product fields: names with ä and ö, strength, form, ATC, holder, authorisation and its status', () => {
    expect(product('Metformin Orion')).toMatchObject({
      country: 'FI', product_name: 'Metformin Orion 500 mg tabletti, kalvopäällysteinen', dose_form: 'tabletti, kalvopäällysteinen',
      atc_code: 'A10BA02', holder: 'Orion Oyj', authorised_on: '1997-11-20', authorisation_status: 'Voimassa',
      identifiers: [{ system: 'fi_myyntilupa', code: '13466' }],
      ingredients: [{ unii: 'name:METFORMIINIHYDROKLORIDI', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      attributes: { vahvuus: '500 mg', substituutioryhma: '1087' },
    });
    expect(product('Burana')).toMatchObject({ authorised_on: '2005-01-12', previous_names: [{ name: 'Burana-Caps' }], marketing_status: 'withdrawn' });
    expect(product('Metformin Orion')?.marketing_status).toBe('active');
    expect(product('Valerian Herbapharm')?.atc_code).toBeUndefined();
    expect(result.snapshot.substances).toContainEqual({ unii: 'name:APIKSABAANI', name: 'apiksabaani', names: { fi: 'apiksabaani' }, provisional: true });
  });

  it('keys a centrally authorised product by its EU number and finds its pack by the EU pack number as well', () => {
    expect(product('Eliquis')?.identifiers).toEqual([{ system: 'eu_number', code: 'EU/1/11/691' }]);
    expect(pack('31544')?.identifiers).toEqual([
      { system: 'fi_vnr', code: '161064' }, { system: 'eu_number', code: 'EU/1/11/691/006' }, { system: 'fi_myyntilupa', code: 'EU/1/11/691/006' },
    ]);
  });

  it('maps packs: Vnr with its leading zero, KOKO × KERROIN units (decimal comma), market status and prescription status', () => {
    expect(pack('28101')).toMatchObject({ description: '100 fol', units: 100, unit: 'kpl', marketing_status: 'active', dispensing_category: 'R' });
    expect(pack('28101')?.identifiers).toEqual([{ system: 'fi_vnr', code: '046718' }]);
    expect(pack('28102')).toMatchObject({ description: '3 x 100 fol', units: 300, unit: 'kpl' });
    expect(pack('30561')).toMatchObject({ description: '5 x 3 ml', units: 15, unit: 'ml' });
    expect(pack('19877')).toMatchObject({ marketing_status: 'withdrawn', dispensing_category: 'K' });
    expect(pack('40112')?.identifiers).toEqual([]);
  });

  it('reads Fimea\'s unit kpl as pieces, so price per DDD can count the tablets of a pack', () => {
    expect(normalisePackUnit(pack('28102')!.unit!)).toMatchObject({ unit: 'piece', kind: 'form' });
  });

  it('attaches Kela prices in EUR by Vnr: retail as public, the reference price as reimbursed; "poistumassa" kept', () => {
    expect(pack('28101')?.prices).toEqual([
      { amount: 7.45, currency: 'EUR', kind: 'public' }, { amount: 7.9, currency: 'EUR', kind: 'reimbursed' },
    ]);
    expect(pack('31544')?.prices).toEqual([{ amount: 84.37, currency: 'EUR', kind: 'public' }]);
    expect(pack('19877')).toMatchObject({ availability: 'poistumassa', prices: [{ amount: 12.3, currency: 'EUR', kind: 'public' }] });
  });

  it('reports malformed rows with their file and line; rows for packs the register does not list are excluded, not malformed', () => {
    expect(result.problems).toEqual([
      { file: 'PAKKAUS.txt', line: 8, message: '34 fields where the header names 35' },
      { file: 'PAKKAUS.txt', line: 9, message: 'VNRNRO "04A741" is not a 6-digit Vnr' },
      { file: 'kela_hinnat.txt', line: 8, message: 'Myyntihinta "n/a" is not an amount in EUR' },
    ]);
  });

  it('reads a later Kela export as xlsx: wholesale price as ex_factory and the category as 40, 65 or 100 %', async () => {
    const { snapshot, problems } = await findAdapter('fi-fimea')!.parse([fixture('PAKKAUS.txt'), { name: 'kela.xlsx', content: await kelaWorkbook() }]);
    const all = snapshot.products!.flatMap((p) => p.packs);
    expect(all.find((p) => p.key === '28101')).toMatchObject({
      reimbursement_rate_percent: 40,
      prices: [{ amount: 7.45, currency: 'EUR', kind: 'public' }, { amount: 4.12, currency: 'EUR', kind: 'ex_factory' }],
    });
    expect(all.find((p) => p.key === '31544')?.reimbursement_rate_percent).toBe(100);
    expect(all.find((p) => p.key === '30561')?.reimbursement_rate_percent).toBe(65);
    expect(problems.filter((p) => p.file === 'kela.xlsx')).toEqual([{ file: 'kela.xlsx', line: 5, message: 'Vnr 448597: korvattavuus "ei" is not 40, 65 or 100 %' }]);
  });

  it('marks veterinary-only products, parallel imports and narcotic packs (a UTF-8 export reads the same)', async () => {
    const header = 'PAKKAUSNRO;VNRNRO;PAKKAUSKOKO;KERROIN;KOKO;YKSIKKO;RESEPTISTATUS;LAAKENIMI;VAHVUUS;LAAKEMUOTONIMI;HALTIJA;HUM;VET;RINNAKKAISTUONTI;HUUME;ATCKOODI;MYYNTILUPANRO;KAUPAN';
    const rows = [
      '51001;;100 ml;1;100;ml;R;Metacam vet;1,5 mg/ml;oraalisuspensio;Boehringer Ingelheim Vetmedica GmbH;E;K;E;;QM01AC06;;1',
      '51002;128344;28 fol;1;28;kpl;R;OxyContin;10 mg;depottabletti;Mundipharma Oy;K;E;K;K;N02AA05;14770;1',
    ];
    const { snapshot } = await parseFiFimea([{ name: 'PAKKAUS.txt', content: Buffer.from([header, ...rows].join('\n')) }]);
    const [vet, oxy] = snapshot.products!;
    expect(vet).toMatchObject({ veterinary: true, atc_code: 'QM01AC06', packs: [{ units: 100, unit: 'ml', identifiers: [] }] });
    expect(oxy).toMatchObject({ attributes: { rinnakkaistuonti: true }, packs: [{ narcotic_list: 'K', dispensing_category: 'R' }] });
    expect(oxy!.veterinary).toBeUndefined();
  });

  it('refuses a file of unknown layout, and a Kela list without the register', async () => {
    await expect(parseFiFimea([{ name: 'x.txt', content: Buffer.from('A;B\r\n1;2\r\n') }])).rejects.toThrow(FileRejectedError);
    await expect(parseFiFimea([fixture('kela_hinnat.txt')])).rejects.toThrow(/pack file .* is missing/);
  });
});
