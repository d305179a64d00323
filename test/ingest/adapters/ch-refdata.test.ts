import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChRefdata, parseChRefdataFiles, sharedName } from '../../../workers/ingest/adapters/ch-refdata.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/ch-refdata/${name}`, import.meta.url));

describe('ch-refdata adapter, current layout (Article/MedicinalProduct/PackagedProduct)', () => {
  const { snapshot, problems, files } = parseChRefdata('Refdata.Articles.xml', fixture('Refdata.Articles.xml'));
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('groups pharma articles into one product per 5-digit Swissmedic number, named by the words their packs share', () => {
    expect(product('65317')).toMatchObject({
      country: 'CH', product_name: 'EXEMPLOL Filmtabl', atc_code: 'N02BE01', holder: 'Exempla AG',
      identifiers: [{ system: 'swissmedic_no', code: '65317' }], attributes: { holder_gln: '7601001000001', name_fr: 'EXEMPLOL cpr pell' },
    });
    expect(product('65317')?.packs.map((p) => p.key)).toEqual(['7680653170010', '7680653170027', '7680653170119']);
  });

  it('keys packs by GTIN with the 8-digit pack number and the category (LegalStatusOfSupply) per pack', () => {
    const [first, second] = product('65317')!.packs;
    expect(first).toMatchObject({
      description: 'EXEMPLOL Filmtabl 500 mg 16 Stk', dispensing_category: 'D', marketing_status: 'active',
      identifiers: [{ system: 'gtin', code: '7680653170010' }, { system: 'swissmedic_no', code: '65317001' }],
    });
    expect(second?.dispensing_category).toBe('B');
  });

  it('marks a pack withdrawn when its MarketingStatus/DateStop is before generatedOn', () => {
    expect(product('65317')?.packs[2]).toMatchObject({ key: '7680653170119', marketing_status: 'withdrawn' });
    expect(product('65317')?.marketing_status).toBe('active');
  });

  it('reads Domain Veterinary as a veterinary product', () => {
    expect(product('62044')).toMatchObject({ veterinary: true, identifiers: [{ system: 'swissmedic_no', code: '62044' }], attributes: { atcvet_code: 'QM01AE01' } });
  });

  it('keeps non-pharma articles (no MedicinalProduct, or NONPHARMA) as their own products without any Swissmedic link', () => {
    expect(product('7612345000015')).toMatchObject({ product_name: 'VERBANDWATTE Rolle 50 g', holder: 'Verbandstoff & Co AG', identifiers: [] });
    const cold = product('7612345000022');
    expect(cold).toMatchObject({ product_name: 'KÜHLKOMPRESSE Gel für Säuglinge 1 Stk', identifiers: [] });
    expect(cold?.packs[0]?.identifiers).toEqual([{ system: 'gtin', code: '7612345000022' }]);
    expect(cold?.veterinary).toBeUndefined();
  });

  it('reports a bad GTIN with the line of its Article, excludes a repeated GTIN as a duplicate, and counts the rows', () => {
    expect(problems).toEqual([{ file: 'Refdata.Articles.xml', line: 171, message: 'GTIN "7680653170012" has a wrong check digit or length' }]);
    expect(product('65317')?.packs[0]?.description).toBe('EXEMPLOL Filmtabl 500 mg 16 Stk');
    expect(files).toEqual([{ file: 'Refdata.Articles.xml', role: 'articles (Article/MedicinalProduct/PackagedProduct)', read: 8, kept: 6, malformed: 1, excluded: { duplicate: 1 } }]);
  });
});

