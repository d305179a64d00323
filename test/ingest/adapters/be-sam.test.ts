/**
 * The SAM v2 actual-medicines export read against its fixture: prefixed namespaces as the
 * FAMHP writes them, dated Data slices (an old name, an old pharmacy price, a revoked AMP whose
 * validity ended), four languages, public and hospital CNKs, an EU and a national
 * authorisation number, a pack text to parse, and records and packs the reader must refuse.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { openBeSam, parseBeSam } from '../../../workers/ingest/adapters/be-sam.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import type { ProductEntry } from '../../../workers/ingest/snapshot.ts';

const FIXTURES = new URL('../../fixtures/registers/be-sam/', import.meta.url);
const file = (name: string) => ({ name, content: readFileSync(new URL(name, FIXTURES)) });
const asOf = new Date('2026-11-20T00:00:00Z');

describe('be-sam adapter', async () => {
  const { snapshot, problems, files } = await parseBeSam([file('AMP.xml')], { asOf });
  const products = snapshot.products as ProductEntry[];
  const product = (key: string) => products.find((p) => p.key === key)!;

  it('names its source and counts the Amp records', () => {
    expect(snapshot.source).toMatchObject({ id: 'be-sam', country: 'BE' });
    expect(files).toEqual([{ file: 'AMP.xml', role: 'AMP', read: 6, kept: 4, malformed: 1, excluded: { duplicate: 1 } }]);
  });

  it('reads the current slice of an AMP: names in every language, holder, status, form, route, ingredient', () => {
    expect(product('SAM012345-00')).toMatchObject({
      country: 'BE', product_name: 'Metformine Sandoz 500 mg filmomhulde tabletten', holder: 'Sandoz NV',
      authorisation_status: 'authorized', marketing_status: 'active', additional_monitoring: false,
      dose_form: 'filmomhulde tablet', route: 'oraal gebruik', atc_code: 'A10BA02',
      identifiers: [{ system: 'be_amp_code', code: 'SAM012345-00' }],
      ingredients: [{ unii: 'name:METFORMIN HYDROCHLORIDE', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      previous_names: [{ name: 'Metformine Sandoz 500 mg', until: '2019-12-31' }],
      attributes: {
        name_nl: 'Metformine Sandoz 500 mg filmomhulde tabletten', name_fr: 'Metformine Sandoz 500 mg comprimés pelliculés',
        name_de: 'Metformin Sandoz 500 mg Filmtabletten', official_name: 'METFORMINE SANDOZ 500 MG', medicine_type: 'ALLOPATHIC',
        company_actor_nr: '01234', vmp_code: '24578',
      },
    });
    expect(snapshot.substances).toContainEqual({
      unii: 'name:METFORMIN HYDROCHLORIDE', name: 'metformin hydrochloride', provisional: true,
      names: { nl: 'metforminehydrochloride', fr: 'metformine chlorhydrate', en: 'metformin hydrochloride' },
    });
  });

  it('reads an AMPP with its CNKs, GTIN, prices of the current slices and delivery modus', () => {
    expect(product('SAM012345-00').packs[0]).toEqual({
      key: '012345-01', description: '30 tabletten', units: 30, unit: 'tabletten', marketing_status: 'active', dispensing_category: 'MR',
      identifiers: [
        { system: 'be_ampp_code', code: '012345-01' }, { system: 'gtin', code: '5413654000015' }, { system: 'national', code: 'BE123456' },
        { system: 'be_apb', code: '2345678' }, { system: 'be_apb', code: '0781234' },
      ],
      prices: [
        { amount: 2.36, currency: 'EUR', kind: 'ex_factory', valid_from: '2020-01-01' },
        { amount: 4.25, currency: 'EUR', kind: 'public', valid_from: '2025-07-01' },
      ],
    });
  });

  it('links a centrally authorised product by its EU numbers and parses a count x volume pack', () => {
    expect(product('SAM054321-01')).toMatchObject({ additional_monitoring: true, holder: 'Bristol-Myers Squibb Belgium', atc_code: 'B01AF02' });
    expect(product('SAM054321-01').identifiers).toContainEqual({ system: 'eu_number', code: 'EU/1/11/691' });
    const lantus = product('SAM088888-00');
    expect(lantus.atc_code).toBeUndefined();
    expect(lantus.packs[0]).toMatchObject({ description: '5 x 3 ml', units: 15, unit: 'ml' });
    expect(lantus.ingredients[0]).toMatchObject({ strength_value: 100, strength_unit: 'U/mL', strength_text: '100 E/ml' });
  });

  it('keeps a revoked AMP whose validity ended as withdrawn, with its last facts', () => {
    expect(product('SAM077777-00')).toMatchObject({
      product_name: 'Ibuprofen Voorbeeld 200 mg', authorisation_status: 'revoked', marketing_status: 'withdrawn',
      packs: [expect.objectContaining({ marketing_status: 'withdrawn', prices: [{ amount: 3.1, currency: 'EUR', kind: 'public', valid_from: '1998-01-01' }] })],
    });
  });

  it('reports bad records and packs with file and line; a repeated AMP is excluded as a duplicate', () => {
    expect(problems).toEqual([
      { file: 'AMP.xml', line: 66, message: 'AMPP 012345-02: CNK "23456AB" is not a 7-digit code' },
      { file: 'AMP.xml', line: 140, message: 'AMPP 088888-04: CNK 2345678 already names another pack (the first is kept)' },
      { file: 'AMP.xml', line: 144, message: 'AMP code "12345" is not a SAM code (SAM######-##)' },
    ]);
  });

  it('refuses another SAM export, a file without the export namespace, and broken XML', async () => {
    await expect(parseBeSam([file('wrong-root.xml')])).rejects.toThrow(FileRejectedError);
    await expect(parseBeSam([{ name: 'AMP.xml', content: Buffer.from('<ExportActualMedicines><Amp/></ExportActualMedicines>') }])).rejects.toThrow(/not a SAM v2/);
    await expect(parseBeSam([file('broken.xml')])).rejects.toThrow(/not well-formed XML at line/);
  });

  it('adds the reimbursement export: category, statutory rate and base price of public-pharmacy CNKs', async () => {
    const both = await parseBeSam([file('RMB.xml'), file('AMP.xml')], { asOf });
    expect(both.files).toEqual([
      { file: 'RMB.xml', role: 'RMB', read: 5, kept: 3, malformed: 1, excluded: { out_of_scope: 1 } },
      { file: 'AMP.xml', role: 'AMP', read: 6, kept: 4, malformed: 1, excluded: { duplicate: 1 } },
    ]);
    expect(both.problems[0]).toEqual({ file: 'RMB.xml', line: 26, message: 'ReimbursementContext: CNK "30X2345" is not a 7-digit code' });
    const metformin = (both.snapshot.products as ProductEntry[]).find((p) => p.key === 'SAM012345-00')!;
    expect(metformin.attributes).toMatchObject({ reimbursement_category: 'B' });
    expect(metformin.packs[0]).toMatchObject({ reimbursement_rate_percent: 75 });
    expect(metformin.packs[0]!.prices).toContainEqual({ amount: 4.25, currency: 'EUR', kind: 'reimbursed', valid_from: '2025-01-01' });
    expect(metformin.packs[1]!.reimbursement_rate_percent).toBeUndefined();
    const lantus = (both.snapshot.products as ProductEntry[]).find((p) => p.key === 'SAM088888-00')!;
    expect(lantus.packs[0]).toMatchObject({ reimbursement_rate_percent: 100 });
    await expect(parseBeSam([file('RMB.xml')])).rejects.toThrow(/AMP export .* is required/);
    await expect(parseBeSam([file('AMP.xml'), file('AMP.xml')])).rejects.toThrow(/two files hold the AMP/);
  });

  it('reads an export larger than a read block from disk as from memory (characters split across blocks)', async () => {
    const xml = readFileSync(new URL('AMP.xml', FIXTURES), 'utf-8');
    const from = xml.indexOf('  <ns4:Amp code="SAM012345-00"');
    const amp = xml.slice(from, xml.indexOf('  <ns4:Amp code="SAM054321-01"'));
    const copies = Array.from({ length: 600 }, (_, i) => amp.replaceAll('012345', String(200000 + i))
      .replace('2345678', String(2000000 + i)).replace('0781234', String(4000000 + i)).replace('23456AB', String(6000000 + i)));
    const big = Buffer.from(`${xml.slice(0, from)}${copies.join('')}</ns4:ExportActualMedicines>\n`, 'utf-8');
    expect(big.length).toBeGreaterThan(2 * (1 << 20));
    const dir = mkdtempSync(join(tmpdir(), 'be-sam-'));
    try {
      writeFileSync(join(dir, 'AMP-big.xml'), big);
      const onDisk = await parseBeSam([fileInput(join(dir, 'AMP-big.xml'), 'AMP-big.xml')], { asOf });
      const inMemory = await parseBeSam([{ name: 'AMP-big.xml', content: big }], { asOf });
      expect(onDisk).toEqual(inMemory);
      expect(onDisk.snapshot.products).toHaveLength(600);
      expect(onDisk.problems).toEqual([]);
      expect((onDisk.snapshot.products as ProductEntry[])[599]!.attributes).toMatchObject({ name_fr: 'Metformine Sandoz 500 mg comprimés pelliculés' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('streams the same products from disk, in read blocks', async () => {
    const opened = await openBeSam([fileInput(new URL('AMP.xml', FIXTURES).pathname, 'AMP.xml')], { asOf });
    expect(opened.problems).toEqual(problems);
    const streamed: ProductEntry[] = [];
    for await (const p of opened.snapshot.products as AsyncIterable<ProductEntry>) streamed.push(p);
    expect(streamed).toEqual(products);
  });
});
