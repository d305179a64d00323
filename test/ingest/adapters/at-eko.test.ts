import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ekoStrength, parseAtEko } from '../../../workers/ingest/adapters/at-eko.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';

const DIR = new URL('../../fixtures/registers/at-eko/', import.meta.url);
const file = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, DIR)) });
const ALL = readdirSync(DIR).filter((n) => !n.startsWith('wrong') && n.includes('.')).map(file);

describe('at-eko adapter', async () => {
  const { snapshot, problems, files } = await parseAtEko(ALL);
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('groups PZN packs by register number into AT products with ATC and the German substance names', () => {
    expect(snapshot.source).toMatchObject({ id: 'at-eko', country: 'AT' });
    expect(snapshot.products?.map((p) => p.key)).toEqual(['135270', '093551', '093102', '135871', '093790', '006541', '123456']);
    expect(product('135270')).toMatchObject({
      country: 'AT', product_name: 'Metformin Genericon 1000 mg Filmtabl.', atc_code: 'A10BA02', marketing_status: 'active',
      identifiers: [{ system: 'at_zulassungsnummer', code: '135270' }],
      ingredients: [{ unii: 'name:METFORMIN', strength_value: 1000, strength_unit: 'mg', strength_text: '1 G/ST' }],
      attributes: { at_eko_box: 'grün' },
    });
    expect(snapshot.substances).toContainEqual({ unii: 'name:INSULIN GLARGIN', name: 'Insulin glargin', names: { de: 'Insulin glargin' }, provisional: true, atc_codes: ['A10AE04'] });
  });

  it('keys packs by Austrian PZN with quantity, the Kassenverkaufspreis in EUR and the prescription status', () => {
    expect(product('135270')?.packs).toEqual([
      {
        key: '2360010', description: '30 St', identifiers: [{ system: 'at_pzn', code: '2360010' }], units: 30, unit: 'Stück',
        prices: [{ amount: 2.95, currency: 'EUR', kind: 'reimbursed' }], marketing_status: 'active', dispensing_category: 'rezeptpflichtig',
      },
      expect.objectContaining({ key: '2360027', units: 60, prices: [{ amount: 5.35, currency: 'EUR', kind: 'reimbursed' }] }),
    ]);
    expect(product('135871')?.packs[0]).toMatchObject({ dispensing_category: 'rezeptfrei', prices: [{ amount: 3.6 }] });
  });

  it('reads a pen pack note as the volume of each piece: 5 pens of 3 ml hold 15 ml', () => {
    expect(product('093102')?.packs[0]).toMatchObject({ description: '5 St, 3 ml', units: 5, unit: 'Stück', quantity: { value: 15, unit: 'ml' } });
    expect(product('093102')?.ingredients).toEqual([{ unii: 'name:INSULIN GLARGIN', strength_value: 100, strength_unit: 'IE/ml', strength_text: '100 IE/ML' }]);
  });

  it('keeps the yellow box, its Kassenzeichen, long-term approval and rule text (Windows-1252 umlauts)', () => {
    expect(product('093790')?.attributes).toEqual({
      at_eko_box: 'gelb', at_eko_kassenzeichen: 'RE1', at_eko_langzeitbewilligung: 'L12',
      at_eko_regeltext: 'Behandlung des Diabetes mellitus Typ 2 bei Erwachsenen, wenn mit Metformin allein nicht das Auslangen gefunden werden kann. Erstverordnung durch Fachärztinnen/Fachärzte für Innere Medizin.',
    });
    expect(product('093790')?.ingredients[0]).toMatchObject({ strength_value: 1.34, strength_unit: 'mg/ml' });
  });

  it('keeps a product without ATC code or substance rows (a homeopathic ointment), and the narcotic vignette', () => {
    expect(product('006541')).toMatchObject({ product_name: 'Traumeel Salbe', ingredients: [], packs: [{ units: 50, unit: 'g' }] });
    expect(product('006541')?.atc_code).toBeUndefined();
    expect(product('123456')?.packs[0]).toMatchObject({ narcotic_list: 'SG', dispensing_category: 'rezeptpflichtig, Suchtgift' });
  });

  it('reports malformed lines with file and line, and excludes a repeated PZN as a duplicate', () => {
    expect(problems).toEqual([
      { file: 'medikament.txt', line: 9, message: 'PZN "1234568" is not a 7-digit Austrian PZN (check digit)' },
      { file: 'medikament.txt', line: 10, message: 'PZN 3777002: line ends before the Kassenverkaufspreis' },
      { file: 'medikament.txt', line: 11, message: 'PZN 3778007: Kassenverkaufspreis "3,45EU" is not an amount in cents' },
    ]);
    expect(files?.[0]).toEqual({ file: 'medikament.txt', role: 'EKO Medikamente', read: 12, kept: 8, malformed: 3, excluded: { duplicate: 1 } });
  });

  it('reads the pack list alone: no substances, no prescription status', async () => {
    const alone = await parseAtEko([file('medikament.txt')]);
    expect(alone.snapshot.products?.[0]).toMatchObject({ key: '135270', ingredients: [] });
    expect(alone.snapshot.products?.[0]?.packs[0]?.dispensing_category).toBeUndefined();
  });

  it('refuses a file of another layout and a missing pack list', async () => {
    await expect(parseAtEko([{ ...file('wrong-layout.csv'), name: 'medikament.txt' }])).rejects.toThrow(FileRejectedError);
    await expect(parseAtEko([file('wirkstoff.txt'), file('atccode.txt')])).rejects.toThrow(/medikament\.txt/);
  });

  it('turns EKO strengths into catalogue units', () => {
    expect(ekoStrength('0,00036', 'G/ML')).toEqual({ strength_value: 0.36, strength_unit: 'mg/ml', strength_text: '0,00036 G/ML' });
    expect(ekoStrength('5000', 'IE/G')).toEqual({ strength_value: 5000, strength_unit: 'IE/g', strength_text: '5000 IE/G' });
    expect(ekoStrength('0,00002', 'G/HB')).toEqual({ strength_value: 0.02, strength_unit: 'mg/dose', strength_text: '0,00002 G/HB' });
    expect(ekoStrength('', '')).toEqual({});
  });
});
