import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { normaliseIdentifier } from '../../../vocabulary/codes.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { marketingStatus, presentation, reimbursementRate } from '../../../workers/ingest/adapters/pt-infomed-columns.ts';
import { parsePtInfomed } from '../../../workers/ingest/adapters/pt-infomed.ts';
import type { PackEntry, ProductEntry } from '../../../workers/ingest/snapshot.ts';

const FILE = 'lista_infomed.csv';
const csv = () => ({ name: FILE, content: readFileSync(new URL(`../../fixtures/registers/pt-infomed/${FILE}`, import.meta.url)) });

/** The older export wording (`DCI / Nome Genérico`, `Estado de Autorização`) as xlsx, title rows above the header, numbers as numbers. */
async function olderXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Infomed');
  sheet.getRow(1).values = ['INFOMED - Base de dados de medicamentos'];
  sheet.getRow(2).values = ['Pesquisa: metformina'];
  sheet.getRow(4).values = ['DCI / Nome Genérico', 'Nome do Medicamento', 'Forma Farmacêutica', 'Dosagem', 'Tamanho da Embalagem', 'Estado de Autorização', 'Genérico', 'N.º Registo', 'PVP', 'Comparticipação'];
  sheet.getRow(5).values = ['Metformina', 'Metformina Generis', 'Comprimido revestido por película', '850 mg', 'Blister - 60 unidade(s)', 'Autorizado', 'S', 5214357, 3.12, 'Escalão A'];
  sheet.getRow(6).values = ['Metformina', 'Metformina Generis', 'Comprimido revestido por película', '850 mg', 'Blister - 20 unidade(s)', 'Caducado', 'S', 5214258, 1.4, '-'];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const result = await parsePtInfomed(csv());

function find(aRegisto: string): { product: ProductEntry; pack: PackEntry } {
  for (const product of result.snapshot.products ?? []) {
    const pack = product.packs.find((p) => p.key === aRegisto);
    if (pack) return { product, pack };
  }
  throw new Error(`no pack ${aRegisto}`);
}

