/**
 * A generated Elexis Artikelstamm v5 file (`artikelstamm.xml`, root `ARTIKELSTAMM` in the
 * namespace http://elexis.ch/Elexis_Artikelstamm_v5, as oddb2xml builds it: PRODUCTS, then
 * LIMITATIONS, then ITEMS) of the real one's shape, for the large-ingest bench and the streamed
 * adapter's tests. Three in ten items are medicines, three packs per PRODUCT, the packs of one
 * product spread over the whole ITEMS list; the others are non-pharma articles (PHARMATYPE N).
 * One product in ten has a BAG limitation. Names are German and French with accents; a few
 * records are malformed (a GTIN with a wrong check digit, a price that is no number, a
 * repeated PRODNO or GTIN, a LIMITATION without code), and a few medicines name a PRODNO that
 * no PRODUCT lists, two items each. The real file holds about 150 000 items (about 130 MB).
 */
import { completeGtin } from '../vocabulary/check-digits.ts';
import { writePieces } from './write-file.ts';

const FORMS = [['Filmtabl', 'cpr pell'], ['Crème', 'crème'], ['Inj Lös', 'sol inj'], ['Kaps', 'caps'], ['Tropfen', 'gouttes']];
const HOLDERS = ['Exempla AG', 'Laboratoires Genève SA', 'Pharma Zürich & Co AG', 'Weleda AG'];
const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const tag = (name: string, value: string | number): string => (value === '' ? `<${name}/>` : `<${name}>${esc(String(value))}</${name}>`);
const block = (indent: string, name: string, fields: Array<[string, string | number]>, attributes = ''): string =>
  `${indent}<${name}${attributes}>\n${fields.map(([k, v]) => `${indent}    ${tag(k, v)}\n`).join('')}${indent}</${name}>\n`;

/** Sizes of a file of `n` items: listed products (three medicine items each) and limitations. */
function sizes(n: number): { products: number; limitations: number } {
  const products = Math.max(1, Math.ceil((n * 3) / 30));
  return { products, limitations: Math.max(1, Math.ceil(products / 10)) };
}

const prodno = (p: number): string => `${10000 + p}01`;

function product(p: number, limitations: number): string {
  const [de, fr] = FORMS[p % FORMS.length]!;
  // Every 4000th PRODUCT repeats the PRODNO before it.
  const code = p % 4000 === 3999 ? prodno(p - 1) : prodno(p);
  return block('        ', 'PRODUCT', [
    ['PRODNO', code], ['SALECD', p % 17 === 0 ? 'I' : 'A'], ['DSCR', `Präparat ${p} ${de}`], ['DSCRF', `Préparation ${p} ${fr}`],
    ['ATC', 'N02BE01'], ...(p % 10 === 0 ? [['LIMNAMEBAG', String(70000 + ((p / 10) % limitations))] as [string, string]] : []),
    ['SUBSTANCE', p % 3 ? 'Paracetamolum' : 'Paracetamolum, Coffeinum'],
  ]);
}

function limitation(l: number): string {
  return block('        ', 'LIMITATION', [
    ['LIMNAMEBAG', l % 500 === 499 ? '' : String(70000 + l)], ['DSCR', `Höchstens <b>${l % 90 + 10}</b> Punkte`],
    ['DSCRF', `Prescription limitée au maximum à: <b>${l % 90 + 10}</b> points`], ['LIMITATION_PTS', l % 90 + 10],
  ]);
}

