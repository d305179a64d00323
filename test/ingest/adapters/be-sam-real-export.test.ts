/**
 * The be-sam adapter on a real record of the SAM v2 AMP export (test/fixtures/registers/be-sam/
 * real-export, see SOURCE.md there): the AMP SAM000025-00 (Haldol 5 mg/ml) as a public project
 * quoted it from the export, two of its four AMPPs kept. The record is wrapped here in the
 * export's root element, the one part of the file the source does not give; counts and values
 * are checked against the record's bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBeSam } from '../../../workers/ingest/adapters/be-sam.ts';
import type { PackEntry, ProductEntry } from '../../../workers/ingest/snapshot.ts';

const record = readFileSync(new URL('../../fixtures/registers/be-sam/real-export/amp-SAM000025-00.xml', import.meta.url));
const exportFile = {
  name: 'AMP-1667260800000.xml',
  content: Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns4:ExportActualMedicines xmlns:ns4="urn:be:fgov:ehealth:samws:v2:export">\n'),
    record,
    Buffer.from('</ns4:ExportActualMedicines>\n'),
  ]),
};

async function read(day: string) {
  const { snapshot, problems, files } = await parseBeSam([exportFile], { asOf: new Date(`${day}T00:00:00Z`) });
  const products = snapshot.products as ProductEntry[];
  const pack = (cti: string) => products[0]!.packs.find((p) => p.key === cti) as PackEntry;
  return { snapshot, problems, files, products, pack };
}

describe('be-sam adapter on a real AMP export record', async () => {
  const now = await read('2022-11-01');

  it('recognises the export by its root and keeps the one record, with nothing malformed', () => {
    expect(now.files).toEqual([{ file: 'AMP-1667260800000.xml', role: 'AMP', read: 1, kept: 1, malformed: 0 }]);
    expect(now.problems).toEqual([]);
    expect(now.snapshot.partial).toBeFalsy();
    expect(now.products.map((p) => p.key)).toEqual(['SAM000025-00']);
  });

  it('reads the AMP from its slice valid on the day, though the export lists the slices out of date order', () => {
    expect(now.products[0]).toMatchObject({
      product_name: 'Haldol 5 mg/ml', atc_code: 'N05AD01', authorisation_status: 'authorized', marketing_status: 'active',
      additional_monitoring: false, dose_form: 'Oplossing voor injectie', route: 'Intramusculair gebruik',
      ingredients: [{ unii: 'name:HALOPERIDOL', strength_value: 5, strength_unit: 'mg/mL' }],
      attributes: expect.objectContaining({ vmp_code: '16469', company_actor_nr: '01028', medicine_type: 'ALLOPATHIC' }),
    });
  });

  it('names the holder from the company slice nested in the AMP slice (its own Data blocks, company fields in another namespace)', () => {
    expect(now.products[0]!.holder).toBe('Janssen-Cilag');
  });

  it('reads each AMPP: GTIN from the FMD code, CNKs of every delivery environment, the public price of environment P', () => {
    expect(now.products[0]!.packs.map((p) => p.key)).toEqual(['000025-01', '000025-02']);
    expect(now.pack('000025-01')).toEqual({
      key: '000025-01', description: '1 ml', units: 1, unit: 'ml', marketing_status: 'active', dispensing_category: 'M1',
      identifiers: [{ system: 'be_ampp_code', code: '000025-01' }, { system: 'national', code: 'BE000025' }],
    });
    expect(now.pack('000025-02')).toMatchObject({
      description: '5 x 1 ml', units: 5, unit: 'ml', dispensing_category: 'M1',
      identifiers: [
        { system: 'be_ampp_code', code: '000025-02' }, { system: 'gtin', code: '5413868105568' }, { system: 'national', code: 'BE000025' },
        { system: 'be_apb', code: '0708289' }, { system: 'be_apb', code: '0046128' },
      ],
      prices: [
        { amount: 2.47, currency: 'EUR', kind: 'ex_factory', valid_from: '2022-06-01' },
        { amount: 7.97, currency: 'EUR', kind: 'public', valid_from: '2022-06-01' },
      ],
    });
  });

  it('takes the prices of another day from the slices valid then (the pharmacy price of 2020-07-01 to 2020-12-31)', async () => {
    const then = await read('2020-08-01');
    expect(then.problems).toEqual([]);
    expect(then.pack('000025-02').prices).toEqual([
      { amount: 2.47, currency: 'EUR', kind: 'ex_factory', valid_from: '2020-07-02' },
      { amount: 7.77, currency: 'EUR', kind: 'public', valid_from: '2020-07-01' },
    ]);
  });

  it('refuses the record without the export root: a bare record is not an export', async () => {
    await expect(parseBeSam([{ name: 'AMP-bare.xml', content: record }])).rejects.toThrow(/AMP-bare\.xml/);
  });
});
