/**
 * ch-artikelstamm on Artikelstamm files as oddb2xml, their builder, writes them
 * (test/fixtures/registers/ch-artikelstamm/real, SOURCE.md there).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChArtikelstamm } from '../../../workers/ingest/adapters/ch-artikelstamm.ts';
import { openChArtikelstamm } from '../../../workers/ingest/adapters/ch-artikelstamm-open.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';

const real = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/ch-artikelstamm/real/${name}`, import.meta.url));

describe('ch-artikelstamm on the real v5_second.xml', () => {
  const { snapshot, problems, files } = parseChArtikelstamm('v5_second.xml', real('v5_second.xml'));
  const productOf = (gtin: string) => snapshot.products?.find((p) => p.packs.some((k) => k.key === gtin));

  it('counts every ITEM: 7 kept, the repeated ULTRATIP article excluded as a duplicate', () => {
    expect(files).toEqual([{ file: 'v5_second.xml', role: 'ARTIKELSTAMM v5', read: 8, kept: 7, malformed: 0, excluded: { duplicate: 1 } }]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('reads PELSANO as the file says: PRODNO, GTIN, pharmacode, prices, ATC', () => {
    // <PRODNO>1394202</PRODNO> <ATC>D02AC</ATC>; <GTIN>7680139420998</GTIN> <PHAR>1946156</PHAR> <PEXF>6.81</PEXF> <PPUB>11.1</PPUB>
    const pelsano = productOf('7680139420998');
    expect(pelsano).toMatchObject({ key: '1394202', product_name: 'PELSANO Med Badeemulsion', atc_code: 'D02AC', identifiers: [{ system: 'swissmedic_no', code: '13942' }] });
    expect(pelsano?.packs[0]).toMatchObject({
      description: 'PELSANO med Badeemulsion 300 ml', units: 300, unit: 'ml',
      identifiers: [{ system: 'gtin', code: '7680139420998' }, { system: 'swissmedic_no', code: '13942099' }, { system: 'pharmacode', code: '1946156' }],
      prices: [{ amount: 6.81, currency: 'CHF', kind: 'ex_factory' }, { amount: 11.1, currency: 'CHF', kind: 'public' }],
    });
  });

  it('streams the same outcome as it parses', async () => {
    const opened = await openChArtikelstamm([{ name: 'v5_second.xml', content: real('v5_second.xml') }]);
    expect(opened.files).toEqual(files);
  });

  it('refuses the older v3 layout, a truncated file, an empty file and a file of another register', () => {
    expect(() => parseChArtikelstamm('artikelstamm_N_010917.xml', real('artikelstamm_N_010917.xml'))).toThrow(/namespace http:\/\/elexis.ch\/Elexis_Artikelstamm_v003 is not Artikelstamm v5/);
    expect(() => parseChArtikelstamm('v5_second.xml', real('v5_second.xml').subarray(0, 3000))).toThrow(FileRejectedError);
    expect(() => parseChArtikelstamm('v5_second.xml', Buffer.alloc(0))).toThrow(FileRejectedError);
    const sl = readFileSync(new URL('../../fixtures/registers/ch-sl/real/Preparations.xml', import.meta.url));
    expect(() => parseChArtikelstamm('artikelstamm.xml', sl)).toThrow(/root element is not <ARTIKELSTAMM>/);
  });
});