/** Item `i` of a file whose medicines belong to `products` PRODUCTs. */
function item(i: number, products: number): string {
  const wrongCheck = i % 5000 === 4999;
  const price = i % 7000 === 6999 ? 'abc' : (5 + (i % 300) / 4).toFixed(2);
  const salecd = i % 13 === 0 ? 'I' : 'A';
  if (i % 10 < 3) {
    const j = Math.floor(i / 10) * 3 + (i % 10);
    const p = j % products;
    const pack = Math.floor(j / products) + 1;
    // Every 1000th medicine names a PRODNO no PRODUCT lists (shared by two such items).
    const code = j % 1000 === 999 ? `99${String(Math.floor(j / 2000)).padStart(5, '0')}` : prodno(p);
    let gtin = completeGtin(`7680${10000 + p}${String(pack).padStart(3, '0')}`);
    if (wrongCheck) gtin = `${gtin.slice(0, 12)}${(Number(gtin[12]) + 1) % 10}`;
    const [de, fr] = FORMS[p % FORMS.length]!;
    const sl = p % 4 !== 0;
    return block('        ', 'ITEM', [
      ['GTIN', gtin], ['PHAR', String(1000000 + i).padStart(7, '0')], ['SALECD', salecd], ['DSCR', `Präparat ${p} ${de} ${pack * 10} Stk`],
      ['DSCRF', `Préparation ${p} ${fr} ${pack * 10} pce`], ['COMP', ''], ['PEXF', price], ['PPUB', (Number(price) * 1.8 || 0).toFixed(2)],
      ['PKG_SIZE', pack * 10], ['MEASURE', 'Tablette(n)'], ['MEASUREF', 'comprimé(s)'], ['DOSAGE_FORM', de!], ['SL_ENTRY', sl ? 'true' : 'false'],
      ['IKSCAT', 'ABCDE'[p % 5]!], ['GENERIC_TYPE', p % 3 ? 'O' : 'G'], ['DEDUCTIBLE', sl ? (p % 2 ? 10 : 40) : ''], ['PRODNO', code],
    ], ' PHARMATYPE="P"').replace('<COMP/>', `<COMP>\n                <NAME>${esc(HOLDERS[p % HOLDERS.length]!)}</NAME>\n                <GLN/>\n            </COMP>`);
  }
  // Every 9000th article repeats the GTIN of the article before it.
  const serial = i % 9000 === 8999 ? i - 1 : i;
  let gtin = completeGtin(`761${String(serial).padStart(9, '0')}`);
  if (wrongCheck) gtin = `${gtin.slice(0, 12)}${(Number(gtin[12]) + 1) % 10}`;
  return block('        ', 'ITEM', [
    ['GTIN', gtin], ['PHAR', String(1000000 + i).padStart(7, '0')], ['SALECD', salecd], ['DSCR', `Kühlkompresse Gel für Säuglinge Nr. ${i}`],
    ['DSCRF', `Compresse froide gel pour nourrissons n° ${i}`], ['COMP', ''], ['PPUB', price], ['PKG_SIZE', 1 + (i % 5)], ['MEASURE', 'Stk'],
    ['MEASUREF', 'pce'],
  ], ' PHARMATYPE="N"').replace('<COMP/>', `<COMP>\n                <NAME>${esc(HOLDERS[i % HOLDERS.length]!)}</NAME>\n                <GLN>${7601001000000 + (i % 97)}</GLN>\n            </COMP>`);
}

/** The file's text in pieces, `n` items. */
export function* artikelstammFile(n: number): Generator<string> {
  const { products, limitations } = sizes(n);
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<!--Produced by oddb2xml builder.rb (generated by bench/artikelstamm-release.ts)-->\n';
  yield '<ARTIKELSTAMM xmlns="http://elexis.ch/Elexis_Artikelstamm_v5" CREATION_DATETIME="2026-11-20T06:10:00.000+01:00" BUILD_DATETIME="2026-11-20T06:10:00.000+01:00" DATA_SOURCE="oddb2xml">\n';
  yield '    <PRODUCTS>\n';
  for (let p = 0; p < products; p += 1) yield product(p, limitations);
  yield '    </PRODUCTS>\n    <LIMITATIONS>\n';
  for (let l = 0; l < limitations; l += 1) yield limitation(l);
  yield '    </LIMITATIONS>\n    <ITEMS>\n';
  for (let i = 0; i < n; i += 1) yield item(i, products);
  yield '    </ITEMS>\n</ARTIKELSTAMM>\n';
}

/** Writes a file of `n` items to `path`. */
export async function writeArtikelstammFile(path: string, n: number): Promise<void> {
  await writePieces(path, artikelstammFile(n));
}
