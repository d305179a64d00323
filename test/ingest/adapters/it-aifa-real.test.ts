/**
 * The it-aifa adapter on AIFA's files as published (test/fixtures/registers/it-aifa/real/, see
 * SOURCE.md there): the Lista di trasparenza of 15 October 2020 (CP1252, `;`, CRLF, prices as
 * `5,63 €`, AIC without its leading zero) and a Banca Dati Farmaci extract of 1 December 2022
 * (UTF-8 with BOM, 49 columns, one row per pack × route × substance, whole rows repeated).
 * Each read alone and beside the register; values checked against the bytes of named lines.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCodes } from '../../../vocabulary/codes.ts';
import { decodeWindows1252 } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';
import { openItAifa } from '../../../workers/ingest/adapters/it-aifa-stream.ts';
import { parseItAifa } from '../../../workers/ingest/adapters/it-aifa.ts';
import { ingestSnapshot } from '../../../workers/ingest/engine.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import type { AdapterResult, PackEntry, ProductEntry } from '../../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../../helpers/app.ts';
import type { TestApp } from '../../helpers/app.ts';

const LIST = 'Lista_farmaci_equivalenti.csv';
const BDFN = 'BDFN_MEDICINALE_SPOR_01122022_tracciato.csv';
const REAL = new URL('../../fixtures/registers/it-aifa/real/', import.meta.url);
const real = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, REAL)) });
const register = (): InputFile => ({ name: 'confezioni_fornitura.csv', content: readFileSync(new URL('../confezioni_fornitura.csv', REAL)) });

/** Line `n` (1-based) of a real file as published, decoded as its publisher wrote it. */
function line(name: string, n: number): string {
  const bytes = readFileSync(new URL(name, REAL));
  const text = name === LIST ? decodeWindows1252(bytes) : bytes.toString('utf8');
  return text.split('\r\n')[n - 1]!;
}

function find(result: AdapterResult, aic: string): { product: ProductEntry; pack: PackEntry } {
  for (const product of result.snapshot.products as ProductEntry[]) {
    const pack = product.packs.find((p) => p.key === aic);
    if (pack) return { product, pack };
  }
  throw new Error(`no pack ${aic}`);
}

const packCount = (result: AdapterResult) => (result.snapshot.products as ProductEntry[]).reduce((n, p) => n + p.packs.length, 0);

describe('it-aifa on the real Lista di trasparenza, given alone', () => {
  const list = parseItAifa([real(LIST)]);

  it('reads every row as a pack of the source it-aifa-prezzi (never the register\'s source, so it deletes no register pack)', () => {
    expect(list.snapshot.source).toMatchObject({ id: 'it-aifa-prezzi', country: 'IT' });
    expect(list.files).toEqual([{ file: LIST, role: 'lista di trasparenza', read: 573, kept: 573, malformed: 0 }]);
    expect(list.files!.every(balanced)).toBe(true);
    expect(list.problems).toEqual([]);
    expect(packCount(list)).toBe(573);
    expect(list.snapshot.products).toHaveLength(488);
  });

  it('gives line 2 its SSN reference and public price, equivalence group, ATC, holder and the AIC with its leading zero', () => {
    expect(line(LIST, 2)).toBe('Acarbosio;40 UNITA\' 100 MG - USO ORALE;A10BF01;44155024;ACARBOSIO DOC GENERICI;"""100 MG COMPRESSE"" 40 COMPRESSE IN BLISTER PVC/PE/PVDC-AL";DOC GENERICI S.R.L.;5,63 €;5,63 €;0,00 €;;H1A');
    const { product, pack } = find(list, '044155024');
    expect(product).toMatchObject({
      key: '044155|100 MG COMPRESSE', product_name: 'ACARBOSIO DOC GENERICI 100 MG COMPRESSE', brand: 'ACARBOSIO DOC GENERICI',
      atc_code: 'A10BF01', holder: 'DOC GENERICI S.R.L.', attributes: { gruppo_equivalenza: 'H1A' },
      ingredients: [{ unii: 'name:ACARBOSIO', strength_value: 100, strength_unit: 'mg', strength_text: '100 MG' }],
    });
    expect(pack).toEqual({
      key: '044155024', description: '"100 MG COMPRESSE" 40 COMPRESSE IN BLISTER PVC/PE/PVDC-AL', identifiers: [{ system: 'aic', code: '044155024' }],
      marketing_status: 'active', units: 40, unit: 'COMPRESSE',
      prices: [
        { amount: 5.63, currency: 'EUR', kind: 'reimbursed', valid_from: '2020-10-15' },
        { amount: 5.63, currency: 'EUR', kind: 'public', valid_from: '2020-10-15' },
      ],
    });
  });

  it('keeps a brand above the reference price (line 7) and the note of line 264', () => {
    expect(line(LIST, 7)).toContain(';26851028;GLUCOBAY;"""50 MG COMPRESSE"" 40 COMPRESSE";BAYER S.P.A.;5,63 €;8,04 €;2,41 €;;H1B');
    expect(find(list, '026851028').pack.prices).toEqual([
      { amount: 5.63, currency: 'EUR', kind: 'reimbursed', valid_from: '2020-10-15' },
      { amount: 8.04, currency: 'EUR', kind: 'public', valid_from: '2020-10-15' },
    ]);
    expect(line(LIST, 264)).toContain(';42850014;CLOPIDOGREL ACTAVIS;');
    expect(line(LIST, 264)).toMatch(/;In distribuzione diretta da parte delle Regioni;EWA$/);
    expect(find(list, '042850014').product.attributes).toEqual({ gruppo_equivalenza: 'EWA', nota_trasparenza: 'In distribuzione diretta da parte delle Regioni' });
  });

  it('finds an AIC with and without its leading zero', () => {
    expect(detectCodes('44155024')).toContainEqual({ kind: 'aic', system: 'aic', code: '044155024' });
    expect(detectCodes('044155024')).toContainEqual({ kind: 'aic', system: 'aic', code: '044155024' });
  });

  it('is read the same by the streamed adapter the CLI and the sync run', async () => {
    const streamed = await openItAifa([real(LIST)]);
    expect(streamed.files).toEqual(list.files);
  });
});

