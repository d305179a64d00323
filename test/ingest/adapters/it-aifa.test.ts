import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { italianDate } from '../../../workers/ingest/adapters/it-aifa-files.ts';
import { aicOf, labelStrength, splitDescription } from '../../../workers/ingest/adapters/it-aifa-register.ts';
import { parseItAifa } from '../../../workers/ingest/adapters/it-aifa.ts';
import type { PackEntry, ProductEntry } from '../../../workers/ingest/snapshot.ts';

const REGISTER = 'confezioni_fornitura.csv';
const PA = 'PA_confezioni.csv';
const CLASS_A = 'Classe_A_per_principio_attivo_28-02-2026.csv';
const CLASS_H = 'Classe_H_per_principio_attivo_28-02-2026.csv';
const TRANSPARENCY = 'Lista_farmaci_equivalenti.csv';

const file = (name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/it-aifa/${name}`, import.meta.url)) });

const full = parseItAifa([REGISTER, PA, CLASS_A, CLASS_H, TRANSPARENCY].map(file));
const registerOnly = parseItAifa([file(REGISTER)]);

function find(result: typeof full, aic: string): { product: ProductEntry; pack: PackEntry } {
  for (const product of result.snapshot.products ?? []) {
    const pack = product.packs.find((p) => p.key === aic);
    if (pack) return { product, pack };
  }
  throw new Error(`no pack ${aic}`);
}

describe('it-aifa adapter: the register (confezioni_fornitura.csv, Windows-1252, CRLF)', () => {
  it('reads every well-formed row into products per AIC6 and strength/form label, as source it-aifa in IT', () => {
    const { snapshot } = registerOnly;
    expect(snapshot.source).toMatchObject({ id: 'it-aifa', country: 'IT', licence: 'CC BY 4.0 (AIFA open data)' });
    expect(snapshot.products?.map((p) => [p.key, p.packs.map((k) => k.key)])).toEqual([
      ['026846|500 MG COMPRESSE RIVESTITE CON FILM', ['026846016', '026846028']],
      ['026846|1000 MG COMPRESSE RIVESTITE CON FILM', ['026846030']],
      ['034208|400 MG COMPRESSE RIVESTITE CON FILM', ['034208013']],
      ['034208|100 MG/5 ML SOSPENSIONE ORALE', ['034208037']],
      ['040931|2,5 MG - COMPRESSA RIVESTITA CON FILM - USO ORALE - BLISTER (ALU/PVC/PVDC)', ['040931014', '040931026']],
      ['043701|100 UNITA\'/ML SOLUZIONE INIETTABILE IN PENNA PRERIEMPITA', ['043701010']],
      ['038045|875 MG/125 MG COMPRESSE RIVESTITE CON FILM', ['038045011']],
      ['038777|1 G COMPRESSE DISPERSIBILI', ['038777013']],
      ['041705|1 G POLVERE PER SOLUZIONE PER INFUSIONE', ['041705017']],
      ['025525|9 CH GRANULI', ['025525015']],
    ]);
  });

  it('maps every register column of a product and its packs', () => {
    const { product, pack } = find(registerOnly, '026846016');
    expect(product).toMatchObject({
      country: 'IT', product_name: 'GLUCOPHAGE 500 MG COMPRESSE RIVESTITE CON FILM', brand: 'GLUCOPHAGE',
      identifiers: [{ system: 'it_aic6', code: '026846' }], atc_code: 'A10BA02', dose_form: 'Compressa rivestita con film',
      holder: 'MERCK SERONO S.P.A.', dispensing_category: 'RR', authorisation_status: 'Autorizzata', marketing_status: 'active',
      ingredients: [{ unii: 'name:METFORMINA CLORIDRATO', strength_value: 500, strength_unit: 'mg', strength_text: '500 MG' }],
      attributes: {
        tipo_procedura: 'Procedura Nazionale',
        foglio_illustrativo: 'https://api.aifa.gov.it/aifa-bdf-eif-be/1.0.0/organizzazione/1235/farmaci/026846/stampati?ts=FI',
        rcp: 'https://api.aifa.gov.it/aifa-bdf-eif-be/1.0.0/organizzazione/1235/farmaci/026846/stampati?ts=RCP',
      },
    });
    expect(pack).toEqual({
      key: '026846016', description: '500 MG COMPRESSE RIVESTITE CON FILM- 30 COMPRESSE', identifiers: [{ system: 'aic', code: '026846016' }],
      marketing_status: 'active', units: 30, unit: 'COMPRESSE', dispensing_category: 'RR',
    });
    expect(registerOnly.snapshot.substances).toContainEqual({
      unii: 'name:METFORMINA CLORIDRATO', name: 'METFORMINA CLORIDRATO', names: { it: 'metformina cloridrato' }, provisional: true,
    });
  });

  it('reads the three description styles, quoted labels with doubled quotes, and pack texts that need parsing', () => {
    expect(find(registerOnly, '026846030').pack).toMatchObject({
      description: '"1000 mg compresse rivestite con film" 60 compresse in blister PVC/AL', units: 60, marketing_status: 'withdrawn',
    });
    expect(find(registerOnly, '026846030').product).toMatchObject({ product_name: 'GLUCOPHAGE 1000 mg compresse rivestite con film', marketing_status: 'withdrawn', authorisation_status: 'Sospesa' });
    expect(find(registerOnly, '034208037').pack).toMatchObject({ units: 150, unit: 'ML', dispensing_category: 'OTC' });
    expect(find(registerOnly, '043701010').pack).toMatchObject({ units: 15, unit: 'ML' });
    expect(find(registerOnly, '040931026').pack).toMatchObject({ units: 60, unit: 'COMPRESSE' });
    expect(find(registerOnly, '040931026').product.ingredients[0]).toMatchObject({ strength_value: 2.5, strength_unit: 'mg', strength_text: '2,5 MG' });
    expect(find(registerOnly, '040931026').product.route).toBe('USO ORALE');
    expect(find(registerOnly, '026846016').product.route).toBeUndefined();
    expect(find(registerOnly, '043701010').product.ingredients[0]).toMatchObject({ strength_value: 100, strength_unit: 'U/ml' });
  });

  it('decodes Windows-1252, restores an AIC that lost its leading zero, and keeps a product without ATC', () => {
    expect(find(registerOnly, '038777013').product.holder).toBe('Società Prodotti Antibiotici S.p.A.');
    expect(find(registerOnly, '041705017').product.holder).toBe('HIKMA FARMACÊUTICA (PORTUGAL) S.A.');
    expect(find(registerOnly, '034208013').pack.identifiers).toEqual([{ system: 'aic', code: '034208013' }]);
    const arnica = find(registerOnly, '025525015').product;
    expect(arnica.atc_code).toBeUndefined();
    expect(arnica.attributes).toMatchObject({ tipo_procedura: 'Omeopatico' });
  });

  it('reports a bad check digit and a truncated row with file and line, and counts them', () => {
    expect(registerOnly.problems).toEqual([
      { file: REGISTER, line: 14, message: 'CODICE_AIC "025525019" is not a valid AIC (9 digits, Code 32 check digit)' },
      { file: REGISTER, line: 15, message: 'row has 6 fields, the header 15' },
    ]);
    expect(registerOnly.files).toEqual([{ file: REGISTER, role: 'confezioni', read: 14, kept: 12, malformed: 2 }]);
  });

  it('reads the older lower-case confezioni.csv (UTF-8, LINK column, no FORNITURA) the same way', () => {
    const old = parseItAifa([file('confezioni.csv')]);
    expect(old.problems).toEqual([]);
    expect(find(old, '026846016').product).toMatchObject({
      product_name: 'GLUCOPHAGE 500 MG COMPRESSE RIVESTITE CON FILM', attributes: { foglio_illustrativo: 'https://farmaci.agenziafarmaco.gov.it/bancadatifarmaci/farmaco?farmaco=026846' },
    });
    expect(find(old, '038777013').product).toMatchObject({ marketing_status: 'withdrawn', authorisation_status: 'Revocata', holder: 'Società Prodotti Antibiotici S.p.A.' });
    expect(find(old, '038777013').product.dispensing_category).toBeUndefined();
  });
});

describe('it-aifa adapter: PA_confezioni.csv and the price lists', () => {
  it('takes the ingredients with QUANTITA (decimal comma) and UNITA_MISURA from PA_confezioni.csv, combinations included', () => {
    expect(find(full, '038045011').product.ingredients).toEqual([
      { unii: 'name:AMOXICILLINA TRIIDRATO', strength_value: 875, strength_unit: 'mg', strength_text: '875 mg' },
      { unii: 'name:POTASSIO CLAVULANATO', strength_value: 125, strength_unit: 'mg', strength_text: '125 mg' },
    ]);
    expect(find(full, '040931014').product.ingredients).toEqual([{ unii: 'name:APIXABAN', strength_value: 2.5, strength_unit: 'mg', strength_text: '2,5 mg' }]);
    expect(full.snapshot.substances?.map((s) => s.unii)).toContain('name:POTASSIO CLAVULANATO');
  });

  it('prices class A packs (public, rate 100) and class H packs (public, ex-factory, hospital only), dated by the file name', () => {
    expect(find(full, '040931026').pack).toMatchObject({
      prices: [{ amount: 77.1, currency: 'EUR', kind: 'public', valid_from: '2026-02-28' }], reimbursement_rate_percent: 100,
    });
    expect(find(full, '040931014').pack.prices).toBeUndefined();
    expect(find(full, '041705017').pack).toMatchObject({
      prices: [{ amount: 14.52, kind: 'public', valid_from: '2026-02-28' }, { amount: 8.8, kind: 'ex_factory', valid_from: '2026-02-28' }],
      availability: 'hospital_only',
    });
    expect(find(full, '041705017').pack.reimbursement_rate_percent).toBeUndefined();
    expect(find(full, '038045011').product.attributes).toMatchObject({ gruppo_equivalenza: 'F2A', classe_rimborsabilita: 'A' });
    expect(find(full, '041705017').product.attributes).toMatchObject({ gruppo_equivalenza: 'J9K', classe_rimborsabilita: 'H' });
  });

  it('lets the transparency list (AIC without leading zero, `€` in the cells) set the SSN reference price and the newer public price', () => {
    expect(find(full, '026846016').pack.prices).toEqual([
      { amount: 2.21, currency: 'EUR', kind: 'public', valid_from: '2026-02-15' },
      { amount: 1.98, currency: 'EUR', kind: 'reimbursed', valid_from: '2026-02-15' },
    ]);
    expect(find(full, '026846028').product.attributes).toMatchObject({
      gruppo_equivalenza: 'A7B, A7C', nota_trasparenza: '*non sostituibile con Metformina Doc',
    });
  });

  it('reports malformed list rows, excludes rows of packs the register lacks, and reports each file with its role', () => {
    expect(full.problems.filter((p) => p.file !== REGISTER)).toEqual([
      { file: PA, line: 15, message: 'no valid AIC or no PRINCIPIO_ATTIVO' },
      { file: CLASS_A, line: 4, message: 'price "n.d." is not an amount in EUR' },
    ]);
    // Line 9 of the class A list prices AIC 034208025, a pack the register does not hold.
    expect(full.files).toEqual([
      { file: REGISTER, role: 'confezioni', read: 14, kept: 12, malformed: 2 },
      { file: PA, role: 'PA_confezioni', read: 14, kept: 13, malformed: 1 },
      { file: CLASS_A, role: 'Classe A', read: 8, kept: 6, malformed: 1, excluded: { not_in_register: 1 } },
      { file: CLASS_H, role: 'Classe H', read: 1, kept: 1, malformed: 0 },
      { file: TRANSPARENCY, role: 'lista di trasparenza', read: 3, kept: 3, malformed: 0 },
    ]);
  });

  it('names a file that is none of the AIFA files as unused, and refuses a release with no AIFA file or no usable row', () => {
    const withOther = parseItAifa([file(REGISTER), { name: 'other.csv', content: Buffer.from('a;b;c\r\n1;2;3\r\n') }]);
    expect(withOther.files![1]).toMatchObject({ file: 'other.csv', role: 'unused', read: 0 });
    expect(() => parseItAifa([{ name: 'other.csv', content: Buffer.from('a;b;c\r\n1;2;3\r\n') }])).toThrow(/no AIFA file among the files given/);
    expect(() => parseItAifa([{ name: REGISTER, content: Buffer.alloc(0) }])).toThrow(FileRejectedError);
    expect(() => parseItAifa([{ name: REGISTER, content: Buffer.from('CODICE_AIC;DENOMINAZIONE\r\n') }])).toThrow(/no usable AIC rows/);
    expect(() => parseItAifa([file(PA)])).toThrow(/give it with confezioni_fornitura.csv/);
  });

  it('reads a class list alone as the packs it prices, under the source it-aifa-prezzi', () => {
    const alone = parseItAifa([file(CLASS_A)]);
    expect(alone.snapshot.source.id).toBe('it-aifa-prezzi');
    expect(alone.files).toEqual([{ file: CLASS_A, role: 'Classe A', read: 8, kept: 7, malformed: 1 }]);
    expect(find(alone, '026846016')).toMatchObject({
      product: { brand: 'GLUCOPHAGE', holder: 'MERCK SERONO SpA', attributes: { gruppo_equivalenza: 'A7B, A7C', classe_rimborsabilita: 'A' } },
      pack: { description: '30 cpr riv 500 mg', units: 30, prices: [{ amount: 2.17, currency: 'EUR', kind: 'public', valid_from: '2026-02-28' }], reimbursement_rate_percent: 100 },
    });
  });
});

describe('it-aifa helpers', () => {
  it('validates AICs by their Code 32 check digit, padding dropped zeros', () => {
    expect(aicOf('26846016')).toBe('026846016');
    expect(aicOf('A026846016')).toBe('026846016');
    expect(aicOf('026846019')).toBeNull();
    expect(aicOf('12AB')).toBeNull();
  });

  it('splits descriptions into label and pack, and reads label strengths', () => {
    expect(splitDescription('"500 mg compresse" 30 compresse')).toEqual({ label: '500 mg compresse', pack: '30 compresse' });
    expect(splitDescription('MENTA-POLVERE EFF. FLAC.115 G')).toEqual({ label: '', pack: 'MENTA-POLVERE EFF. FLAC.115 G' });
    expect(labelStrength('1 G GRANULATO')).toMatchObject({ strength_value: 1, strength_unit: 'g' });
    expect(labelStrength('9 CH GRANULI')).toBeNull();
  });

  it('reads Italian dates in words and digits', () => {
    expect(italianDate('Prezzo Pubblico 15 settembre 2026')).toBe('2026-09-15');
    expect(italianDate('Classe A per principio attivo 28-02-2026.csv')).toBe('2026-02-28');
    expect(italianDate('31 febbraio 2026')).toBeUndefined();
  });
});
