import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChSl } from '../../../workers/ingest/adapters/ch-sl.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/ch-sl/${name}`, import.meta.url));

describe('ch-sl adapter', () => {
  const { snapshot, problems } = parseChSl('Preparations.xml', fixture('Preparations.xml'));
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('maps a preparation to a CH product keyed by ProductCommercial', () => {
    expect(product('1001')).toMatchObject({
      country: 'CH', product_name: 'Exemplol Filmtabl 500 mg', brand: 'Exemplol', atc_code: 'N02BE01',
      generic: false, marketing_status: 'active', identifiers: [{ system: 'swissmedic_no', code: '65317' }],
    });
    expect(product('33')).toMatchObject({ generic: true, holder: 'Exempla AG' });
  });

  it('keeps the Latin substance names as provisional substances with strengths', () => {
    expect(product('1001')?.ingredients).toEqual([{ unii: 'name:PARACETAMOLUM', strength_value: 500, strength_unit: 'mg' }]);
    expect(snapshot.substances).toContainEqual({ unii: 'name:PARACETAMOLUM', name: 'Paracetamolum', names: { la: 'Paracetamolum' }, provisional: true });
  });

  it('keys packs by GTIN and fills the SL data: prices, co-insurance, limitation, flag', () => {
    const pack = product('1001')?.packs[0];
    expect(pack).toMatchObject({ key: '7680653170010', description: '16 Stk', units: 16, unit: 'Stk' });
    expect(pack?.identifiers).toEqual([{ system: 'gtin', code: '7680653170010' }, { system: 'swissmedic_no', code: '65317001' }]);
    expect(pack?.prices).toEqual([
      { amount: 1.85, currency: 'CHF', kind: 'ex_factory', valid_from: '2023-12-01' },
      { amount: 3.9, currency: 'CHF', kind: 'public', valid_from: '2023-12-01' },
    ]);
    expect(pack?.sl).toEqual({
      listed: true, coinsurance_percent: 40, public_price: 3.9, ex_factory_price: 1.85, flag: 'O', listed_since: '2015-03-01',
      limitation: { text: 'Nur bei Schmerzen\nnach ärztlicher Verordnung.\n\nHöchstens 2 Packungen pro Quartal.', points: 30 },
    });
  });

  it('rebuilds the GTIN of an old pack from 7680 + SwissmedicNo8 and reads the legacy 20 % flag as the higher deductible', () => {
    const pack = product('33')?.packs[0];
    expect(pack?.key).toBe('7680392710287');
    expect(pack?.identifiers).toContainEqual({ system: 'pharmacode', code: '703279' });
    expect(pack?.sl).toMatchObject({ coinsurance_percent: 40, flag: 'G', limitation: null, public_price: 7.5 });
  });

  it('uses the 10 % default co-insurance when no higher-deductible flag is set', () => {
    const xml = fixture('Preparations.xml').toString('utf-8').replace('<FlagSB>Y</FlagSB>', '<FlagSB>N</FlagSB>');
    const result = parseChSl('Preparations.xml', Buffer.from(xml));
    expect(result.snapshot.products?.[0]?.packs[0]?.sl?.coinsurance_percent).toBe(10);
  });

  it('reports a bad pack and a bad preparation with the line of their start tag and skips them', () => {
    expect(problems).toEqual([
      { file: 'Preparations.xml', line: 86, message: 'GTIN "7680653170012" has a wrong check digit or length' },
      { file: 'Preparations.xml', line: 146, message: 'preparation has no NameDe' },
    ]);
    expect(product('1001')?.packs).toHaveLength(1);
    expect(product('77')).toBeUndefined();
  });

  it('rejects a file whose root element is not Preparations', () => {
    expect(() => parseChSl('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(FileRejectedError);
    expect(() => parseChSl('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(/root element is not <Preparations>/);
  });

  it('rejects XML that is not well-formed, naming the line', () => {
    expect(() => parseChSl('broken.xml', fixture('broken.xml'))).toThrow(/not well-formed XML at line 5/);
  });
});
