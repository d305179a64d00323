import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  columnIndex, columnStartingWith, csvTable, dataRow, delimitedRow, delimitedTable, headerCells, headerRecord, listDate, pickColumn,
  readDelimitedTable, readListTable,
} from '../../../workers/ingest/adapters/delimited-table.ts';

const hasAic = (keys: string[]) => keys.includes('codice_aic');
const hasVnr = (keys: string[]) => keys.includes('vnr');

describe('delimitedTable (AIFA and Infomed lists)', () => {
  it('finds the header below title lines, reads cells by header key whatever the case, and skips empty lines', () => {
    const content = Buffer.from('Elenco del 01/11/2026\r\nCODICE_AIC;Denominazione\r\n026846016;GLUCOPHAGE\r\n;\r\n', 'latin1');
    const table = delimitedTable({ name: 'x.csv', content }, hasAic, 'CODICE_AIC');
    expect(table.header).toEqual(['codice_aic', 'denominazione']);
    expect(table.workbook).toBe(false);
    expect(table.rows.map((r) => [r.line, r.get('codice_aic'), r.get('denominazione'), r.width])).toEqual([[3, '026846016', 'GLUCOPHAGE', 2]]);
    expect(() => delimitedTable({ name: 'x.csv', content: Buffer.from('a;b\n1;2\n') }, hasAic, 'CODICE_AIC')).toThrow(/x\.csv: no header row naming CODICE_AIC in the first 20 lines/);
  });

  it('keeps the header as written beside its keys (a header spanning two lines, a dated price column)', () => {
    const content = Buffer.from('"Codice\r\nAIC";Prezzo  Pubblico 15 settembre 2026\r\n012345678;"1,50"\r\n');
    const table = delimitedTable({ name: 'h.csv', content }, (keys) => keys.includes('codice aic'), 'AIC');
    expect(table.headerText).toEqual(['Codice AIC', 'Prezzo Pubblico 15 settembre 2026']);
    expect(table.header).toEqual(['codice aic', 'prezzo pubblico 15 settembre 2026']);
    expect(table.rows.map((r) => [r.line, r.get('codice aic')])).toEqual([[3, '012345678']]);
    expect(columnStartingWith(table.header, ['prezzo pubblico'])).toBe('prezzo pubblico 15 settembre 2026');
    expect(columnStartingWith(table.header, ['prezzo ex-factory'])).toBeUndefined();
  });

  it('looks for the header in the first 20 lines only', () => {
    const titles = Array.from({ length: 20 }, (_, i) => `nota ${i}`).join('\n');
    expect(() => delimitedTable({ name: 'x.csv', content: Buffer.from(`${titles}\nCODICE_AIC;X\n1;2`) }, hasAic, 'CODICE_AIC')).toThrow(/first 20 lines/);
  });
});

describe('readDelimitedTable (Nordic lists)', () => {
  it('reads UTF-16 text with tabs below a title row, cells by header key (folded as a fallback)', async () => {
    const text = 'Lääkeluettelo 1.3.2019\r\nVNR\tKauppanimi\tHinta\r\n012345\tPanadol\t1,50\r\n\t\t\r\n';
    const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const table = await readDelimitedTable({ name: 'kela.txt', content }, hasVnr, 'VNR');
    expect(table.header).toEqual(['vnr', 'kauppanimi', 'hinta']);
    expect(table.workbook).toBe(false);
    expect(table.rows.map((r) => [r.line, r.width, r.get('vnr'), r.get('Kauppanimi'), r.get('hinta')])).toEqual([[3, 3, '012345', 'Panadol', '1,50']]);
  });

  it('opens a quote after blanks and reads Windows-1252', async () => {
    const content = Buffer.concat([Buffer.from('VNR;Nimi\n1; "A;B '), Buffer.from([0x80]), Buffer.from('"\n')]);
    const table = await readDelimitedTable({ name: 'x.csv', content }, hasVnr, 'VNR');
    expect(table.rows.map((r) => r.get('nimi'))).toEqual(['A;B €']);
  });

  it('rejects a list without a header row in its first 40 lines', async () => {
    const titles = Array.from({ length: 40 }, (_, i) => `rivi ${i}`).join('\n');
    await expect(readDelimitedTable({ name: 'x.csv', content: Buffer.from(`${titles}\nVNR;X\n1;2`) }, hasVnr, 'VNR')).rejects.toThrow(/x\.csv: no header row naming VNR in the first 40 lines/);
  });
});