describe('ch-refdata adapter, older layout (SOAP ARTICLE/ITEM with pharmacodes)', () => {
  const { snapshot, problems, files } = parseChRefdata('Refdata.Articles.xml', fixture('older/Refdata.Articles.xml'));
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('reads ITEMs inside the SOAP envelope: GTIN, pharmacode (leading zeros dropped), SWMC_AUTHNR', () => {
    expect(product('65317')).toMatchObject({ product_name: 'EXEMPLOL Filmtabl 500 mg', atc_code: 'N02BE01', identifiers: [{ system: 'swissmedic_no', code: '65317' }] });
    expect(product('65317')?.packs[1]?.identifiers).toEqual([
      { system: 'gtin', code: '7680653170027' }, { system: 'pharmacode', code: '701235' }, { system: 'swissmedic_no', code: '65317002' },
    ]);
  });

  it('marks "ad us. vet." articles veterinary, and keys a non-pharma article without GTIN by its pharmacode', () => {
    expect(product('62044')?.veterinary).toBe(true);
    expect(product('pharmacode:58519')).toMatchObject({ identifiers: [], packs: [{ key: 'pharmacode:58519', identifiers: [{ system: 'pharmacode', code: '58519' }] }] });
    expect(product('7612345000015')?.packs[0]?.identifiers).toContainEqual({ system: 'pharmacode', code: '58502' });
  });

  it('reports an unknown ATYPE and a non-numeric pharmacode with their lines', () => {
    expect(problems).toEqual([
      { file: 'Refdata.Articles.xml', line: 55, message: 'article type "MIGEL" is neither PHARMA nor NONPHARMA' },
      { file: 'Refdata.Articles.xml', line: 64, message: 'pharmacode "23456X8" is not a number of at most 7 digits' },
    ]);
    expect(files?.[0]).toMatchObject({ role: 'articles (ARTICLE/ITEM)', read: 7, kept: 5, malformed: 2 });
  });
});

describe('ch-refdata adapter, several files in one ingest (the older pharma and non-pharma exports)', () => {
  it('reads them into one snapshot, one report per file, the first file winning a repeated GTIN', () => {
    const { snapshot, files } = parseChRefdataFiles([
      { name: 'refdata_Pharma.xml', content: fixture('Refdata.Articles.xml') },
      { name: 'refdata_NonPharma.xml', content: fixture('older/Refdata.Articles.xml') },
    ]);
    expect(files?.map((f) => [f.file, f.read, f.kept])).toEqual([['refdata_Pharma.xml', 8, 6], ['refdata_NonPharma.xml', 7, 1]]);
    expect(snapshot.products?.map((p) => p.key)).toEqual(['65317', '62044', '7612345000015', '7612345000022', 'pharmacode:58519']);
    expect(snapshot.products?.[0]?.packs[0]?.identifiers).not.toContainEqual({ system: 'pharmacode', code: '7001234' });
  });
});

describe('ch-refdata adapter, refused files', () => {
  it('rejects a root that is neither Articles nor ARTICLE', () => {
    expect(() => parseChRefdata('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(FileRejectedError);
    expect(() => parseChRefdata('wrong-root.xml', fixture('wrong-root.xml'))).toThrow(/root element <Preparations>/);
  });

  it('rejects XML that is not well-formed, naming the line', () => {
    expect(() => parseChRefdata('broken.xml', fixture('broken.xml'))).toThrow(/not well-formed XML at line 5/);
  });

  it('rejects a file without articles, which would otherwise empty the source', () => {
    expect(() => parseChRefdata('x.xml', Buffer.from('<Articles generatedOn="2026-03-09T01:00:07Z"></Articles>'))).toThrow(/no <Article> elements/);
  });

  it('decodes a file that declares ISO-8859-1', () => {
    const xml = fixture('older/Refdata.Articles.xml').toString('utf-8').replace('encoding="utf-8"', 'encoding="ISO-8859-1"');
    const { snapshot } = parseChRefdata('x.xml', Buffer.from(xml, 'latin1'));
    expect(snapshot.products?.find((p) => p.key === 'pharmacode:58519')?.product_name).toBe('KÜHLKOMPRESSE Gel für Säuglinge 1 Stk');
  });

  it('rejects a SOAP envelope without an ARTICLE element', () => {
    const xml = '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>';
    expect(() => parseChRefdata('x.xml', Buffer.from(xml))).toThrow(/no <ARTICLE> element/);
  });
});

describe('sharedName', () => {
  it('keeps the words all pack names share, or the only name', () => {
    expect(sharedName(['PEVISONE Creme 15 g', 'PEVISONE Creme 30 g'])).toBe('PEVISONE Creme');
    expect(sharedName(['TEBOKAN Filmtabl 240 mg 30 Stk'])).toBe('TEBOKAN Filmtabl 240 mg 30 Stk');
    expect(sharedName(['A x', 'B y'])).toBe('A x');
  });
});
