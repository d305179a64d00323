import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { FileRejectedError, parseCsv } from '../../../workers/ingest/adapters/common.ts';
import { emaSubstanceNames, parseEuEma } from '../../../workers/ingest/adapters/eu-ema.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import type { AdapterResult } from '../../../workers/ingest/snapshot.ts';
import { openTestDatabase } from '../../helpers/db.ts';

/** The report's columns in its published order (30 of them), plus the withdrawal date and an EU number column where a row gives one. */
const HEADER = [
  'Category', 'Medicine name', 'Therapeutic area', 'International non-proprietary name (INN) / common name', 'Active substance',
  'Product number', 'Patient safety', 'Authorisation status', 'ATC code', 'Additional monitoring', 'Generic', 'Biosimilar',
  'Conditional approval', 'Exceptional circumstances', 'Accelerated assessment', 'Orphan medicine', 'Marketing authorisation date',
  'Date of refusal of marketing authorisation', 'Marketing authorisation holder/company name', 'Human pharmacotherapeutic group',
  'Vet pharmacotherapeutic group', 'Date of opinion', 'Decision date', 'Revision number', 'Condition / indication', 'Species',
  'ATCvet code', 'First published', 'Revision date', 'URL', 'Date of withdrawal', 'EU number',
];
const d = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
const EPAR = 'https://www.ema.europa.eu/en/medicines/human/EPAR/';

type Cell = string | number | Date | null;
const row = (values: Record<string, Cell>): Cell[] => HEADER.map((h) => values[h] ?? null);

const ROWS: Cell[][] = [
  row({ Category: 'Human', 'Medicine name': 'Abilify', 'Therapeutic area': 'Schizophrenia; Bipolar Disorder',
    'International non-proprietary name (INN) / common name': 'aripiprazole', 'Active substance': 'aripiprazole', 'Product number': 'EMEA/H/C/000471',
    'Patient safety': 'no', 'Authorisation status': 'Authorised', 'ATC code': 'N05AX12', 'Additional monitoring': 'no', Generic: 'no', Biosimilar: 'no',
    'Orphan medicine': 'no', 'Marketing authorisation date': d('2004-06-04'), 'Marketing authorisation holder/company name': 'Otsuka Pharmaceutical Netherlands B.V.',
    URL: `${EPAR}abilify`, 'EU number': 'EU/1/04/276' }),
  row({ Category: 'Human', 'Medicine name': 'Truvada', 'International non-proprietary name (INN) / common name': 'emtricitabine / tenofovir disoproxil',
    'Active substance': 'emtricitabine, tenofovir disoproxil fumarate', 'Product number': 'EMEA/H/C/000594', 'Authorisation status': 'Authorised',
    'ATC code': 'J05AR03', 'Additional monitoring': 'yes', Generic: 'no', 'Marketing authorisation date': '21/02/2005',
    'Marketing authorisation holder/company name': 'Gilead Sciences Ireland UC', URL: `${EPAR}truvada` }),
  row({ Category: 'Human', 'Medicine name': 'Aripiprazole Zentiva', 'International non-proprietary name (INN) / common name': 'aripiprazole',
    'Product number': 'EMEA/H/C/003899', 'Authorisation status': 'Withdrawn', 'ATC code': 'N05AX12', Generic: 'yes',
    'Marketing authorisation date': d('2015-06-25'), 'Date of withdrawal': d('2021-01-20'), URL: `${EPAR}aripiprazole-zentiva` }),
  row({ Category: 'Human', 'Medicine name': 'Refusalumab', 'International non-proprietary name (INN) / common name': 'refusalumab',
    'Product number': 'EMEA/H/C/004999', 'Authorisation status': 'Refused', 'Orphan medicine': 'yes', Biosimilar: 'no',
    'Date of refusal of marketing authorisation': d('2019-03-28'), 'Therapeutic area': 'Multiple Myeloma' }),
  row({ Category: 'Human', 'Medicine name': 'Hulio', 'International non-proprietary name (INN) / common name': 'adalimumab',
    'Product number': 'EMEA/H/C/004429', 'Authorisation status': 'Authorised', 'ATC code': 'L04AB04', Biosimilar: 'yes', 'Additional monitoring': 'yes',
    'Marketing authorisation date': d('2018-09-17') }),
  row({ Category: 'Veterinary', 'Medicine name': 'Bravecto', 'Active substance': 'fluralaner', 'Product number': 'EMEA/V/C/002526',
    'Authorisation status': 'Authorised', 'Marketing authorisation date': d('2014-02-11') }),
  row({ Category: 'Human', 'Medicine name': 'Broken', 'Product number': 'H/C/123', 'Authorisation status': 'Authorised' }),
  row({ Category: 'Human', 'Medicine name': 'Oddity', 'Product number': 'EMEA/H/C/005001', 'Authorisation status': 'Maybe' }),
];

