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

  it('keys packs by GTIN and fills the SL data: prices, co-insurance, limitations with codes, flag, category', () => {
    const pack = product('1001')?.packs[0];
    expect(pack).toMatchObject({ key: '7680653170010', description: '16 Stk', units: 16, unit: 'Stk', dispensing_category: 'D' });
    expect(pack?.identifiers).toEqual([{ system: 'gtin', code: '7680653170010' }, { system: 'swissmedic_no', code: '65317001' }]);
    expect(pack?.prices).toEqual([
      { amount: 1.85, currency: 'CHF', kind: 'ex_factory', valid_from: '2023-12-01' },
      { amount: 3.9, currency: 'CHF', kind: 'public', valid_from: '2023-12-01' },
    ]);
    expect(pack?.sl).toEqual({
      listed: true, coinsurance_percent: 40, public_price: 3.9, ex_factory_price: 1.85, flag: 'O', listed_since: '2015-03-01',
      limitation: { text: 'Nur bei Schmerzen\nnach ärztlicher Verordnung.\n\nHöchstens 2 Packungen pro Quartal.', points: 30 },
      limitations: [
        { code: 'EXEMPLOL', type: 'DIA', niveau: 'IP', text: 'Nur bei Schmerzen\nnach ärztlicher Verordnung.', level: 'preparation', valid_from: '2020-01-01' },
        { code: 'EXEMPLOL16', type: 'KOM', text: 'Höchstens 2 Packungen pro Quartal.', level: 'pack' },
      ],
    });
    expect(product('1001')).toMatchObject({
      dispensing_category: 'D',
      attributes: { sl_it_code: '01.', sl_it_code_label: 'NERVENSYSTEM', sl_flag_sb: 'Y', sl_flag_sb20: 'N', sl_org_gen_code: 'O', bag_dossier_no: '20001' },
    });
  });

  it('keeps a preparation without Swissmedic number or GTIN: pack keyed by pharmacode, else dossier + description', () => {
    const diet = product('19736');
    expect(diet).toMatchObject({ product_name: 'Lactonova Plv', identifiers: [], attributes: { sl_gamme_number: '12', sl_gamme_name: 'Spezialnahrung', sl_flag_ggsl: 'N', sl_it_code: '07.02.40.' } });
    expect(diet?.generic).toBeUndefined();
    expect(diet?.packs.map((p) => p.key)).toEqual(['phar:3817150', 'dossier:18943:6 x 450 g']);
    expect(diet?.packs[0]).toMatchObject({ identifiers: [{ system: 'pharmacode', code: '3817150' }], units: 450, unit: 'g' });
    expect(diet?.packs[0]?.dispensing_category).toBeUndefined();
    expect(diet?.packs[0]?.sl).toMatchObject({
      coinsurance_percent: 10, public_price: 28.5,
      limitation: { text: 'Gesamthaft zugelassen: 40 Punkte' },
      limitations: [{ code: '070240', type: 'PKT', value: 40, niveau: 'IP', level: 'preparation', text: 'Gesamthaft zugelassen: 40 Punkte', valid_from: '2000-01-01' }],
    });
    // No ProductCommercial and SwissmedicNo5 0: keyed by the BAG dossier number.
    expect(product('dossier:18950')).toMatchObject({ product_name: 'Glucodiet Sirup', identifiers: [], packs: [{ key: 'dossier:18950:1 l', identifiers: [] }] });
  });

  it('reads the older schema: ISO-8859-1, CRLF, no GTIN element, 6-digit SwissmedicNo8, FlagSB20 at the 2013 rate', () => {
    const old = parseChSl('Preparations-2013.xml', fixture('Preparations-2013.xml'));
    expect(old.problems).toEqual([]);
    const ancopir = old.snapshot.products?.find((p) => p.key === '394');
    expect(ancopir?.product_name).toBe('Ancopir Inj Lös');
    expect(ancopir?.packs[0]).toMatchObject({
      key: '7680284860144', dispensing_category: 'B',
      identifiers: [{ system: 'gtin', code: '7680284860144' }, { system: 'swissmedic_no', code: '28486014' }, { system: 'pharmacode', code: '177804' }],
    });
    expect(ancopir?.packs[0]?.sl).toMatchObject({
      coinsurance_percent: 20, flag: 'O', listed_since: '1975-03-15',
      limitation: { text: 'Gesamthaft zugelassen: 40 Punkte', points: 20 },
      limitations: [{ code: '070240', type: 'PKT', value: 40, level: 'preparation' }],
    });
    const varilrix = old.snapshot.products?.find((p) => p.key === '9801');
    expect(varilrix?.identifiers).toEqual([{ system: 'swissmedic_no', code: '00585' }]);
    expect(varilrix?.packs[0]?.key).toBe('7680005850010');
    expect(varilrix?.packs[0]?.sl?.coinsurance_percent).toBe(10);
    expect(old.files).toEqual([{ file: 'Preparations-2013.xml', role: 'Preparations', read: 2, kept: 2, malformed: 0 }]);
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

  it('keeps the previous GTIN the newer schema names as a previous identifier', () => {
    const xml = fixture('Preparations.xml').toString('utf-8').replace('<GTIN>7680653170010</GTIN>', '<GTIN>7680653170010</GTIN><PrevGTINcode>7680653170034</PrevGTINcode>');
    const pack = parseChSl('Preparations.xml', Buffer.from(xml)).snapshot.products?.[0]?.packs[0];
    expect(pack?.identifiers).toContainEqual({ system: 'gtin', code: '7680653170034', previous: true });
    expect(pack?.key).toBe('7680653170010');
  });

  it('reports preparations read, kept and malformed', () => {
    expect(parseChSl('Preparations.xml', fixture('Preparations.xml')).files).toEqual([
      { file: 'Preparations.xml', role: 'Preparations', read: 5, kept: 4, malformed: 1 },
    ]);
  });

  it('reports a GTIN that appears twice and keeps the first', () => {
    const xml = fixture('Preparations.xml').toString('utf-8').replace('<SwissmedicNo8>39271028</SwissmedicNo8>', '<GTIN>7680653170010</GTIN>');
    const result = parseChSl('Preparations.xml', Buffer.from(xml));
    expect(result.problems).toContainEqual({ file: 'Preparations.xml', line: 114, message: 'pack 7680653170010 appears twice' });
    expect(result.snapshot.products?.find((p) => p.key === '33')?.packs).toEqual([]);
  });

  it('rejects a file whose root element is not Preparations', () => {
    expect(() => parseChSl('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(FileRejectedError);
    expect(() => parseChSl('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(/root element is not <Preparations>/);
  });

  it('rejects XML that is not well-formed, naming the line', () => {
    expect(() => parseChSl('broken.xml', fixture('broken.xml'))).toThrow(/not well-formed XML at line 5/);
  });
});