describe('pt-infomed adapter: the Infomed export (CSV, Windows-1252, quoted fields, decimal commas)', () => {
  it('reads products per name, dosagem and form with their presentations, as source pt-infomed in PT', () => {
    expect(result.snapshot.source).toMatchObject({ id: 'pt-infomed', country: 'PT' });
    expect(result.snapshot.products?.map((p) => [p.product_name, p.packs.map((k) => k.key)])).toEqual([
      ['Glucophage 500 mg Comprimido revestido por película', ['2556683', '2556782']],
      ['Ibuprofeno Generis 400 mg Comprimido revestido por película', ['5046434']],
      ['Eliquis 2,5 mg Comprimido revestido por película', ['5402778']],
      ['Augmentin 875 mg + 125 mg Comprimido revestido por película', ['3289482']],
      ['Abasaglar 100 U/ml Solução injetável em caneta pré-cheia', ['5231987']],
      ['Arnica Montana Boiron 9 CH Grânulos', ['4412988']],
      ['Brufen 600 mg Comprimido revestido por película', ['8765432']],
    ]);
  });

  it('maps every column of a product and its pack', () => {
    const { product, pack } = find('2556683');
    expect(product).toMatchObject({
      country: 'PT', brand: 'Glucophage', atc_code: 'A10BA02', dose_form: 'Comprimido revestido por película', route: 'Via oral', holder: 'Merck, S.A.',
      generic: false, authorisation_status: 'Autorizado', authorised_on: '1990-03-15', dispensing_category: 'MSRM', marketing_status: 'active',
      ingredients: [{ unii: 'name:METFORMINA', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
    });
    expect(pack).toEqual({
      key: '2556683', description: 'Blister - 60 unidade(s)', marketing_status: 'active', units: 60, unit: 'unidade(s)',
      identifiers: [{ system: 'pt_registo', code: '2556683' }, { system: 'pt_cnpem', code: '50012345' }],
      prices: [{ amount: 2.98, currency: 'EUR', kind: 'public' }, { amount: 2.4, currency: 'EUR', kind: 'reimbursed' }],
      reimbursement_rate_percent: 90,
    });
    expect(result.snapshot.substances).toContainEqual({ unii: 'name:METFORMINA', name: 'Metformina', names: { pt: 'metformina' }, provisional: true });
  });

  it('pairs combination substances with their strengths, reads escalões and percentages, and decodes Windows-1252', () => {
    const augmentin = find('3289482');
    expect(augmentin.product.ingredients).toEqual([
      { unii: 'name:AMOXICILINA', strength_value: 875, strength_unit: 'mg', strength_text: '875 mg' },
      { unii: 'name:ÁCIDO CLAVULÂNICO', strength_value: 125, strength_unit: 'mg', strength_text: '125 mg' },
    ]);
    expect(augmentin.pack.reimbursement_rate_percent).toBe(37);
    expect(find('5402778').pack).toMatchObject({ reimbursement_rate_percent: 69, prices: [{ amount: 65.77, kind: 'public' }] });
    expect(find('5402778').product.ingredients[0]).toMatchObject({ strength_value: 2.5, strength_unit: 'mg' });
    expect(find('5046434').product).toMatchObject({ generic: true, holder: 'Generis Farmacêutica, S.A.' });
  });

  it('reads a pen pack as units with a total volume, and keeps an unreimbursed product without ATC or price', () => {
    expect(find('5231987').product.route).toBe('Via subcutânea');
    expect(find('5231987').pack).toMatchObject({ units: 5, unit: 'unidade(s)', quantity: { value: 15, unit: 'ml' }, reimbursement_rate_percent: 90 });
    const arnica = find('4412988');
    expect(arnica.product.atc_code).toBeUndefined();
    expect(arnica.pack).toMatchObject({ marketing_status: 'withdrawn', quantity: { value: 4, unit: 'g' } });
    expect(arnica.pack.prices).toBeUndefined();
    expect(arnica.pack.reimbursement_rate_percent).toBeUndefined();
    expect(find('8765432').product).toMatchObject({ authorisation_status: 'Revogado', marketing_status: 'withdrawn' });
  });

  it('reports malformed rows with file and line (bad Nº Registo, bad price, truncated row) and excludes a repeated Nº Registo (line 11)', () => {
    expect(result.problems).toEqual([
      { file: FILE, line: 10, message: 'Nº Registo "ABC123" is not a registration number' },
      { file: FILE, line: 12, message: 'Nº Registo 5046533: PVP "n/d" is not an amount in EUR' },
      { file: FILE, line: 13, message: 'row has 2 fields, the header 18' },
    ]);
    expect(result.files).toEqual([{ file: FILE, role: 'Infomed (apresentações)', read: 12, kept: 8, malformed: 3, excluded: { duplicate: 1 } }]);
  });
});

describe('pt-infomed adapter: other shapes', () => {
  it('reads the older wording from xlsx below its title rows, registration numbers as numbers', async () => {
    const older = await parsePtInfomed({ name: 'lista_infomed.xlsx', content: await olderXlsx() });
    expect(older.problems).toEqual([]);
    const [product] = older.snapshot.products!;
    expect(product).toMatchObject({ product_name: 'Metformina Generis 850 mg Comprimido revestido por película', generic: true, marketing_status: 'active' });
    expect(product!.packs.map((p) => [p.key, p.marketing_status, p.reimbursement_rate_percent, p.prices])).toEqual([
      ['5214357', 'active', 90, [{ amount: 3.12, currency: 'EUR', kind: 'public' }]],
      ['5214258', 'withdrawn', undefined, [{ amount: 1.4, currency: 'EUR', kind: 'public' }]],
    ]);
  });

  it('reads an export without presentations (no Nº Registo) as products without packs, and refuses a file that is no Infomed list', async () => {
    const products = Buffer.from('"Substância Ativa/DCI";"Nome do Medicamento";"Forma Farmacêutica";"Dosagem"\r\n"Metformina";"Glucophage";"Comprimido";"500 mg"\r\n', 'latin1');
    const medicines = await parsePtInfomed({ name: FILE, content: products });
    expect(medicines.files).toEqual([{ file: FILE, role: 'Infomed (medicamentos)', read: 1, kept: 1, malformed: 0 }]);
    expect(medicines.snapshot.products).toMatchObject([{ key: 'GLUCOPHAGE|500 MG|COMPRIMIDO', packs: [] }]);
    await expect(parsePtInfomed({ name: FILE, content: Buffer.from('a;b\r\n1;2\r\n') })).rejects.toThrow(FileRejectedError);
    await expect(findAdapter('pt-infomed')!.parse([csv()])).resolves.toMatchObject({ snapshot: { source: { id: 'pt-infomed' } } });
  });

  it('reads escalões, statuses, presentations and the Portuguese codes', () => {
    expect(['A', 'Escalão B', 'c', 'D', '69%', '37 %', 'E', '0%'].map(reimbursementRate)).toEqual([90, 69, 37, 15, 69, 37, null, null]);
    expect(marketingStatus('', 'Suspenso')).toBe('withdrawn');
    expect(marketingStatus('Comercializado', 'Autorizado')).toBe('active');
    expect(presentation('Frasco - 200 ml')).toEqual({ units: 200, unit: 'ml' });
    expect(presentation('Embalagem hospitalar')).toBeNull();
    expect(normaliseIdentifier('pt_registo', '556683')).toBe('0556683');
    expect(normaliseIdentifier('pt_registo', 'Nº 2556683')).toBe('2556683');
    expect(normaliseIdentifier('pt_registo', '12345678')).toBeNull();
    expect(normaliseIdentifier('pt_cnpem', '5001 2345')).toBe('50012345');
    expect(normaliseIdentifier('pt_cnpem', '5001234')).toBeNull();
    expect(normaliseIdentifier('it_aic6', '26846')).toBe('026846');
  });
});
