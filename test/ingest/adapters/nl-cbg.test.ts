/**
 * The CBG-MEB Geneesmiddeleninformatiebank export read against its fixture: a UTF-8 file with
 * a byte-order mark and CRLF line ends, column names spelt as a later release spells them
 * (`FARMACEUTISCHE_VORM`), `$SEMICOLON$` escapes, dates in three layouts, a parallel import,
 * an EU product, a homeopathic product without ATC, and three rows the reader must skip.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { openNlCbg, parseNlCbg } from '../../../workers/ingest/adapters/nl-cbg.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import type { StreamedAdapterResult } from '../../../workers/ingest/input.ts';
import type { ProductEntry } from '../../../workers/ingest/snapshot.ts';

const FIXTURES = new URL('../../fixtures/registers/nl-cbg/', import.meta.url);
const file = (name: string) => ({ name, content: readFileSync(new URL(name, FIXTURES)) });

async function collect(result: StreamedAdapterResult) {
  const products: ProductEntry[] = [];
  for await (const p of result.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
  return { ...result, snapshot: { ...result.snapshot, products } };
}

describe('nl-cbg adapter', () => {
  const { snapshot, problems, files } = parseNlCbg(file('metadata.csv'));
  const product = (key: string) => snapshot.products!.find((p) => p.key === key)!;

  it('names its source and counts the rows it read, kept and found malformed', () => {
    expect(snapshot.source).toMatchObject({ id: 'nl-cbg', country: 'NL', url: 'https://www.geneesmiddeleninformatiebank.nl/metadata.csv' });
    expect(files).toEqual([{ file: 'metadata.csv', role: 'Geneesmiddeleninformatiebank', read: 11, kept: 8, malformed: 3 }]);
  });

  it('excludes a registration listed again as a duplicate (the first line kept), not as malformed', () => {
    const text = file('metadata.csv').content.toString('utf8');
    const again = text.split(/\r?\n/).find((l) => l.startsWith('26627|'))!;
    const twice = parseNlCbg({ name: 'metadata.csv', content: Buffer.from(`${text.replace(/\r?\n$/, '')}\n${again}\n`) });
    expect(twice.files).toEqual([{ file: 'metadata.csv', role: 'Geneesmiddeleninformatiebank', read: 12, kept: 8, malformed: 3, excluded: { duplicate: 1 } }]);
    expect(twice.problems).toHaveLength(3);
  });

  it('maps every column of a national registration', () => {
    expect(product('RVG 26627')).toEqual({
      key: 'RVG 26627', country: 'NL', product_name: 'Metformine HCl Sandoz 500 mg, filmomhulde tabletten',
      identifiers: [{ system: 'cbg_meb_id', code: '26627' }],
      ingredients: [{ unii: 'name:METFORMINEHYDROCHLORIDE', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      packs: [], atc_code: 'A10BA02', dose_form: 'Filmomhulde tablet', route: 'Oraal gebruik', holder: 'Sandoz B.V.',
      authorised_on: '2001-09-12', dispensing_category: 'UR',
      attributes: { afleverstatus: 'UR', procedurenummer: 'NL/H/0123/001', potentie: '500 mg', atc_naam: 'metformine' },
    });
    expect(snapshot.substances).toContainEqual({ unii: 'name:METFORMINEHYDROCHLORIDE', name: 'METFORMINEHYDROCHLORIDE', names: { nl: 'METFORMINEHYDROCHLORIDE' }, provisional: true });
  });

  it('gives each substance of a combination its own strength, reads decimal commas and unquotes a quoted field', () => {
    expect(product('RVG 33912').ingredients).toEqual([
      { unii: 'name:AMOXICILLINE TRIHYDRAAT', strength_value: 875, strength_unit: 'mg', strength_text: '875 mg' },
      { unii: 'name:KALIUMCLAVULANAAT', strength_value: 125, strength_unit: 'mg', strength_text: '125 mg' },
    ]);
    expect(product('RVG 57201')).toMatchObject({ dose_form: 'Crème', holder: 'Teva Nederland B.V.', ingredients: [{ strength_value: 10, strength_unit: 'mg/g' }] });
    expect(product('RVG 60001').ingredients).toEqual([{ unii: 'name:SALBUTAMOLSULFAAT', strength_value: 0.1, strength_unit: 'mg/dosis', strength_text: '0,1 mg/dosis' }]);
  });

  it('reads an EU product by its pack and product EU numbers, with additional monitoring', () => {
    expect(product('EU/1/11/691/006')).toMatchObject({
      identifiers: [{ system: 'eu_number', code: 'EU/1/11/691/006' }, { system: 'eu_number', code: 'EU/1/11/691' }],
      atc_code: 'B01AF02', additional_monitoring: true, holder: 'Bristol-Myers Squibb/Pfizer EEIG',
    });
  });

  it('reads a parallel import, day-first and slashed dates, and escaped semicolons', () => {
    expect(product('RVG 110481')).toMatchObject({ authorised_on: '2012-06-15', attributes: expect.objectContaining({ referentie_rvg: '18220' }) });
    expect(product('RVG 13079')).toMatchObject({ authorised_on: '1990-02-21', dispensing_category: 'UAD;AV' });
    const arnica = product('RVH 12345');
    expect(arnica).toMatchObject({ route: 'Oraal gebruik;Sublinguaal gebruik', ingredients: [{ unii: 'name:ARNICA MONTANA', strength_text: 'D6' }] });
    expect(arnica.atc_code).toBeUndefined();
  });

  it('reports malformed rows with file and line and skips them', () => {
    expect(problems).toEqual([
      { file: 'metadata.csv', line: 10, message: 'RVG 60002: INSCHRIJVINGSDATUM "31-02-2010" is not a date' },
      { file: 'metadata.csv', line: 11, message: 'no REGISTRATIENUMMER' },
      { file: 'metadata.csv', line: 12, message: '5 fields where the header has 16' },
    ]);
  });

  it('refuses a file that is not the export', () => {
    expect(() => parseNlCbg(file('wrong-header.csv'))).toThrow(FileRejectedError);
    expect(() => parseNlCbg({ name: 'metadata.csv', content: Buffer.from('REGISTRATIENUMMER|PRODUCTNAAM\r\n') })).toThrow(/no usable registrations/);
  });

  it('streams the same snapshot and problems from disk', async () => {
    const onDisk = fileInput(new URL('metadata.csv', FIXTURES).pathname, 'metadata.csv');
    expect(await collect(await openNlCbg(onDisk))).toEqual(parseNlCbg(file('metadata.csv')));
    await expect(openNlCbg(fileInput(new URL('wrong-header.csv', FIXTURES).pathname, 'metadata.csv'))).rejects.toThrow(FileRejectedError);
  });

  it('reads a Windows-1252 export alike', () => {
    const latin = Buffer.from(readFileSync(new URL('metadata.csv', FIXTURES)).subarray(3).toString('utf8'), 'latin1');
    expect(parseNlCbg({ name: 'metadata.csv', content: latin }).snapshot.products!.find((p) => p.key === 'RVG 57201')!.dose_form).toBe('Crème');
  });
});
