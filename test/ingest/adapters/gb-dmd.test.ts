import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isValidSctConceptId } from '../../../vocabulary/check-digits.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseGbDmd } from '../../../workers/ingest/adapters/gb-dmd.ts';
import { availabilityFrom, legalCategoryFrom } from '../../../workers/ingest/adapters/gb-dmd-build.ts';
import { readDmdRecords } from '../../../workers/ingest/adapters/gb-dmd-xml.ts';
import type { DmdRecord } from '../../../workers/ingest/adapters/gb-dmd-xml.ts';

const DIR = new URL('../../fixtures/registers/gb-dmd/', import.meta.url);
const NAMES = readdirSync(DIR).filter((n) => n.endsWith('.xml')).sort();
const file = (name: string, as = name): InputFile => ({ name: as, content: readFileSync(new URL(name, DIR)) });
const release = (): InputFile[] => NAMES.map((n) => file(n));
const xml = (text: string, name = 'x.xml'): InputFile => ({ name, content: Buffer.from(text, 'utf-8') });

describe('gb-dmd adapter', () => {
  const { snapshot, problems, files } = parseGbDmd(release());
  const product = (apid: string) => snapshot.products?.find((p) => p.key === apid);
  const pack = (appid: string) => snapshot.products?.flatMap((p) => p.packs).find((p) => p.key === appid);

  it('keys products by APID with their VMP, VTM and previous ids, names, holder, form, route and ATC', () => {
    expect(product('4744411000001104')).toMatchObject({
      country: 'GB', product_name: 'Adenocor 6mg/2ml solution for injection vials', brand: 'Adenocor 6mg/2ml solution for injection vials',
      generic: false, holder: 'Sanofi', dose_form: 'Solution for injection', route: 'Intravenous', atc_code: 'C01EB10',
      marketing_status: 'active', previous_names: [{ name: 'Adenocor 3mg/ml injection 2ml vials', until: '2004-07-12' }],
    });
    expect(product('4744411000001104')?.identifiers).toEqual([
      { system: 'dmd_apid', code: '4744411000001104' },
      { system: 'dmd_vmpid', code: '35894711000001106', valid_from: '2018-10-17' },
      { system: 'dmd_vmpid', code: '318338001', previous: true, valid_to: '2018-10-17' },
      { system: 'dmd_vtmid', code: '108502004' },
      { system: 'dmd_vtmid', code: '69000004', previous: true },
    ]);
    expect(product('4744411000001104')?.attributes).toMatchObject({
      vmp_name: 'Adenosine 6mg/2ml solution for injection vials', vtm_name: 'Adenosine', dmd_isids: '35431001',
      controlled_drug_category: 'No Controlled Drug Status', ont_form_route: 'solutioninjection.intravenous',
      vmp_previous_name: 'Adenosine 3mg/ml injection 2ml vials', vmp_name_changed_on: '2004-04-29',
    });
    expect(product('21855411000001109')).toMatchObject({ generic: true, holder: 'Advanz Pharma' });
    expect(product('21855411000001109')?.brand).toBeUndefined();
  });

  it('gives a generic AMP, which carries its VMP\'s name, the VMP\'s previous name (NMPREV until NMDT)', () => {
    expect(product('21855411000001109')?.previous_names).toEqual([{ name: 'Adenosine 3mg/ml injection 2ml vials', until: '2004-04-29' }]);
    // A branded AMP keeps only its own previous name; the VMP's is an attribute.
    expect(product('4744411000001104')?.previous_names).toEqual([{ name: 'Adenocor 3mg/ml injection 2ml vials', until: '2004-07-12' }]);
  });

  it('keeps the price each current price replaced (Drug Tariff PREVPRICE, AMPP PRICE_PREV or PRICEPREV) and the payment category', () => {
    expect(pack('22479711000001106')?.prices).toEqual([
      { amount: 6.59, currency: 'GBP', kind: 'tariff', valid_from: '2017-04-01' },
      { amount: 5.99, currency: 'GBP', kind: 'tariff_previous' },
      { amount: 6.59, currency: 'GBP', kind: 'list', valid_from: '2017-03-01' },
      { amount: 6.29, currency: 'GBP', kind: 'list_previous' },
    ]);
    expect(pack('22479711000001106')?.tariff_category).toBe('Part VIIIA Category C');
    // Its Drug Tariff price is malformed ("4,61"): the price is left out, the category stays.
    expect(pack('22479911000001108')).toMatchObject({ tariff_category: 'Part VIIIA Category C' });
    expect(pack('22479911000001108')?.prices).toBeUndefined();
    expect(pack('90000041000001103')?.tariff_category).toBeUndefined();
  });

  it('reads the AMP previous name under both spellings (NM_PREV of the specification, NMPREV) and the EMA flag', () => {
    expect(product('22479611000001102')).toMatchObject({
      previous_names: [{ name: 'Voltarol 12 Hour 2% Emulgel P', until: '2014-04-24' }], additional_monitoring: true,
    });
  });

  it('takes ingredients from the VMP with strengths and units from the lookup, keyed provisionally by name', () => {
    expect(product('4744411000001104')?.ingredients).toEqual([
      { unii: 'name:ADENOSINE', strength_value: 3, strength_unit: 'mg/ml', strength_text: '3 mg/1 ml' },
    ]);
    expect(product('22479611000001102')?.ingredients).toEqual([{
      unii: 'name:DICLOFENAC DIETHYLAMMONIUM', strength_value: 23.2, strength_unit: 'mg/g', strength_text: '23.2 mg/1 gram (as Diclofenac)',
      moiety: { unii: 'name:DICLOFENAC', strength_value: 23.2, strength_unit: 'mg/g', strength_text: '23.2 mg/1 gram' },
    }]);
    expect(snapshot.substances).toContainEqual({ unii: 'name:ADENOSINE', name: 'Adenosine', names: { en: 'Adenosine' }, provisional: true });
  });

  it('keys packs by APPID with VMPP size, Drug Tariff and list prices in GBP from pence, legal category and GTINs', () => {
    expect(pack('4744711000001105')).toEqual({
      key: '4744711000001105', description: 'Adenocor 6mg/2ml solution for injection vials (Sanofi) 6 vial',
      identifiers: [
        { system: 'dmd_amppid', code: '4744711000001105' }, { system: 'dmd_vmppid', code: '4744111000001109' },
        { system: 'gtin', code: '5000283101086', valid_from: '2008-05-16' },
      ],
      marketing_status: 'active', units: 6, unit: 'vial', dispensing_category: 'POM', tariff_category: 'Part VIIIA Category A',
      prices: [
        { amount: 29.24, currency: 'GBP', kind: 'tariff', valid_from: '2019-04-01' },
        { amount: 27.97, currency: 'GBP', kind: 'tariff_previous' },
        { amount: 6.45, currency: 'GBP', kind: 'list', valid_from: '2017-06-01' },
        { amount: 6.12, currency: 'GBP', kind: 'list_previous' },
      ],
    });
    expect(pack('22479711000001106')).toMatchObject({ units: 50, unit: 'gram', dispensing_category: 'P' });
    expect(pack('90000041000001103')?.prices).toEqual([{ amount: 118.5, currency: 'GBP', kind: 'list', valid_from: '2021-02-15' }]);
  });

  it('folds a GTIN given in 13 and 14 digits into one identifier with the widest validity; keeps other GTIN-14s and end dates', () => {
    expect(pack('21855511000001108')?.identifiers.filter((i) => i.system === 'gtin')).toEqual([
      { system: 'gtin', code: '5060064792018', valid_from: '2013-01-24' },
    ]);
    expect(pack('90000041000001103')?.identifiers).toContainEqual({ system: 'gtin', code: '15012345000012', valid_from: '2021-02-15' });
    expect(pack('22479711000001106')?.identifiers).toContainEqual({ system: 'gtin', code: '5051562030603', valid_from: '2013-09-17', valid_to: '2024-12-31' });
  });

  it('states availability restrictions and marks discontinued packs (and a product with only such packs) withdrawn', () => {
    expect(pack('90000041000001103')?.availability).toBe('special_order');
    expect(product('90000021000001108')).toMatchObject({ generic: true, holder: 'Laboratoires Théa', attributes: { parallel_import: true, availability_restriction: 'Special Order' } });
    expect(pack('24531011000001108')).toMatchObject({ marketing_status: 'withdrawn', availability: 'not_available' });
    // Its price of 0 pence is dm+d's "no price": the tariff price of its VMPP stays.
    expect(pack('24531011000001108')?.prices).toEqual([
      { amount: 29.24, currency: 'GBP', kind: 'tariff', valid_from: '2019-04-01' }, { amount: 27.97, currency: 'GBP', kind: 'tariff_previous' },
    ]);
    expect(product('24530711000001102')?.marketing_status).toBe('withdrawn');
    expect(pack('4744711000001105')?.availability).toBeUndefined();
  });

  it('keeps invalid entries, VTMs and VMPs without AMPs out of the products', () => {
    expect(snapshot.products?.map((p) => p.key)).toEqual(['4744411000001104', '21855411000001109', '24530711000001102', '22479611000001102', '90000021000001108']);
    expect(pack('29915311000001106')).toBeUndefined();
  });

  it('gives an AMP its packs in AMPP file order, also when other AMPs\' packs lie between them', () => {
    // The fixture's second Advanz pack names no VMPP of the release; linked to one, it follows four other AMPs' packs.
    const ampp = NAMES.find((n) => n.startsWith('f_ampp2_'))!;
    const linked = readFileSync(new URL(ampp, DIR), 'utf-8').replace(
      /(<APPID>90000051000001100<\/APPID>[\s\S]*?<VPPID>)34516311000001106/, '$14744111000001109');
    const relinked = parseGbDmd(NAMES.map((n) => (n === ampp ? xml(linked, n) : file(n)))).snapshot.products!;
    expect(relinked.find((p) => p.key === '21855411000001109')?.packs.map((p) => p.key)).toEqual(['21855511000001108', '90000051000001100']);
    expect(relinked.find((p) => p.key === '4744411000001104')?.packs.map((p) => p.key)).toEqual(product('4744411000001104')?.packs.map((p) => p.key));
  });

  it('reports malformed records with file and line and skips them', () => {
    expect(problems).toEqual([
      { file: 'f_amp2_3240526.xml', line: 66, message: 'APID "4744411000001105" is not a valid dm+d (SNOMED CT) id' },
      { file: 'f_ampp2_3240526.xml', line: 107, message: 'PRICE "4.61" is not a price in whole pence' },
      { file: 'f_gtin2_0240526.xml', line: 32, message: 'GTIN "5051562030703" of AMPP 22479911000001108 is not a valid 13 or 14-digit GTIN' },
      { file: 'f_ingredient2_3240526.xml', line: 22, message: 'ISID "12345" is not a valid dm+d (SNOMED CT) id' },
      { file: 'f_lookup2_3240526.xml', line: 20, message: 'UNIT_OF_MEASURE entry has no CD' },
      { file: 'f_vmp2_3240526.xml', line: 73, message: 'STRNT_NMRTR_VAL "ten" is not a number' },
      { file: 'f_vmp2_3240526.xml', line: 93, message: 'DROUTE names VPID 347208002, which is not a VMP of this file' },
      { file: 'f_vmpp2_3240526.xml', line: 49, message: 'PRICE "4,61" is not a price in whole pence' },
      { file: 'f_ampp2_3240526.xml', line: 56, message: 'APID 22298006 is not an AMP of the AMP file' },
      { file: 'f_ampp2_3240526.xml', line: 49, message: 'VPPID 34516311000001106 is not a VMPP of the VMPP file' },
      { file: 'f_amp2_3240526.xml', line: 75, message: 'VPID 347208002 is not a VMP of the VMP file' },
    ]);
    expect(pack('22479911000001108')?.prices).toBeUndefined();
  });

  it('names each file\'s role from its root element and counts records read, kept, malformed and out of scope', () => {
    expect(files).toEqual([
      { file: 'f_amp2_3240526.xml', role: 'AMP', read: 10, kept: 5, malformed: 2, excluded: { out_of_scope: 3 } },
      { file: 'f_ampp2_3240526.xml', role: 'AMPP', read: 17, kept: 10, malformed: 3, excluded: { out_of_scope: 4 } },
      { file: 'f_bnf1_0240526.xml', role: 'BNF', read: 4, kept: 2, malformed: 0, excluded: { out_of_scope: 2 } },
      { file: 'f_gtin2_0240526.xml', role: 'GTIN', read: 5, kept: 5, malformed: 0 },
      { file: 'f_ingredient2_3240526.xml', role: 'ingredient', read: 5, kept: 4, malformed: 1 },
      { file: 'f_lookup2_3240526.xml', role: 'lookup', read: 36, kept: 35, malformed: 1 },
      { file: 'f_vmp2_3240526.xml', role: 'VMP', read: 19, kept: 16, malformed: 2, excluded: { out_of_scope: 1 } },
      { file: 'f_vmpp2_3240526.xml', role: 'VMPP', read: 7, kept: 6, malformed: 1 },
      { file: 'f_vtm2_3240526.xml', role: 'VTM', read: 4, kept: 3, malformed: 0, excluded: { out_of_scope: 1 } },
    ]);
    const renamed = parseGbDmd(NAMES.map((n, i) => file(n, `release/part-${i}.xml`)).reverse());
    expect(renamed.snapshot.products).toEqual(snapshot.products);
    expect(renamed.files?.map((f) => f.role)).toEqual(['VTM', 'VMPP', 'VMP', 'lookup', 'ingredient', 'GTIN', 'BNF', 'AMPP', 'AMP']);
  });

  it('refuses an unknown root, a file that is not XML, a role given twice and a release missing a core file', () => {
    const withFile = (extra: InputFile) => () => parseGbDmd([...release(), extra]);
    expect(withFile(xml('<Preparations><Preparation/></Preparations>', 'Preparations.xml'))).toThrow(/root element <Preparations> is not one of the dm\+d release files/);
    const broken = xml('<ACTUAL_MEDICINAL_PRODUCTS><AMPS><AMP></AMPS>', 'broken.xml');
    expect(() => parseGbDmd([broken])).toThrow(FileRejectedError);
    expect(() => parseGbDmd([broken])).toThrow(/broken\.xml: not well-formed XML/);
    expect(withFile(file('f_amp2_3240526.xml', 'copy.xml'))).toThrow(/copy\.xml: a second AMP file \(the first is f_amp2_3240526\.xml\)/);
    expect(() => parseGbDmd(release().filter((f) => !f.name.startsWith('f_vmpp2')))).toThrow(/needs the VMPP file\(s\) \(f_vmpp2_\*\.xml\)/);
    expect(withFile(xml('<?xml version="1.0" encoding="UTF-16"?><LOOKUP/>', 'u16.xml'))).toThrow(/unsupported XML encoding "utf-16"/);
  });

  it('keeps the first of two AMPs or AMPPs with the same id and reports the repeat', () => {
    const insert = (name: string, before: string, record: string): InputFile => ({
      name, content: Buffer.from(file(name).content.toString('utf-8').replace(before, `${record}${before}`)),
    });
    const files = release().map((f) => {
      if (f.name.startsWith('f_ampp2')) return insert(f.name, '  </AMPPS>', '<AMPP><APPID>4744711000001105</APPID><NM>Again</NM><VPPID>4744111000001109</VPPID><APID>4744411000001104</APID></AMPP>');
      if (f.name.startsWith('f_amp2')) return insert(f.name, '  </AMPS>', '<AMP><APID>4744411000001104</APID><VPID>35894711000001106</VPID><NM>Again</NM></AMP>');
      return f;
    });
    const again = parseGbDmd(files);
    expect(again.problems).toContainEqual({ file: 'f_amp2_3240526.xml', line: 84, message: 'APID 4744411000001104 repeats the AMP of line 5; the first is kept' });
    expect(again.problems).toContainEqual({ file: 'f_ampp2_3240526.xml', line: 72, message: 'APPID 4744711000001105 repeats the AMPP of line 5; the first is kept' });
    expect(again.snapshot.products).toEqual(snapshot.products);
  });

  it('maps lookup texts to availability and dispensing categories', () => {
    expect(['None', 'Special Order', 'Actual Products not Available', 'Hospital only'].map(availabilityFrom))
      .toEqual([undefined, 'special_order', 'not_available', 'hospital_only']);
    expect(['POM', 'p', 'General Sale List', 'Prescription Only Medicine', 'Not applicable'].map(legalCategoryFrom))
      .toEqual(['POM', 'P', 'GSL', 'POM', undefined]);
  });

  it('accepts real dm+d ids: SNOMED CT Verhoeff check digits', () => {
    // Unit, form and product ids of the public release (vial, solution for injection, VMPs, AMPPs).
    for (const id of ['415818006', '385219001', '347208002', '318338001', '22298006', '22479911000001108', '9190711000001101']) {
      expect(isValidSctConceptId(id), id).toBe(true);
    }
  });
});

