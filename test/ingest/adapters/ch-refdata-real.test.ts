/**
 * ch-refdata on Refdata article files as oddb2xml keeps them (test/fixtures/registers/ch-refdata/real,
 * SOURCE.md there): today's Articles export and the older SOAP ARTICLE/ITEM answer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseChRefdataFiles } from '../../../workers/ingest/adapters/ch-refdata.ts';
import { openChRefdataFiles } from '../../../workers/ingest/adapters/ch-refdata-open.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const real = (name: string): InputFile => ({ name, content: readFileSync(new URL(`../../fixtures/registers/ch-refdata/real/${name}`, import.meta.url)) });

describe('ch-refdata on the real Refdata.Articles.xml (2026-03-09)', () => {
  const { snapshot, problems, files } = parseChRefdataFiles([real('Refdata.Articles.xml')]);
  const packOf = (gtin: string) => snapshot.products?.flatMap((p) => p.packs.map((k) => ({ product: p, pack: k }))).find((x) => x.pack.key === gtin);

  it('keeps all 30 articles, with every outcome stated', () => {
    expect(files).toEqual([{ file: 'Refdata.Articles.xml', role: 'articles (Article/MedicinalProduct/PackagedProduct)', read: 30, kept: 30, malformed: 0 }]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.products).toHaveLength(28);
  });

  it('reads VARILRIX as the article says: GTIN, Swissmedic pack number, holder, ATC, German and French name', () => {
    // <RegulatedAuthorisationIdentifier>00585001</…> <DataCarrierIdentifier>7680005850010</…> GlaxoSmithKline AG, J07BK01
    const varilrix = packOf('7680005850010');
    expect(varilrix?.pack).toMatchObject({ description: 'VARILRIX Trockensub c Solv Fertspr 0.5 ml', identifiers: expect.arrayContaining([{ system: 'gtin', code: '7680005850010' }]) });
    expect(varilrix?.product).toMatchObject({
      holder: 'GlaxoSmithKline AG', atc_code: 'J07BK01', identifiers: [{ system: 'swissmedic_no', code: '00585' }],
      attributes: expect.objectContaining({ name_fr: 'VARILRIX subst sèche c solv ser pré 0.5 ml' }),
    });
  });

  it('keeps a NONPHARMA article as its own product with no product code', () => {
    // <ProductClass>NONPHARMA</ProductClass> … 7611600441020 IVF HARTMANN AG, TUBEGAZE Verband weiss Nr 12 20m Finger gross
    expect(packOf('7611600441020')?.product).toMatchObject({ product_name: 'TUBEGAZE Verband weiss Nr 12 20m Finger gross', identifiers: [], holder: 'IVF HARTMANN AG' });
  });

  it('streams the same outcome as it parses', async () => {
    const opened = await openChRefdataFiles([real('Refdata.Articles.xml')]);
    expect(opened.files).toEqual(files);
  });
});

describe('ch-refdata on the real older SOAP answer (refdata_Pharma.xml)', () => {
  const { snapshot, problems, files } = parseChRefdataFiles([real('refdata_Pharma.xml')]);

  it('keeps all 26 items', () => {
    expect(files).toEqual([{ file: 'refdata_Pharma.xml', role: 'articles (ARTICLE/ITEM)', read: 26, kept: 26, malformed: 0 }]);
    expect(problems).toEqual([]);
    // <GTIN>7680545340019</GTIN> <SWMC_AUTHNR>54534001</SWMC_AUTHNR>
    expect(snapshot.products?.find((p) => p.packs.some((k) => k.key === '7680545340019'))?.identifiers).toEqual([{ system: 'swissmedic_no', code: '54534' }]);
  });

  it('refuses a truncated file, an empty file and a file of another register', () => {
    const content = real('refdata_Pharma.xml').content;
    expect(() => parseChRefdataFiles([{ name: 'refdata_Pharma.xml', content: content.subarray(0, content.length / 2) }])).toThrow(FileRejectedError);
    expect(() => parseChRefdataFiles([{ name: 'Refdata.Articles.xml', content: Buffer.alloc(0) }])).toThrow(FileRejectedError);
    const sl = readFileSync(new URL('../../fixtures/registers/ch-sl/Preparations.xml', import.meta.url));
    expect(() => parseChRefdataFiles([{ name: 'Refdata.Articles.xml', content: sl }])).toThrow(/neither <Articles> nor <ARTICLE>/);
  });
});