describe('it-aifa on the real BDFN extract', () => {
  const bdfn = parseItAifa([real(BDFN)]);

  it('reads it alone as the register: one pack per AIC, whole rows repeated excluded as duplicates', () => {
    expect(bdfn.snapshot.source.id).toBe('it-aifa');
    // Lines 28-39 repeat lines 6-11 (a triphasic pill's six substance rows) byte for byte, twice.
    expect(line(BDFN, 28)).toBe(line(BDFN, 6));
    expect(line(BDFN, 39)).toBe(line(BDFN, 11));
    expect(bdfn.files).toEqual([{ file: BDFN, role: 'BDFN (Banca Dati Farmaci)', read: 46, kept: 34, malformed: 0, excluded: { duplicate: 12 } }]);
    expect(bdfn.problems).toEqual([]);
    expect(packCount(bdfn)).toBe(11);
    expect(bdfn.snapshot.products).toHaveLength(10);
  });

  it('gives ZARIVIZ (lines 4-5) its substance per 4 ml, both routes, ATC, class, supply and authorisation date', () => {
    expect(line(BDFN, 4)).toContain('024259044;');
    expect(line(BDFN, 4)).toContain(';INTRAMUSCOLARE;');
    expect(line(BDFN, 5)).toContain(';ENDOVENOSA;');
    expect(line(BDFN, 4)).toContain(';CEFOTAXIMA;100000000049;UGUALE A;1;;100000110654;g;4;;100000110662;ml;');
    expect(line(BDFN, 4)).toContain(';J01DD01;A;RR;;;;Autorizzato;Autorizzata;1/10/1980;');
    const { product, pack } = find(bdfn, '024259044');
    expect(product).toMatchObject({
      key: '024259|1 G/4 ML POLVERE E SOLVENTE PER SOLUZIONE INIETTABILE PER USO INTRAMUSCOLARE', brand: 'ZARIVIZ', holder: 'SANOFI S.R.L.',
      atc_code: 'J01DD01', route: 'INTRAMUSCOLARE, ENDOVENOSA', dose_form: 'Polvere e solvente per soluzione iniettabile',
      dispensing_category: 'RR', authorisation_status: 'Autorizzata', authorised_on: '1980-10-01',
      attributes: { tipo_procedura: 'NAZIONALE', classe_rimborsabilita: 'A' },
      ingredients: [{ unii: 'name:CEFOTAXIMA', strength_value: 1, strength_unit: 'g/4ml', strength_text: '1 g/4ml' }],
    });
    expect(pack).toMatchObject({ identifiers: [{ system: 'aic', code: '024259044' }], marketing_status: 'active' });
  });

  it('lists each substance of a combination once (ACTIGRIP, lines 40-47) and keeps a range as text (line 2)', () => {
    expect(find(bdfn, '035400023').product.ingredients.map((i) => [i.unii, i.strength_text])).toEqual([
      ['name:DIFENIDRAMINA CLORIDRATO', '25 mg'], ['name:PSEUDOEFEDRINA CLORIDRATO', '60 mg'], ['name:PARACETAMOLO', '500 mg'],
    ]);
    expect(line(BDFN, 2)).toContain(';GENTAMICINA SOLFATO;100000000056;RANGE;0,423;0,5;100000110654;g;');
    expect(find(bdfn, '023164027').product.ingredients).toEqual([{ unii: 'name:GENTAMICINA SOLFATO', strength_text: '0,423-0,5 g' }]);
  });

  it('beside the register and the list, excludes the rows of packs the register does not hold and changes none of its packs', () => {
    const alone = parseItAifa([register()]);
    const together = parseItAifa([register(), real(LIST), real(BDFN)]);
    expect(together.snapshot.source.id).toBe('it-aifa');
    expect(together.files).toEqual([
      { file: 'confezioni_fornitura.csv', role: 'confezioni', read: 14, kept: 12, malformed: 2 },
      { file: LIST, role: 'lista di trasparenza', read: 573, kept: 0, malformed: 0, excluded: { not_in_register: 573 } },
      { file: BDFN, role: 'BDFN (Banca Dati Farmaci)', read: 46, kept: 0, malformed: 0, excluded: { not_in_register: 46 } },
    ]);
    expect(together.snapshot.products).toEqual(alone.snapshot.products);
  });

  it('is read the same by the streamed adapter, the BDFN extract beside the register read line by line', async () => {
    const files = [register(), real(LIST), real(BDFN)];
    const streamed = await openItAifa(files);
    const products: ProductEntry[] = [];
    for await (const p of streamed.snapshot.products as AsyncIterable<ProductEntry>) products.push(p);
    const parsed = parseItAifa(files);
    expect(streamed.files).toEqual(parsed.files);
    expect(streamed.problems).toEqual(parsed.problems);
    expect(products).toEqual(parsed.snapshot.products);
  });

  it('reads the list beside a BDFN extract as beside the register (the extract is the register; the two share no AIC)', () => {
    const together = parseItAifa([real(LIST), real(BDFN)]);
    expect(together.files![0]).toMatchObject({ file: LIST, read: 573, kept: 0, malformed: 0, excluded: { not_in_register: 573 } });
    expect(together.files![1]).toMatchObject({ file: BDFN, read: 46, kept: 34, excluded: { duplicate: 12 } });
  });
});