describe('gb-dmd streaming reader', () => {
  it('decodes Windows-1252 and UTF-8 split across chunk boundaries, and reads GTINDATA groups', () => {
    const records: DmdRecord[] = [];
    const latin = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="windows-1252"?>\r\n<LOOKUP><SUPPLIER><INFO><CD>1</CD><DESC>O', 'latin1'),
      Buffer.from([0x92]), Buffer.from('Neill &amp; Co</DESC></INFO></SUPPLIER></LOOKUP>', 'latin1'),
    ]);
    readDmdRecords('l.xml', latin, () => 3, (r) => records.push(r));
    expect(records[0]).toMatchObject({ section: 'SUPPLIER', tag: 'INFO', line: 2, fields: { CD: '1', DESC: 'O\u2019Neill & Co' } });
    // 1 MiB of padding puts the two bytes of "é" on both sides of the first chunk boundary.
    const head = '<GTIN_DETAILS><AMPPS><AMPP><AMPPID>1</AMPPID><NOTE>';
    const pad = 'x'.repeat((1 << 20) - Buffer.byteLength(head) - 1);
    const utf8 = Buffer.from(`${head}${pad}é</NOTE><GTINDATA><GTIN>5000283101086</GTIN><STARTDT>2008-05-16</STARTDT></GTINDATA></AMPP></AMPPS></GTIN_DETAILS>`);
    records.length = 0;
    readDmdRecords('g.xml', utf8, () => 3, (r) => records.push(r));
    expect(records[0]?.fields.NOTE?.endsWith('xé')).toBe(true);
    expect(records[0]?.groups).toEqual([{ tag: 'GTINDATA', fields: { GTIN: '5000283101086', STARTDT: '2008-05-16' } }]);
  });
});
