import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChArtikelstamm } from '../../../workers/ingest/adapters/ch-artikelstamm.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { findAdapter } from '../../../workers/ingest/adapters/index.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../fixtures/registers/ch-artikelstamm/${name}`, import.meta.url));

describe('ch-artikelstamm adapter (Elexis Artikelstamm v5)', () => {
  const { snapshot, problems, files } = parseChArtikelstamm('artikelstamm.xml', fixture('artikelstamm.xml'));
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('keys products by PRODNO with the Swissmedic number from its first five digits', () => {
    expect(product('2848601')).toMatchObject({
      country: 'CH', product_name: 'Ancopir Inj Lös', atc_code: 'A11DB', generic: false, holder: 'Dr. Grossmann AG, Pharmaca',
      identifiers: [{ system: 'swissmedic_no', code: '28486' }], dispensing_category: 'B', marketing_status: 'active',
      ingredients: [{ unii: 'name:CYANOCOBALAMINUM' }, { unii: 'name:PYRIDOXINI HYDROCHLORIDUM' }],
    });
    // "Verschiedene Kombinationen" is a placeholder, not a substance.
    expect(product('3001502')?.ingredients).toEqual([]);
    expect(snapshot.substances).toContainEqual({ unii: 'name:CYANOCOBALAMINUM', name: 'Cyanocobalaminum', names: { la: 'Cyanocobalaminum' }, provisional: true });
  });

  it('keys packs by GTIN with pharmacode and Swissmedic pack number, CHF prices, IKSCAT and the SL entry', () => {
    const pack = product('2848601')?.packs[0];
    expect(pack).toEqual({
      key: '7680284860144', description: 'Ancopir, Injektionslösung', units: 5, unit: 'Ampulle(n)', dispensing_category: 'B', marketing_status: 'active',
      identifiers: [{ system: 'gtin', code: '7680284860144' }, { system: 'swissmedic_no', code: '28486014' }, { system: 'pharmacode', code: '177804' }],
      prices: [{ amount: 3.89, currency: 'CHF', kind: 'ex_factory' }, { amount: 8.55, currency: 'CHF', kind: 'public' }],
      sl: {
        listed: true, public_price: 8.55, ex_factory_price: 3.89, coinsurance_percent: 40, flag: 'O',
        limitation: { text: 'Gesamthaft zugelassen: 40 Punkte' },
        limitations: [{ code: '070240', text: 'Gesamthaft zugelassen: 40 Punkte', value: 40, level: 'preparation' }],
      },
    });
    // SALECD I: the article is no longer sold; no SL_ENTRY: no SL data.
    expect(product('3001502')?.packs[0]).toMatchObject({ marketing_status: 'withdrawn', units: 10, unit: 'ml' });
    expect(product('3001502')?.packs[0]?.sl).toBeUndefined();
  });

  it('makes an item whose PRODNO has no PRODUCT a product of that PRODNO', () => {
    expect(product('6531701')).toMatchObject({
      product_name: 'Exemplol Filmtabl 500 mg 32 Stk', identifiers: [{ system: 'swissmedic_no', code: '65317' }],
      packs: [{ key: '7680653170027', sl: { coinsurance_percent: 10, public_price: 6.1 } }],
    });
  });

  it('keeps non-pharma items as products of their own, not linked to a medicine', () => {
    expect(product('7611916162404')).toMatchObject({
      product_name: 'Absinthium, ethanol. Infusum D1 Tropfen 50 ml', identifiers: [], attributes: { pharmatype: 'N' }, holder: 'Weleda AG',
      packs: [{ key: '7611916162404', identifiers: [{ system: 'gtin', code: '7611916162404' }, { system: 'pharmacode', code: '1019849' }] }],
    });
    // No GTIN: keyed by pharmacode; a zero PEXF is no price.
    expect(product('phar:2345671')?.packs[0]).toMatchObject({ key: 'phar:2345671', prices: [{ amount: 4.2, currency: 'CHF', kind: 'public' }] });
  });

  it('reports malformed records with their line and skips them; a repeated article is excluded as a duplicate', () => {
    expect(problems).toEqual([
      { file: 'artikelstamm.xml', line: 22, message: 'PRODNO 3001502 appears twice' },
      { file: 'artikelstamm.xml', line: 111, message: 'GTIN "7680284860145" is not a valid GTIN' },
      { file: 'artikelstamm.xml', line: 127, message: 'GTIN "7680300150105X" is not a valid GTIN' },
    ]);
    expect(files).toEqual([{ file: 'artikelstamm.xml', role: 'ARTIKELSTAMM v5', read: 8, kept: 5, malformed: 2, excluded: { duplicate: 1 } }]);
    expect(product('3001502')?.product_name).toBe('Lidocain 1% Streuli, Injektionslösung (Ampullen)');
  });

  it('rejects another Artikelstamm version and truncated XML', () => {
    expect(() => parseChArtikelstamm('artikelstamm-v3.xml', fixture('artikelstamm-v3.xml'))).toThrow(/not Artikelstamm v5/);
    expect(() => parseChArtikelstamm('truncated.xml', fixture('truncated.xml'))).toThrow(FileRejectedError);
    expect(() => parseChArtikelstamm('truncated.xml', fixture('truncated.xml'))).toThrow(/not well-formed XML at line 6: unclosed tag: ITEM/);
    expect(() => parseChArtikelstamm('x.xml', Buffer.from('<Preparations/>'))).toThrow(/root element is not <ARTIKELSTAMM>/);
  });

  it('is registered for the CLI under ch-artikelstamm', async () => {
    const result = await findAdapter('ch-artikelstamm')!.parse([{ name: 'Artikelstamm_v5_010525.xml', content: fixture('artikelstamm.xml') }]);
    expect(result.snapshot.source.id).toBe('ch-artikelstamm');
  });
});