/** The report as EMA publishes it: title rows, then the header on row 9, then one row per medicine. */
async function buildEparReport(rows: Cell[][] = ROWS, header: string[] = HEADER): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Medicines for human use');
  sheet.getRow(1).values = ['Medicines output — European public assessment reports'];
  sheet.getRow(2).values = ['Report generated on 24/11/2026'];
  sheet.getRow(4).values = ['Filters: none'];
  sheet.getRow(9).values = header;
  rows.forEach((r, i) => { sheet.getRow(10 + i).values = r as ExcelJS.CellValue[]; });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('eu-ema adapter (EPAR report, xlsx)', () => {
  let result: AdapterResult;
  const product = (key: string) => result.snapshot.products?.find((p) => p.key === key);
  beforeAll(async () => { result = await parseEuEma('Medicines_output_european_public_assessment_reports.xlsx', await buildEparReport()); });

  it('keys centrally authorised products by procedure number, country EU, with the EU number where the report gives it', () => {
    expect(product('EMEA/H/C/000471')).toMatchObject({
      country: 'EU', product_name: 'Abilify', brand: 'Abilify', atc_code: 'N05AX12', holder: 'Otsuka Pharmaceutical Netherlands B.V.',
      authorisation_status: 'authorised', marketing_status: 'active', authorised_on: '2004-06-04', additional_monitoring: false, generic: false,
      identifiers: [{ system: 'ema_procedure', code: 'EMEA/H/C/000471' }, { system: 'eu_number', code: 'EU/1/04/276' }],
      ingredients: [{ unii: 'name:ARIPIPRAZOLE' }], packs: [],
      attributes: { therapeutic_area: 'Schizophrenia; Bipolar Disorder', epar_url: `${EPAR}abilify` },
    });
    expect(product('EMEA/H/C/000594')?.identifiers).toEqual([{ system: 'ema_procedure', code: 'EMEA/H/C/000594' }]);
    expect(result.snapshot.source).toMatchObject({ id: 'eu-ema', country: null });
  });

  it('reads combinations from the INN column, date cells and DD/MM/YYYY text, and the yes/no flags', () => {
    expect(product('EMEA/H/C/000594')).toMatchObject({
      ingredients: [{ unii: 'name:EMTRICITABINE' }, { unii: 'name:TENOFOVIR DISOPROXIL' }], authorised_on: '2005-02-21', additional_monitoring: true,
    });
    expect(emaSubstanceNames('', 'fluralaner')).toEqual(['fluralaner']);
    expect(result.snapshot.substances).toContainEqual({ unii: 'name:TENOFOVIR DISOPROXIL', name: 'tenofovir disoproxil', names: { inn: 'tenofovir disoproxil' }, provisional: true });
  });

  it('keeps refused and withdrawn medicines with their status, dates, orphan and biosimilar flags as attributes', () => {
    expect(product('EMEA/H/C/003899')).toMatchObject({ authorisation_status: 'withdrawn', marketing_status: 'withdrawn', generic: true, attributes: { withdrawn_on: '2021-01-20' } });
    expect(product('EMEA/H/C/004999')).toMatchObject({ authorisation_status: 'refused', marketing_status: 'withdrawn', attributes: { orphan: true, refused_on: '2019-03-28', therapeutic_area: 'Multiple Myeloma' } });
    expect(product('EMEA/H/C/004999')?.authorised_on).toBeUndefined();
    expect(product('EMEA/H/C/004429')?.attributes).toEqual({ biosimilar: true });
    expect(product('EMEA/V/C/002526')).toMatchObject({ veterinary: true, ingredients: [{ unii: 'name:FLURALANER' }] });
  });

  it('reports unusable rows with their spreadsheet row number and skips them', () => {
    expect(result.problems).toEqual([
      { file: 'Medicines_output_european_public_assessment_reports.xlsx', line: 16, message: 'product number "H/C/123" is not an EMA procedure number (EMEA/H/C/nnnnnn)' },
      { file: 'Medicines_output_european_public_assessment_reports.xlsx', line: 17, message: 'EMEA/H/C/005001: authorisation status "Maybe" is unknown' },
    ]);
    expect(result.files).toEqual([{ file: 'Medicines_output_european_public_assessment_reports.xlsx', role: 'European public assessment reports', read: 8, kept: 6, malformed: 2 }]);
  });

  it('rejects a workbook without the report header, and a file that is no workbook', async () => {
    await expect(buildEparReport([], ['Name', 'Wert']).then((b) => parseEuEma('x.xlsx', b))).rejects.toThrow(/no header row naming Name of medicine \(Medicine name\) and EMA product number/);
    await expect(parseEuEma('x.xlsx', Buffer.from('Medicine name;Product number\n'))).rejects.toThrow(FileRejectedError);
  });
});

