import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseEsCima } from '../../../workers/ingest/adapters/es-cima.ts';
import { esDate } from '../../../workers/ingest/adapters/es-cima-presentation.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const DIR = new URL('../../fixtures/registers/es-cima/', import.meta.url);
const file = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, DIR)) });
const ALL = readdirSync(DIR, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).filter((n) => n !== 'wrong-root.xml' && n !== 'nomenclator_facturacion_2019.csv').map(file);

describe('es-cima adapter', () => {
  const { snapshot, problems, files } = parseEsCima(ALL);
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('groups presentations by nro_definitivo into ES products named, held and classified through the code tables', () => {
    expect(snapshot.source).toMatchObject({ id: 'es-cima', country: 'ES', url: 'https://cima.aemps.es/' });
    expect(snapshot.products?.map((p) => p.key)).toEqual(['65213', '07409006', '70985', '00134007', '86543', '62693']);
    expect(product('65213')).toMatchObject({
      country: 'ES', product_name: 'METFORMINA CINFA 850 mg COMPRIMIDOS RECUBIERTOS CON PELÍCULA EFG', generic: true,
      atc_code: 'A10BA02', dose_form: 'COMPRIMIDO RECUBIERTO CON PELÍCULA', route: 'VÍA ORAL', holder: 'Laboratorios Cinfa, S.A.',
      authorised_on: '2003-06-18', authorisation_status: 'Autorizado', marketing_status: 'active', additional_monitoring: false,
      identifiers: [{ system: 'es_nregistro', code: '65213' }],
      attributes: { es_dosificacion: '850 mg', es_fecha_situacion_registro: '2003-06-18' },
    });
    // The holder table is written with an `ns2:` prefix: local names are what count.
    expect(product('07409006')).toMatchObject({ holder: 'Bristol-Myers Squibb/Pfizer EEIG', additional_monitoring: true, generic: false });
    expect(product('62693')).toMatchObject({ route: 'VÍA INTRAVENOSA, VÍA INTRAMUSCULAR', dose_form: 'SOLUCIÓN INYECTABLE' });
  });

  it('keeps a plant-based medicine without ATC code and its flags', () => {
    const plant = product('86543');
    expect(plant?.atc_code).toBeUndefined();
    expect(plant?.attributes).toMatchObject({ es_base_a_plantas: true });
    expect(plant?.packs[0]).toMatchObject({ dispensing_category: 'No sujeto a prescripción médica', units: 45, unit: 'cápsulas' });
  });

  it('names substances through DICCIONARIO_PRINCIPIOS_ACTIVOS as provisional Spanish names with strengths', () => {
    expect(product('65213')?.ingredients).toEqual([
      { unii: 'name:METFORMINA HIDROCLORURO', strength_value: 850, strength_unit: 'mg', strength_text: '850 mg / 1 comprimido' },
    ]);
    expect(snapshot.substances).toContainEqual({ unii: 'name:APIXABAN', name: 'APIXABAN', names: { es: 'APIXABAN' }, provisional: true });
    // Per 5 ml becomes per ml, as the strength arithmetic expects; the text stays as written.
    expect(product('70985')?.ingredients).toEqual([{ unii: 'name:IBUPROFENO', strength_value: 20, strength_unit: 'mg/ml', strength_text: '100 mg / 5 ml' }]);
    expect(product('00134007')?.ingredients).toEqual([{ unii: 'name:INSULINA GLARGINA', strength_value: 100, strength_unit: 'U/ml', strength_text: '100 U / 1 ml' }]);
  });

  it('keys packs by Código Nacional with units, marketing status, dispensing condition and narcotic flag', () => {
    expect(product('65213')?.packs).toEqual([
      {
        key: '659123', description: 'METFORMINA CINFA 850 mg COMPRIMIDOS RECUBIERTOS CON PELÍCULA EFG, 50 comprimidos',
        identifiers: [{ system: 'cima_codigo', code: '659123' }], units: 50, unit: 'comprimidos', marketing_status: 'active',
        dispensing_category: 'Sujeto a prescripción médica',
        prices: [{ amount: 1.96, currency: 'EUR', kind: 'public' }, { amount: 1.96, currency: 'EUR', kind: 'reference' }],
      },
      expect.objectContaining({ key: '600017', units: 500, marketing_status: 'withdrawn' }),
    ]);
    // No nro_conte: the quantity is read from the presentation text; "5 plumas de 3 ml" is 15 ml.
    expect(product('70985')?.packs[0]).toMatchObject({ key: '712345', units: 200, unit: 'ml', marketing_status: 'withdrawn' });
    expect(product('00134007')?.packs[0]).toMatchObject({ units: 15, unit: 'ml' });
    expect(product('62693')?.packs[0]).toMatchObject({ dispensing_category: 'Uso hospitalario (H)', narcotic_list: 'estupefaciente', units: 10, unit: 'ml' });
  });

  it('marks a suspended medicine whose only presentation is suspended as withdrawn', () => {
    expect(product('70985')).toMatchObject({ authorisation_status: 'Suspendido', marketing_status: 'withdrawn', attributes: { es_fecha_situacion_registro: '2025-09-30' } });
  });

  it('reports malformed presentations with file and line of their start tag, and skips them; a repeated CN is excluded as a duplicate', () => {
    expect(problems).toEqual([
      { file: 'Prescripcion.xml', line: 411, message: 'cod_nacion "65A12" is not a 6-digit Código Nacional' },
      { file: 'Prescripcion.xml', line: 469, message: 'CN 654321: nro_definitivo "" is not a registration number' },
      { file: 'Prescripcion.xml', line: 526, message: 'active substance 99999 is not in DICCIONARIO_PRINCIPIOS_ACTIVOS' },
      { file: '20261101_Nomenclator_de_Facturacion.csv', line: 7, message: 'Código Nacional "65912X" is not 6 digits' },
      { file: '20261101_Nomenclator_de_Facturacion.csv', line: 8, message: 'CN 851234: Precio venta al público con IVA "n/d" is not an amount in EUR' },
    ]);
    expect(files?.at(-1)).toEqual({
      file: '20261101_Nomenclator_de_Facturacion.csv', role: 'nomenclátor de facturación', read: 7, kept: 4, malformed: 2, excluded: { not_in_nomenclator: 1 },
    });
    expect(files?.[0]).toEqual({ file: 'Prescripcion.xml', role: 'nomenclátor de prescripción', read: 11, kept: 7, malformed: 3, excluded: { duplicate: 1 } });
    expect(files?.every(balanced)).toBe(true);
    expect(files?.map((f) => f.file)).toContain('DICCIONARIO_LABORATORIOS.xml');
  });

  it('adds the billing list: public and reference prices, SNS financing, contribution and homogeneous group', () => {
    expect(product('65213')?.packs[0]?.prices).toEqual([
      { amount: 1.96, currency: 'EUR', kind: 'public' }, { amount: 1.96, currency: 'EUR', kind: 'reference' },
    ]);
    // The clinical pack is not billed to the health system: no price.
    expect(product('65213')?.packs[1]?.prices).toBeUndefined();
    expect(product('65213')).toMatchObject({
      attributes: { es_financiado_sns: true, es_aportacion: 'NORMAL' },
      generic_groups: [{ code: '1613', label: 'METFORMINA 850 MG 50 COMPRIMIDOS', role: 'substitutable' }],
    });
    expect(product('07409006')?.packs[0]?.prices).toEqual([{ amount: 53.4, currency: 'EUR', kind: 'public' }]);
    expect(product('70985')?.attributes).toMatchObject({ es_financiado_sns: false });
  });

  it('reads an older billing list: upper-case headers without accents, semicolons, decimal commas, Windows-1252', () => {
    const result = parseEsCima([file('Prescripcion.xml'), file('DICCIONARIO_PRINCIPIOS_ACTIVOS.xml'), file('nomenclator_facturacion_2019.csv')]);
    const metformin = result.snapshot.products?.find((p) => p.key === '65213');
    expect(metformin?.packs[0]?.prices).toEqual([{ amount: 1.96, currency: 'EUR', kind: 'public' }]);
    expect(metformin?.attributes).toMatchObject({ es_financiado_sns: true, es_aportacion: 'NORMAL' });
    expect(result.files?.at(-1)).toMatchObject({ read: 1, kept: 1 });
  });

  it('reads without the optional code tables: codes stay unnamed, the situation from the built-in names', () => {
    const result = parseEsCima([file('Prescripcion.xml'), file('DICCIONARIO_PRINCIPIOS_ACTIVOS.xml')]);
    const metformin = result.snapshot.products?.find((p) => p.key === '65213');
    expect(metformin).toMatchObject({ authorisation_status: 'Autorizado', atc_code: 'A10BA02' });
    expect(metformin?.holder).toBeUndefined();
    expect(metformin?.dose_form).toBeUndefined();
  });

  it('refuses a file of another root, another namespace, or a missing substance table', () => {
    expect(() => parseEsCima([{ ...file('wrong-root.xml'), name: 'Prescripcion.xml' }, file('DICCIONARIO_PRINCIPIOS_ACTIVOS.xml')])).toThrow(FileRejectedError);
    const otherNamespace = Buffer.from(readFileSync(new URL('Prescripcion.xml', DIR), 'utf8').replace('schemas.aemps.es/prescripcion/aemps_prescripcion"', 'example.org/other"'));
    expect(() => parseEsCima([{ name: 'Prescripcion.xml', content: otherNamespace }, file('DICCIONARIO_PRINCIPIOS_ACTIVOS.xml')])).toThrow(/namespace/);
    expect(() => parseEsCima([file('Prescripcion.xml')])).toThrow(/DICCIONARIO_PRINCIPIOS_ACTIVOS/);
    const noPrice = { name: 'Nomenclator_de_Facturacion.csv', content: Buffer.from('Código Nacional,Nombre del producto farmacéutico\r\n659123,X\r\n') };
    expect(() => parseEsCima([file('Prescripcion.xml'), file('DICCIONARIO_PRINCIPIOS_ACTIVOS.xml'), noPrice])).toThrow(/Precio venta/);
  });

  it('reads ISO and day-first dates', () => {
    expect(esDate('2004-10-04')).toBe('2004-10-04');
    expect(esDate('04/10/2004')).toBe('2004-10-04');
    expect(esDate('31/02/2004')).toBeUndefined();
  });
});