describe('readListTable (a workbook or text)', () => {
  async function workbook(rows: unknown[][]): Promise<Buffer> {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Lista');
    for (const row of rows) sheet.addRow(row);
    return Buffer.from(await book.xlsx.writeBuffer());
  }

  it('reads the first worksheet below its title rows, rows as wide as the header', async () => {
    const content = await workbook([['Infomed 26.11.2026'], [], ['CODICE_AIC', 'Denominazione', 'Prezzo'], ['026846016', 'GLUCOPHAGE', 1.5]]);
    const table = await readListTable({ name: 'x.xlsx', content }, hasAic, 'CODICE_AIC', delimitedTable);
    expect(table.workbook).toBe(true);
    expect(table.header).toEqual(['codice_aic', 'denominazione', 'prezzo']);
    expect(table.rows.map((r) => [r.line, r.width, r.get('codice_aic'), r.get('prezzo')])).toEqual([[4, 3, '026846016', '1.5']]);
  });

  it('hands text to the text reader, also text that starts with "PK"', async () => {
    const content = Buffer.from('PK list\nCODICE_AIC;X\n1;2\n');
    const table = await readListTable({ name: 'x.csv', content }, hasAic, 'CODICE_AIC', delimitedTable);
    expect([table.workbook, table.rows.map((r) => r.get('x'))]).toEqual([false, ['2']]);
  });
});

describe('csvTable (a report exported as CSV as well as xlsx)', () => {
  const isReport = (keys: string[]) => keys.includes('name of medicine') && keys.includes('ema product number');

  it('keeps the separator whose header splits into the most columns, title lines and quoted line breaks included', () => {
    const text = 'Medicines output, 26/11/2026\r\n\r\nName of medicine;EMA product number;"Species\n(veterinary)"\r\nAbilify;EMEA/H/C/000471;\r\n"Ab, cd";EMEA/H/C/000472;Dogs\r\n';
    const table = csvTable('r.csv', Buffer.from(text), isReport, 'Name of medicine');
    expect(table.header).toEqual(['name of medicine', 'ema product number', 'species (veterinary)']);
    expect(table.rows.map((r) => [r.line, r.get('name of medicine'), r.raw('species (veterinary)')])).toEqual([[5, 'Abilify', undefined], [6, 'Ab, cd', 'Dogs']]);
  });

  it('reads a UTF-16 export and rejects one without the header', () => {
    const content = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name of medicine\tEMA product number\r\nÆrius\tEMEA/H/C/000313\r\n', 'utf16le')]);
    expect(csvTable('r.csv', content, isReport, 'x').rows.map((r) => r.get('name of medicine'))).toEqual(['Ærius']);
    expect(() => csvTable('r.csv', Buffer.from('a,b\n1,2\n'), isReport, 'Name of medicine')).toThrow(/r\.csv: no header line naming Name of medicine near the top/);
  });
});

describe('headerRecord, columnIndex and delimitedRow (the parts a reader of its own uses)', () => {
  it('finds the header record within the search depth only', () => {
    const records = [{ line: 1, fields: ['Liste'] }, { line: 2, fields: ['PZN', 'Name'] }, { line: 3, fields: ['1', 'A'] }];
    expect(headerRecord(records, (keys) => keys.includes('pzn'), 40)).toBe(1);
    expect(headerRecord(records, (keys) => keys.includes('pzn'), 1)).toBe(-1);
  });

  it('reads a row by the first column of a repeated key, ignoring empty header cells, and trims cells', () => {
    const index = columnIndex(['pzn', '', 'name', 'pzn']);
    expect([...index]).toEqual([['pzn', 0], ['name', 2]]);
    const row = delimitedRow(index, 7, [' 01234567 ', 'x', ' Aspirin', '999']);
    expect([row.line, row.width, row.get('pzn'), row.get('Name'), row.get('preis')]).toEqual([7, 4, '01234567', 'Aspirin', '']);
  });

  it('reads a header as written and as keys, and no row from a record of empty fields', () => {
    expect(headerCells([' Prezzo\n Pubblico  15 settembre 2026 ', 'CODICE_AIC:'])).toEqual({
      headerText: ['Prezzo Pubblico 15 settembre 2026', 'CODICE_AIC:'],
      header: ['prezzo pubblico 15 settembre 2026', 'codice_aic'],
    });
    const index = columnIndex(['codice_aic']);
    expect(dataRow(index, 4, ['', ' ', ''])).toBeNull();
    expect(dataRow(index, 5, ['', '1'])?.width).toBe(2);
  });
});

describe('pickColumn and listDate', () => {
  it('picks the first alternative header name the table has', () => {
    expect(pickColumn(['vnr', 'varunummer'], ['nplpackid', 'varunummer', 'vnr'])).toBe('varunummer');
    expect(pickColumn(['vnr'], ['atc'])).toBeUndefined();
  });

  it('reads ISO, compact and day-first dates, refusing impossible ones', () => {
    expect(['2019-03-01', '2019-03-01 00:00:00', '20190301', '1.3.2019', '01.03.2019', '', '31.2.2019', 'maaliskuu'].map(listDate))
      .toEqual(['2019-03-01', '2019-03-01', '2019-03-01', '2019-03-01', '2019-03-01', '', null, null]);
  });
});
