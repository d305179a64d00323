import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { fileInput } from '../../../workers/ingest/adapters/line-stream.ts';
import { openNoFest, parseNoFest, parseNoFestFiles } from '../../../workers/ingest/adapters/no-fest.ts';
import { readFest } from '../../../workers/ingest/adapters/no-fest-xml.ts';
import { RowTally } from '../../../workers/ingest/row-outcome.ts';

const PATH = fileURLToPath(new URL('../../fixtures/registers/no-fest/fest251.xml', import.meta.url));
const FEST = readFileSync(PATH);
const parsed = await parseNoFest('fest251.xml', FEST);
const id = (n: number): string => `ID_00000000-0000-0000-0000-${n.toString(16).toUpperCase().padStart(12, '0')}`;

describe('no-fest adapter (FEST M30 XML)', () => {
  const { snapshot, problems, files } = parsed;
  const product = (n: number) => snapshot.products!.find((p) => p.key === id(300 + n))!;

  it('maps a LegemiddelMerkevare: FEST id, names, ATC, form, route, holder, reseptgruppe and strength from VirkestoffMedStyrke', () => {
    expect(product(1)).toMatchObject({
      country: 'NO', product_name: 'Glucophage tab 500 mg', brand: 'Glucophage', atc_code: 'A10BA02',
      dose_form: 'Tablett, filmdrasjert', route: 'Oral bruk', holder: 'Merck Serono', dispensing_category: 'C', marketing_status: 'active',
      identifiers: [{ system: 'no_merkevare_id', code: id(301) }],
      ingredients: [{ unii: 'name:METFORMIN HYDROCHLORIDE', strength_value: 500, strength_unit: 'mg', strength_text: '500 mg' }],
      attributes: { preparation_type: 'Legemiddel', reimbursable: true, marketed_on: '1999-05-01' },
    });
    expect(snapshot.substances).toContainEqual({
      unii: 'name:METFORMIN HYDROCHLORIDE', name: 'Metformin hydrochloride', names: { no: 'Metforminhydroklorid', en: 'Metformin hydrochloride' }, provisional: true,
    });
  });

  it('maps packs by varenummer with GTIN, pack size and every dated price (AIP, AUP history, trinnpris as reimbursed)', () => {
    const [pack] = product(1).packs;
    expect(pack).toMatchObject({
      key: '045678', description: '100 stk (Boks)', units: 100, unit: 'stk', dispensing_category: 'C',
      identifiers: [{ system: 'no_varenummer', code: '045678' }, { system: 'gtin', code: '7046260456785' }],
    });
    expect(pack!.prices).toEqual([
      { amount: 58.9, currency: 'NOK', kind: 'public', valid_from: '2024-01-01' },
      { amount: 31.58, currency: 'NOK', kind: 'ex_factory', valid_from: '2025-01-01' },
      { amount: 61.2, currency: 'NOK', kind: 'public', valid_from: '2025-01-01' },
      { amount: 40.5, currency: 'NOK', kind: 'reimbursed', valid_from: '2025-01-01' },
    ]);
    // Where FEST gives a Refusjonspris, the trinnpris is not read as the reimbursed price.
    expect(product(2).packs[0]!.prices!.filter((p) => p.kind === 'reimbursed')).toEqual([{ amount: 1985.4, currency: 'NOK', kind: 'reimbursed', valid_from: '2025-01-01' }]);
  });

  it('reads a prefixed namespace, the black triangle, a concentration strength and a product without ATC', () => {
    expect(product(2)).toMatchObject({ product_name: 'Eliquis tab 5 mg', atc_code: 'B01AF02', additional_monitoring: true, holder: 'Bristol-Myers Squibb/Pfizer' });
    expect(product(4).ingredients).toEqual([{ unii: 'name:INSULIN GLARGINE', strength_value: 100, strength_unit: 'E/ml', strength_text: '100 E/ml' }]);
    expect(product(4).packs[0]).toMatchObject({ description: '15 ml (Sylinderampulle)', units: 15, unit: 'ml' });
    expect(product(5).ingredients).toEqual([{ unii: 'name:AMOXICILLIN TRIHYDRATE', strength_value: 50, strength_unit: 'mg/ml', strength_text: '250 mg/5 ml' }]);
    expect(product(6).atc_code).toBeUndefined();
    expect(product(6).ingredients).toEqual([{ unii: 'name:VASELIN' }]);
  });

  it('marks a deregistered pack withdrawn, a temporarily withdrawn one unavailable, and a non-active entry withdrawn', () => {
    expect(product(5)).toMatchObject({ marketing_status: 'withdrawn' });
    expect(product(5).packs[0]).toMatchObject({ key: '123459', marketing_status: 'withdrawn' });
    expect(product(3).packs[0]).toMatchObject({ key: '187654', marketing_status: 'active', availability: 'temporarily_unavailable', dispensing_category: 'F' });
  });

  it('reports malformed entries with their line, skips the interaction catalogue, and counts the entries read', () => {
    expect(problems).toEqual([
      { file: 'fest251.xml', line: expect.any(Number), message: 'Varenr "12A456" is not 6 digits' },
      { file: 'fest251.xml', line: expect.any(Number), message: 'LegemiddelMerkevare Id "ID_NOTAGUID" is not a FEST id' },
      { file: 'fest251.xml', line: expect.any(Number), message: 'pack 045694 names no LegemiddelMerkevare of the file' },
    ]);
    const lines = FEST.toString('utf8').split('\n');
    for (const p of problems) expect(lines[p.line - 1]).toContain('<Oppf');
    expect(snapshot.products).toHaveLength(6);
    expect(files).toEqual([{ file: 'fest251.xml', role: 'FEST M30 (HentetDato 2026-11-20T03:09:06)', read: 27, kept: 24, malformed: 3 }]);
  });

  it('refuses another root, a FEST outside the M30 namespace, XML that is not well-formed, and a FEST without products', async () => {
    await expect(parseNoFest('x.xml', Buffer.from('<?xml version="1.0"?><Annet/>'))).rejects.toThrow(FileRejectedError);
    await expect(parseNoFest('x.xml', Buffer.from('<FEST xmlns="urn:other"><KatVirkestoff/></FEST>'))).rejects.toThrow(/M30 namespace/);
    await expect(parseNoFest('x.xml', FEST.subarray(0, FEST.length / 2))).rejects.toThrow(FileRejectedError);
    const empty = FEST.toString('utf8').replace(/<KatLegemiddelMerkevare>[\s\S]*<\/KatLegemiddelMerkevare>/, '<KatLegemiddelMerkevare />');
    await expect(parseNoFest('x.xml', Buffer.from(empty))).rejects.toThrow(/no LegemiddelMerkevare/);
  });

  it('reads a single-catalogue document with m30: and fs: prefixes, as the FEST web service answers, under any file name', async () => {
    const doc = `<?xml version="1.0" encoding="utf-8"?>
<m30:FEST xmlns:m30="http://www.kith.no/xmlstds/eresept/m30/2014-12-01" xmlns:fs="http://www.kith.no/xmlstds/eresept/forskrivning/2014-12-01">
  <m30:HentetDato>2026-11-21T03:00:00</m30:HentetDato>
  <m30:KatLegemiddelMerkevare>
    <m30:OppfLegemiddelMerkevare>
      <m30:Id>ID_F0000000-0000-0000-0000-000000000001</m30:Id><m30:Tidspunkt>2026-11-21T03:00:00</m30:Tidspunkt><m30:Status V="A" DN="Aktiv oppføring"/>
      <fs:LegemiddelMerkevare><fs:Id>${id(302)}</fs:Id><fs:NavnFormStyrke>Eliquis tab 5 mg</fs:NavnFormStyrke><fs:Varenavn>Eliquis</fs:Varenavn><fs:Atc V="B01AF02" DN="Apiksaban"/></fs:LegemiddelMerkevare>
    </m30:OppfLegemiddelMerkevare>
  </m30:KatLegemiddelMerkevare>
</m30:FEST>`;
    const result = await parseNoFestFiles([{ name: 'HentFestResponse.xml', content: Buffer.from(doc) }]);
    expect(result.files).toEqual([{ file: 'HentFestResponse.xml', role: 'FEST M30, partial: KatLegemiddelMerkevare (HentetDato 2026-11-21T03:00:00)', read: 1, kept: 1, malformed: 0 }]);
    expect(result.snapshot.products).toEqual([expect.objectContaining({ key: id(302), product_name: 'Eliquis tab 5 mg', atc_code: 'B01AF02', packs: [], ingredients: [] })]);
  });

  it('streams the file from disk in blocks (open) to the same result as the file read whole', async () => {
    const opened = await openNoFest([fileInput(PATH, 'fest251.xml')]);
    expect(opened).toEqual(parsed);
    // Blocks of 7 bytes split the UTF-8 of ø and å and every tag: entries read the same.
    const blocks = Array.from({ length: Math.ceil(FEST.length / 7) }, (_, i) => FEST.subarray(i * 7, i * 7 + 7));
    expect(blocks.some((b) => (b[b.length - 1]! & 0xc0) === 0xc0)).toBe(true); // a block ends inside a character
    const forms: string[] = [];
    const tally = new RowTally('fest251.xml');
    const doc = await readFest('fest251.xml', blocks, { tally, merkevare: (e) => forms.push(e.element.children.find((c) => c.name === 'LegemiddelformLang')?.text ?? ''), pakning: () => undefined });
    expect(forms).toContain('Injeksjonsvæske, oppløsning');
    expect(doc.extractedAt).toBe('2026-11-20T03:09:06');
    expect([...doc.catalogues].sort()).toEqual(['KatInteraksjon', 'KatLegemiddelMerkevare', 'KatLegemiddelpakning', 'KatVirkestoff', 'KatVirkestoffMedStyrke']);
    expect(doc.virkestoffer.size).toBe(6);
  });
});