describe('eu-ema through the ingest engine', () => {
  let db: Database;
  beforeAll(async () => { db = await openTestDatabase(); });
  afterAll(() => db.close());

  it('stores the EU products with their EMA and EU numbers; an unchanged report writes nothing', async () => {
    const { snapshot } = await findAdapter('eu-ema')!.parse([{ name: 'report.xlsx', content: await buildEparReport() }]);
    expect((await ingestSnapshot(db, snapshot)).tables.products).toMatchObject({ insert: 6 });
    const { rows } = await db.query<{ country: string; product_name: string }>(
      `SELECT p.country, p.product_name FROM identifiers i JOIN products p ON p.id = i.drug_id WHERE i.system = 'eu_number' AND i.code = 'EU/1/04/276'`);
    expect(rows).toEqual([{ country: 'EU', product_name: 'Abilify' }]);
    expect((await ingestSnapshot(db, snapshot)).changes).toBe(0);
  });
});

const CURRENT_CSV = readFileSync(new URL('../../fixtures/registers/eu-ema/medicines-output-medicines-report_en.csv', import.meta.url));

/** The workbook of the same current report: the CSV fixture's lines as rows (title rows, header on row 9), dates as date cells. */
async function currentWorkbook(): Promise<Buffer> {
  const records = parseCsv(CURRENT_CSV.toString('utf8').replace(/^\uFEFF/, ''));
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Medicines');
  const header = records.find((r) => r.fields.includes('EMA product number'))!.fields;
  for (const { line, fields } of records) {
    sheet.getRow(line).values = fields.map((f, i) => {
      const dated = /date$/i.test(header[i] ?? '') && /^\d{2}\/\d{2}\/\d{4}$/.test(f) && f !== '31/02/2020';
      return dated ? d(`${f.slice(6)}-${f.slice(3, 5)}-${f.slice(0, 2)}`) : f === '' ? null : f;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('eu-ema adapter (current medicines report: xlsx and the CSV of the same report)', () => {
  const FILE = 'medicines-output-medicines-report_en.csv';
  let csv: AdapterResult;
  let xlsx: AdapterResult;
  const product = (result: AdapterResult, key: string) => result.snapshot.products?.find((p) => p.key === key);
  beforeAll(async () => {
    csv = await parseEuEma(FILE, CURRENT_CSV);
    xlsx = await parseEuEma('medicines-output-medicines-report_en.xlsx', await currentWorkbook());
  });

  it('reads the current header wording from the CSV (UTF-8 with BOM, CRLF, title lines, quoted line breaks in headers)', () => {
    expect(product(csv, 'EMEA/H/C/000471')).toMatchObject({
      country: 'EU', product_name: 'Abilify', atc_code: 'N05AX12', holder: 'Otsuka Pharmaceutical Netherlands B.V.', authorisation_status: 'authorised',
      marketing_status: 'active', authorised_on: '2004-06-04', additional_monitoring: false, generic: false,
      identifiers: [{ system: 'ema_procedure', code: 'EMEA/H/C/000471' }], ingredients: [{ unii: 'name:ARIPIPRAZOLE' }],
      attributes: { therapeutic_area: 'Schizophrenia; Bipolar Disorder', epar_url: 'https://www.ema.europa.eu/en/medicines/human/EPAR/abilify', decision_on: '2025-03-12', revision: '51' },
    });
    expect(product(csv, 'EMEA/H/C/000594')).toMatchObject({
      holder: 'Gilead Sciences Ireland UC', additional_monitoring: true, ingredients: [{ unii: 'name:EMTRICITABINE' }, { unii: 'name:TENOFOVIR DISOPROXIL' }],
    });
  });

  it('keeps the statuses and dates of the current report: application withdrawn, withdrawal/expiry, PRIME, orphan, veterinary species', () => {
    expect(product(csv, 'EMEA/H/C/005990')).toMatchObject({
      authorisation_status: 'application withdrawn', marketing_status: 'withdrawn', holder: 'Laboratoires Théa',
      attributes: { orphan: true, prime: true, application_withdrawn_on: '2023-11-15', therapeutic_area: "Sjögren's Syndrome" },
    });
    expect(product(csv, 'EMEA/H/C/002001')).toMatchObject({ authorisation_status: 'withdrawn', generic: true, attributes: { withdrawn_on: '2016-02-02' } });
    expect(product(csv, 'EMEA/V/C/002526')).toMatchObject({ veterinary: true, holder: 'Intervet International B.V.', ingredients: [{ unii: 'name:FLURALANER' }] });
  });

  it('reports unusable rows and bad dates with their line in the file', () => {
    expect(csv.problems).toEqual([
      { file: FILE, line: 21, message: 'product number "H/C/123" is not an EMA procedure number (EMEA/H/C/nnnnnn)' },
      { file: FILE, line: 22, message: 'EMEA/H/C/005001: authorisation status "Maybe" is unknown' },
      { file: FILE, line: 23, message: 'EMEA/H/C/005002: marketing authorisation date "31/02/2020" is not a date (left out)' },
    ]);
    expect(csv.files).toEqual([{ file: FILE, role: 'European public assessment reports', read: 10, kept: 8, malformed: 2 }]);
  });

  it('reads the workbook of the same report into the same products', () => {
    expect(xlsx.snapshot.products).toEqual(csv.snapshot.products);
    expect(xlsx.problems.map((p) => p.message)).toEqual(csv.problems.map((p) => p.message));
  });

  it('reads a semicolon-separated UTF-16 export of the report', async () => {
    const text = CURRENT_CSV.toString('utf8').replace(/^\uFEFF/, '');
    const semicolons = parseCsv(text).map((r) => r.fields.map((f) => (/[;"\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(';')).join('\r\n');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(semicolons, 'utf16le')]);
    const result = await parseEuEma(FILE, utf16);
    expect(result.snapshot.products).toEqual(csv.snapshot.products);
  });

  it('rejects a CSV without the report header', async () => {
    await expect(parseEuEma(FILE, Buffer.from('Name,Wert\r\nA,1\r\n'))).rejects.toThrow(/no header line naming Name of medicine/);
  });
});