describe('it-aifa refuses what is not a readable AIFA file, and reports a cut row', () => {
  const bytes = readFileSync(new URL(LIST, REAL));

  it('refuses an empty file, a file of another register and a list cut inside its header', () => {
    expect(() => parseItAifa([{ name: LIST, content: Buffer.alloc(0) }])).toThrow(/no AIFA file among the files given/);
    const infomed = readFileSync(new URL('../../pt-infomed/lista_infomed.csv', REAL));
    expect(() => parseItAifa([{ name: 'lista_infomed.csv', content: infomed }])).toThrow(/no AIFA file among the files given/);
    expect(() => parseItAifa([{ name: LIST, content: bytes.subarray(0, 60) }])).toThrow(/no AIFA file among the files given/);
  });

  it('reports the row a cut list ends in as malformed, with its line, and keeps the rows before it', () => {
    const cut = bytes.subarray(0, bytes.indexOf('5,63', bytes.indexOf('44155012')));
    const result = parseItAifa([{ name: LIST, content: cut }]);
    expect(result.files).toEqual([{ file: LIST, role: 'lista di trasparenza', read: 3, kept: 2, malformed: 1 }]);
    expect(result.problems).toEqual([{ file: LIST, line: 4, message: 'row has 8 fields, the header 12' }]);
  });
});

describe('it-aifa: the real list ingested after the register', () => {
  let t: TestApp;
  let key: string;
  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    const adapter = findAdapter('it-aifa')!;
    await ingestSnapshot(t.db, (await adapter.parse([register()])).snapshot);
    await ingestSnapshot(t.db, (await adapter.parse([real(LIST)])).snapshot);
  }, 120_000);
  afterAll(() => t.close());

  it('keeps every register pack and adds the list\'s packs under their own source', async () => {
    const { rows } = await t.db.query<{ source: string; n: number }>("SELECT source, count(*)::int AS n FROM packs WHERE source LIKE 'it-aifa%' GROUP BY source ORDER BY source");
    expect(rows).toEqual([{ source: 'it-aifa', n: 12 }, { source: 'it-aifa-prezzi', n: 573 }]);
  });

  it('answers the AIC as the list prints it (no leading zero) with the reference and public price', async () => {
    const res = await get('/v1/drugs/lookup?system=aic&code=44155024');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ country: 'IT', atc_code: 'A10BF01', holder: 'DOC GENERICI S.R.L.', matched_pack: { units: 40 } });
    expect(body.matched_pack.prices).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'public', amount: 5.63, currency: 'EUR' }), expect.objectContaining({ kind: 'reimbursed', amount: 5.63, currency: 'EUR' }),
    ]));
    expect(body.attributes).toMatchObject({ gruppo_equivalenza: 'H1A' });
  });
});
