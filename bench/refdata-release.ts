/**
 * A generated Refdata article file (`Refdata.Articles.xml`, the current SIMIS layout:
 * `Articles` in the namespace https://simisinfo.refdata.ch/Articles/1.0/, one `Article` with an
 * optional `MedicinalProduct` and a `PackagedProduct`) of the real one's shape, for the
 * large-ingest bench and the streamed adapter's tests. Two in five articles are medicines, three
 * packs per 5-digit Swissmedic number, the packs of one number spread over the whole file (the
 * hardest order for grouping); the others are non-pharma articles (no MedicinalProduct, or
 * ProductClass NONPHARMA). Names are German and French with accents; a few articles are
 * malformed (a GTIN with a wrong check digit, an article without a name) or repeat the GTIN
 * before them. The real file holds about 150 000 articles.
 */
import { completeGtin } from '../vocabulary/check-digits.ts';
import { writePieces } from './write-file.ts';

const FORMS = [['Filmtabl', 'cpr pell'], ['Crème', 'crème'], ['Inj Lös', 'sol inj'], ['Kaps', 'caps'], ['Tropfen', 'gouttes']];
const HOLDERS = [['7601001000001', 'Exempla AG'], ['7601001000002', 'Laboratoires Genève SA'], ['7601001000003', 'Pharma Zürich & Co AG']];
const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The packaged product of an article: GTIN, pack number, holder, names, marketing status. */
function packaged(gtin: string, no8: string, holder: number, de: string, fr: string, stop: string): string {
  const [gln, name] = HOLDERS[holder % HOLDERS.length]!;
  return `    <PackagedProduct>
${no8 ? `      <RegulatedAuthorisationIdentifier>${no8}</RegulatedAuthorisationIdentifier>\n` : ''}      <DataCarrierIdentifier>${gtin}</DataCarrierIdentifier>
      <Holder>
        <Identifier>${gln}</Identifier>
        <Name>${esc(name!)}</Name>
      </Holder>
${de ? `      <Name>\n        <Language>DE</Language>\n        <FullName>${esc(de)}</FullName>\n      </Name>\n` : ''}${fr ? `      <Name>\n        <Language>FR</Language>\n        <FullName>${esc(fr)}</FullName>\n      </Name>\n` : ''}      <MarketingStatus>
        <DateStart>2015-03-01</DateStart>${stop ? `\n        <DateStop>${stop}</DateStop>` : ''}
      </MarketingStatus>
    </PackagedProduct>
`;
}

/** Article `i` of a file whose medicines have `products` Swissmedic numbers. */
function article(i: number, products: number): string {
  const malformed = i % 5000 === 4999;
  const unnamed = i % 9000 === 8999;
  const stop = i % 11 === 0 ? '2025-12-31' : '';
  if (i % 5 < 2) {
    const pharma = Math.floor(i / 5) * 2 + (i % 5);
    const product = pharma % products;
    const pack = Math.floor(pharma / products) + 1;
    const no5 = String(10000 + product);
    const no8 = `${no5}${String(pack).padStart(3, '0')}`;
    let gtin = completeGtin(`7680${no8}`);
    if (malformed) gtin = `${gtin.slice(0, 12)}${(Number(gtin[12]) + 1) % 10}`;
    const [de, fr] = FORMS[product % FORMS.length]!;
    const vet = product % 50 === 7;
    return `  <Article>
    <MedicinalProduct>
      <Identifier>CH-7601001000001-${no5}</Identifier>
      <Domain>${vet ? 'Veterinary' : 'Human'}</Domain>
      <LegalStatusOfSupply>${'ABCDE'[product % 5]}</LegalStatusOfSupply>
      <RegulatedAuthorisationIdentifier>${no5}01</RegulatedAuthorisationIdentifier>
      <ProductClassification>
        <ProductClass>PHARMA</ProductClass>
        <Atc>${vet ? 'QM01AE01' : 'N02BE01'}</Atc>
      </ProductClassification>
    </MedicinalProduct>
${packaged(gtin, no8, product, unnamed ? '' : `PRÄPARAT ${product} ${de} ${pack * 10} Stk`, unnamed ? '' : `PRÉPARATION ${product} ${fr} ${pack * 10} pce`, stop)}  </Article>
`;
  }
  // Every 7000th article repeats the GTIN of the article before it (the first is kept).
  const serial = i % 7000 === 6999 ? i - 1 : i;
  let gtin = completeGtin(`761${String(serial).padStart(9, '0')}`);
  if (malformed) gtin = `${gtin.slice(0, 12)}${(Number(gtin[12]) + 1) % 10}`;
  const nonPharma = i % 2 ? '' : '    <MedicinalProduct>\n      <ProductClassification>\n        <ProductClass>NONPHARMA</ProductClass>\n      </ProductClassification>\n    </MedicinalProduct>\n';
  const name = unnamed ? ['', ''] : [`KÜHLKOMPRESSE Gel für Säuglinge Nr. ${i}`, `COMPRESSE froide gel pour nourrissons n° ${i}`];
  return `  <Article>\n${nonPharma}${packaged(gtin, '', i, name[0]!, name[1]!, stop)}  </Article>\n`;
}

/** The file's text in pieces, `n` articles. */
export function* refdataArticles(n: number): Generator<string> {
  const products = Math.max(1, Math.ceil((n * 2) / 15));
  yield '\ufeff<?xml version="1.0" encoding="utf-8"?>\n';
  yield `<Articles xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="https://simisinfo.refdata.ch/Articles/1.0/" totalArticles="${n}" generatedOn="2026-03-09T01:00:07Z">\n`;
  for (let i = 0; i < n; i += 1) yield article(i, products);
  yield '</Articles>\n';
}

/** Writes a file of `n` articles to `path`. */
export async function writeRefdataArticles(path: string, n: number): Promise<void> {
  await writePieces(path, refdataArticles(n));
}
