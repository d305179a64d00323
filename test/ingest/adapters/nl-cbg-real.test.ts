/**
 * nl-cbg on a real excerpt of the Geneesmiddeleninformatiebank export (metadata.csv, 27
 * columns, 2026; see test/fixtures/registers/nl-cbg/real/SOURCE.md): exact outcomes and values
 * checked against the bytes of the named lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseNlCbg } from '../../../workers/ingest/adapters/nl-cbg.ts';

const CONTENT = readFileSync(new URL('../../fixtures/registers/nl-cbg/real/metadata.csv', import.meta.url));
const LINES = CONTENT.toString('utf8').split('\n');
const { snapshot, problems, files } = parseNlCbg({ name: 'metadata.csv', content: CONTENT });
const product = (key: string) => snapshot.products!.find((p) => p.key === key)!;
/** The fields of the line whose REGISTRATIENUMMER is `number`. */
const fields = (number: string): string[] => LINES.find((l) => l.startsWith(`${number}|`))!.split('|');

describe('nl-cbg on the real metadata.csv (2026 export, 27 columns)', () => {
  it('keeps every one of the 12 lines: none malformed, none excluded', () => {
    expect(problems).toEqual([]);
    expect(files).toEqual([{ file: 'metadata.csv', role: 'Geneesmiddeleninformatiebank', read: 12, kept: 12, malformed: 0 }]);
    expect(snapshot.products).toHaveLength(12);
  });

  it('reads a parallel import (126327//01364, SOORT "RVG " with its space) with its reference, slashed date and afleverstatus in words', () => {
    const f = fields('126327//01364');
    expect([f[1], f[3], f[4], f[5], f[18], f[19]]).toEqual(['RVG ', '2020/04/20', 'Eureco-Pharma B.V.', 'Uitsluitend recept', 'C01AA05 - Digoxin', 'DIGOXINE']);
    expect(product('RVG 126327')).toMatchObject({
      product_name: 'Digoxine Eureco-Pharma, oplossing voor injectie 0,5 mg/2 ml', identifiers: [{ system: 'cbg_meb_id', code: '126327' }],
      authorised_on: '2020-04-20', holder: 'Eureco-Pharma B.V.', atc_code: 'C01AA05', dispensing_category: 'UR', route: 'Intraveneus gebruik',
      ingredients: [{ unii: 'name:DIGOXINE' }],
      attributes: { afleverstatus: 'Uitsluitend recept', atc_naam: 'Digoxin', referentie_rvg: '1364' },
    });
  });

  it('maps the worded afleverstatus to its code: drogist (UAD) and algemene verkoop with its conditions (AV)', () => {
    expect(fields('122571//01553')[5]).toBe('Uitsluitend apotheek of drogist');
    expect(product('RVG 122571').dispensing_category).toBe('UAD');
    expect(fields('132921//08892')[5]).toBe('Algemene verkoop [conform voorwaarden CBG AV-lijst d.d. 1 februari 2024]');
    expect(product('RVG 132921')).toMatchObject({ dispensing_category: 'AV', ingredients: [{ unii: 'name:CALCIUMCARBONAAT (E 170)' }, { unii: 'name:MAGNESIUMCARBONAAT, ZWAAR (E 504 (II))' }] });
  });

  it('reads a central product by its EU number with its EMA procedure, additional monitoring Y, and a trailing space in a substance', () => {
    expect(fields('EU/1/25/1921').slice(8, 11)).toEqual(['EMEA/H/C/006398', 'Subcutaan gebruik', 'Y']);
    expect(product('EU/1/25/1921')).toMatchObject({
      identifiers: [{ system: 'eu_number', code: 'EU/1/25/1921' }], holder: 'Accord Healthcare S.L.U.', authorised_on: '2025-05-26',
      additional_monitoring: true, atc_code: 'M05BX04', attributes: expect.objectContaining({ procedurenummer: 'EMEA/H/C/006398' }),
    });
    expect(fields('EU/1/06/332')[19]).toBe('SOMATROPINE ');
    expect(product('EU/1/06/332').ingredients).toEqual([{ unii: 'name:SOMATROPINE' }]);
    expect(product('EU/1/07/428').dose_form).toBeUndefined();
  });

  it('reads a national product with a decentral procedure and two substances', () => {
    expect(product('RVG 124611')).toMatchObject({
      product_name: 'Rozesta 10 mg/10 mg filmomhulde tabletten', authorised_on: '2021-03-22', dispensing_category: 'UR',
      ingredients: [{ unii: 'name:EZETIMIB' }, { unii: 'name:ROSUVASTATINE CALCIUM 0-WATER' }],
      attributes: expect.objectContaining({ procedurenummer: 'NL/H/4758/002' }),
    });
  });

  it('refuses the excerpt cut inside its header, a file of another register and an empty file', () => {
    expect(() => parseNlCbg({ name: 'metadata.csv', content: CONTENT.subarray(0, 40) })).toThrow(FileRejectedError);
    const tlv = readFileSync(new URL('../../fixtures/registers/se-tlv/tlv_lakemedel.csv', import.meta.url));
    expect(() => parseNlCbg({ name: 'metadata.csv', content: tlv })).toThrow(/not a Geneesmiddeleninformatiebank export/);
    expect(() => parseNlCbg({ name: 'metadata.csv', content: Buffer.alloc(0) })).toThrow(FileRejectedError);
  });
});
