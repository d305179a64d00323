import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseDosage } from '../../../workers/ingest/adapters/fr-bdpm-compo.ts';
import { bdpmUnits, parseFrBdpm } from '../../../workers/ingest/adapters/fr-bdpm.ts';

const file = (name: string, as = name): InputFile => ({
  name: as,
  content: readFileSync(new URL(`../../fixtures/registers/fr-bdpm/${name}`, import.meta.url)),
});
const all = (): InputFile[] => ['CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt', 'CIS_MITM.txt'].map((n) => file(n));

describe('fr-bdpm adapter', () => {
  const { snapshot, problems } = parseFrBdpm(all());
  const product = (cis: string) => snapshot.products?.find((p) => p.key === cis);

  it('reads fixtures that really are Windows-1252 bytes', () => {
    const bytes = file('CIS_bdpm.txt').content;
    expect(bytes.includes(Buffer.from([0x6d, 0xe9]))).toBe(true); // "mé" as one byte 0xE9
    expect(bytes.includes(Buffer.from('é', 'utf-8'))).toBe(false);
  });

  it('decodes accented and Windows-1252-only characters correctly', () => {
    expect(product('60234100')?.product_name).toBe('DOLIPRANE 1000 mg, comprimé');
    expect(product('64793681')?.holder).toBe('LABORATOIRE D’EXEMPLE; ŒUVRE PHARMA');
    expect(product('64793681')?.dose_form).toBe('comprimé pelliculé sécable');
  });

  it('maps the CIS_bdpm columns to a product keyed by its CIS code', () => {
    expect(product('60234100')).toMatchObject({
      country: 'FR', route: 'orale', holder: 'SANOFI AVENTIS FRANCE', authorised_on: '1996-07-09',
      marketing_status: 'active', atc_code: 'N02BE01',
      identifiers: [{ system: 'national', code: '60234100' }],
    });
    expect(product('68257528')).toMatchObject({ marketing_status: 'withdrawn', route: 'intramusculaire;sous-cutanée' });
    expect(product('68257528')?.identifiers).toContainEqual({ system: 'national', code: 'EU/1/17/1234/001' });
  });

  it('keys presentations by CIP13 with CIP13, GTIN and CIP7 identifiers', () => {
    const pack = product('60234100')?.packs[0];
    expect(pack).toMatchObject({
      key: '3400933989453',
      description: 'plaquette(s) thermoformée(s) PVC-aluminium de 8 comprimé(s)',
      units: 8, unit: 'comprimé(s)', marketing_status: 'active', reimbursement_rate_percent: 65,
    });
    expect(pack?.identifiers).toEqual([
      { system: 'cip13', code: '3400933989453' }, { system: 'gtin', code: '3400933989453' }, { system: 'cip7', code: '3398945' },
    ]);
  });

  it('parses French decimal prices, with or without thousands separators', () => {
    expect(product('60234100')?.packs[0]?.prices).toEqual([
      { amount: 1.16, currency: 'EUR', kind: 'list' }, { amount: 2.18, currency: 'EUR', kind: 'public' },
    ]);
    const big = product('64793681')?.packs.find((p) => p.key === '3400936963504');
    expect(big?.prices?.map((p) => p.amount)).toEqual([1234.56, 1235.58]);
    expect(big).toMatchObject({ units: 60, reimbursement_rate_percent: 65 });
  });

  it('marks stopped presentations as withdrawn and leaves their empty prices out', () => {
    const stopped = product('64793681')?.packs.find((p) => p.key === '3400955074199');
    expect(stopped?.marketing_status).toBe('withdrawn');
    expect(stopped?.prices).toBeUndefined();
    expect(stopped?.reimbursement_rate_percent).toBeUndefined();
  });

  it('reads the composition, folding a therapeutic fraction into the active moiety', () => {
    expect(product('60234100')?.ingredients).toEqual([{ unii: 'bdpm:02202', strength_value: 1000, strength_unit: 'mg' }]);
    expect(product('64793681')?.ingredients).toEqual([{ unii: 'bdpm:24321', strength_value: 1000, strength_unit: 'mg' }]);
    expect(snapshot.substances).toContainEqual({ unii: 'bdpm:02202', name: 'PARACÉTAMOL', provisional: true });
    expect(snapshot.substances).toContainEqual({
      unii: 'bdpm:24321', name: 'CHLORHYDRATE DE METFORMINE', provisional: true, moiety_unii: 'bdpm:04442',
    });
  });

  it('reports malformed rows of every file with their line numbers and skips them', () => {
    expect(problems).toEqual([
      { file: 'CIS_bdpm.txt', line: 4, message: 'expected 12 tab-separated fields, got 10' },
      { file: 'CIS_bdpm.txt', line: 5, message: 'AMM date "31/02/2001" is not DD/MM/YYYY' },
      { file: 'CIS_CIP_bdpm.txt', line: 4, message: 'CIP13 "3400949497295" is not a valid 34009 GTIN-13' },
      { file: 'CIS_CIP_bdpm.txt', line: 5, message: 'CIS 69999999 is not a product of CIS_bdpm.txt (or was skipped)' },
      { file: 'CIS_CIP_bdpm.txt', line: 6, message: 'price "abc" is not a French decimal number' },
      { file: 'CIS_COMPO_bdpm.txt', line: 4, message: 'nature "XX" is neither SA nor FT' },
    ]);
    expect(product('61111111')).toBeUndefined();
    expect(product('68257528')?.packs).toEqual([]);
  });

  it('works without the optional composition and ATC files', () => {
    const result = parseFrBdpm([file('CIS_bdpm.txt'), file('CIS_CIP_bdpm.txt')]);
    expect(result.snapshot.substances).toEqual([]);
    expect(result.snapshot.products?.find((p) => p.key === '60234100')?.atc_code).toBeUndefined();
  });

  it('rejects a CIS_bdpm file whose first line is not a CIS row (e.g. a header)', () => {
    const files = [file('CIS_bdpm-with-header.txt', 'CIS_bdpm.txt'), file('CIS_CIP_bdpm.txt')];
    expect(() => parseFrBdpm(files)).toThrow(FileRejectedError);
    expect(() => parseFrBdpm(files)).toThrow(/line 1 is not a CIS_bdpm row/);
  });

  it('rejects a call without CIS_CIP_bdpm.txt', () => {
    expect(() => parseFrBdpm([file('CIS_bdpm.txt')])).toThrow(/needs CIS_bdpm.txt and CIS_CIP_bdpm.txt/);
  });
});

describe('BDPM value parsing', () => {
  it('reads dosages with French decimals and spaced thousands', () => {
    expect(parseDosage('1,00 mg')).toEqual({ value: 1, unit: 'mg' });
    expect(parseDosage('100 000 UI')).toEqual({ value: 100000, unit: 'UI' });
    expect(parseDosage('800 microgrammes')).toEqual({ value: 800, unit: 'microgrammes' });
    expect(parseDosage('quantité suffisante')).toBeNull();
  });

  it('reads pack sizes, multiplying an outer count', () => {
    expect(bdpmUnits('plaquette(s) PVC de 30 comprimé(s)')).toEqual({ units: 30, unit: 'comprimé(s)' });
    expect(bdpmUnits('2 plaquette(s) de 14 gélule(s)')).toEqual({ units: 28, unit: 'gélule(s)' });
    expect(bdpmUnits('1 tube')).toBeNull();
  });
});
