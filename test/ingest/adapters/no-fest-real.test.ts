/**
 * no-fest on real FEST documents (test/fixtures/registers/no-fest/real/, see SOURCE.md): two
 * documents of DMP's FEST extract of 2023-09-08, each holding one catalogue, as extracts and
 * the FEST web service give them (KatLegemiddelMerkevare only, KatLegemiddelpakning only).
 * Values are checked against the bytes of the documents; outcomes are exact; a partial
 * document updates what it holds and deletes nothing else of the source.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../platform/db.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import { parseNoFest, parseNoFestFiles } from '../../../workers/ingest/adapters/no-fest.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';

const REAL = new URL('../../fixtures/registers/no-fest/real/', import.meta.url);
const MERKEVARE = readFileSync(new URL('fest-legemiddelmerkevare.xml', REAL));
const PAKNING = readFileSync(new URL('fest-legemiddelpakning.xml', REAL));
const BASE = readFileSync(new URL('../../fixtures/registers/no-fest/fest251.xml', import.meta.url), 'utf8');

const KODIMAGNYL = 'ID_000A27B8-3930-4264-80F9-CDB14C895662';
const ZOLPIDEM_MERKEVARE = 'ID_D9ECF4A9-FE22-401D-AA86-31ACA65EFAC2';
const HENTET = '2023-09-08T03:11:43';

/** The source text holds `fragment`: a value asserted below is read from these bytes. */
function inSource(doc: Buffer, fragment: string): void {
  expect(doc.toString('utf8')).toContain(fragment);
}

describe('no-fest on real FEST documents holding one catalogue', () => {
  it('reads a document holding only KatLegemiddelMerkevare: its one merkevare is kept, strengths being in a catalogue not given', async () => {
    const { snapshot, problems, files } = await parseNoFest('fest-legemiddelmerkevare.xml', MERKEVARE);
    expect(problems).toEqual([]);
    expect(files).toEqual([{ file: 'fest-legemiddelmerkevare.xml', role: `FEST M30, partial: KatLegemiddelMerkevare (HentetDato ${HENTET})`, read: 1, kept: 1, malformed: 0 }]);
    expect(snapshot.products).toHaveLength(1);
    const [product] = snapshot.products!;
    for (const fragment of [
      `<Id>${KODIMAGNYL}</Id><Varenavn>Kodimagnyl Ikke-stoppende dak</Varenavn>`,
      '<NavnFormStyrke>Kodimagnyl Ikke-stoppende dak tab 9,6 mg/500 mg/150 mg</NavnFormStyrke>',
      "<Atc V='N02AJ07'", "<Reseptgruppe V='B'", '<LegemiddelformLang>Tablett, filmdrasjert</LegemiddelformLang>',
      "DN='Oral bruk'", '<Produsent>Orifarm Healthcare</Produsent>', "<Preparattype V='11' DN='Krever godkj. Fritak' />",
    ]) inSource(MERKEVARE, fragment);
    expect(product).toEqual({
      key: KODIMAGNYL, country: 'NO', product_name: 'Kodimagnyl Ikke-stoppende dak tab 9,6 mg/500 mg/150 mg', brand: 'Kodimagnyl Ikke-stoppende dak',
      identifiers: [{ system: 'no_merkevare_id', code: KODIMAGNYL }], ingredients: [], packs: [], marketing_status: 'active',
      atc_code: 'N02AJ07', dose_form: 'Tablett, filmdrasjert', route: 'Oral bruk', holder: 'Orifarm Healthcare', dispensing_category: 'B',
      attributes: { preparation_type: 'Krever godkj. Fritak' },
    });
    expect(snapshot.substances).toEqual([]);
  });

  it('reads the two documents together; the pack names a merkevare neither holds, so it is excluded (no_merkevare), not malformed', async () => {
    const { snapshot, problems, files } = await parseNoFestFiles([
      { name: 'fest-legemiddelmerkevare.xml', content: MERKEVARE }, { name: 'fest-legemiddelpakning.xml', content: PAKNING }, { name: 'LESMEG.txt', content: Buffer.from('FEST utdrag\n') },
    ]);
    inSource(PAKNING, `<RefLegemiddelMerkevare>${ZOLPIDEM_MERKEVARE}</RefLegemiddelMerkevare>`);
    expect(problems).toEqual([]);
    expect(files).toEqual([
      { file: 'fest-legemiddelmerkevare.xml', role: `FEST M30, partial: KatLegemiddelMerkevare (HentetDato ${HENTET})`, read: 1, kept: 1, malformed: 0 },
      { file: 'fest-legemiddelpakning.xml', role: `FEST M30, partial: KatLegemiddelpakning (HentetDato ${HENTET})`, read: 1, kept: 0, malformed: 0, excluded: { no_merkevare: 1 } },
      { file: 'LESMEG.txt', role: 'unused', read: 0, kept: 0, malformed: 0, note: expect.stringContaining('not a file this adapter reads') },
    ]);
    expect(snapshot.products!.map((p) => p.key)).toEqual([KODIMAGNYL]);
  });

  it('refuses the pack document alone on an empty catalogue (nothing to place it under), a truncated document, another register\'s file and an empty file', async () => {
    await expect(parseNoFest('fest-legemiddelpakning.xml', PAKNING)).rejects.toThrow(/holds only KatLegemiddelpakning.*give the whole fest251.xml first/);
    await expect(parseNoFest('fest-legemiddelpakning.xml', PAKNING.subarray(0, 900))).rejects.toThrow(FileRejectedError);
    const lms = readFileSync(new URL('../../fixtures/registers/dk-lms/lms01.txt', import.meta.url));
    await expect(parseNoFest('lms01.txt', lms)).rejects.toThrow(/no FEST M30 document/);
    await expect(parseNoFest('fest251.xml', Buffer.alloc(0))).rejects.toThrow(/no FEST M30 document/);
  });
});

describe('a partial FEST document updates what it holds and deletes nothing else', () => {
  let db: Database;
  // The hand-written register with two of its merkevare ids set to those the real documents name.
  const base = BASE.replaceAll('ID_00000000-0000-0000-0000-00000000012D', ZOLPIDEM_MERKEVARE).replaceAll('ID_00000000-0000-0000-0000-00000000012E', KODIMAGNYL);
  const count = async (sql: string): Promise<number> => (await db.query<{ n: number }>(sql)).rows[0]!.n;
  const products = () => count("SELECT count(*)::int AS n FROM products WHERE source = 'no-fest'");
  const packs = () => count("SELECT count(*)::int AS n FROM packs WHERE source = 'no-fest'");
  const deletes = () => count("SELECT count(*)::int AS n FROM changes WHERE source = 'no-fest' AND change_type = 'delete'");
  const ingest = (name: string, content: Buffer) => parseAndIngest(db, 'no-fest', [{ name, content }], { strict: false, shrink: { maxDeletePercent: 10, maxSkippedPercent: 20 } });

  beforeAll(async () => {
    db = await openTestDatabase();
    const whole = await ingest('fest251.xml', Buffer.from(base));
    expect(whole, JSON.stringify(whole)).toMatchObject({ outcome: 'ok', rows: { read: 27, kept: 24, malformed: 3, excluded: 0 } });
  });
  afterAll(() => db.close());

  it('adds the real pack under its held merkevare, with the prices, GTIN and dates of the document, and keeps every other product and pack', async () => {
    const [productsBefore, packsBefore] = [await products(), await packs()];
    const result = await ingest('fest-legemiddelpakning.xml', PAKNING);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 1, kept: 1, malformed: 0, excluded: 0 } });
    expect([await products(), await packs(), await deletes()]).toEqual([productsBefore, packsBefore + 1, 0]);
    for (const fragment of ["<Pris V='7.69' U='NOK' />", "DN='Refusjonspris' /><Pris V='69.8'", "DN='AUP' /><Pris V='69.8'", '<Ean>5745000695003</Ean>', '<Pakningsstr>7</Pakningsstr>', '<Markedsforingsdato>2023-01-01</Markedsforingsdato>']) inSource(PAKNING, fragment);
    const { rows } = await db.query<{ product: string; record: Record<string, unknown> }>(
      "SELECT p.natural_key AS product, k.record FROM packs k JOIN products p ON p.id = k.product_id WHERE k.source = 'no-fest' AND k.natural_key = '526181'");
    expect(rows).toEqual([{ product: ZOLPIDEM_MERKEVARE, record: expect.objectContaining({
      key: '526181', description: '7 stk (Blisterpakning)', units: 7, unit: 'stk', dispensing_category: 'B',
      identifiers: [{ system: 'no_varenummer', code: '526181' }, { system: 'gtin', code: '5745000695003' }],
      prices: [
        { amount: 7.69, currency: 'NOK', kind: 'ex_factory', valid_from: '2023-01-01' },
        { amount: 69.8, currency: 'NOK', kind: 'reimbursed', valid_from: '2023-01-01' },
        { amount: 69.8, currency: 'NOK', kind: 'public', valid_from: '2023-01-01' },
      ],
    }) }]);
    // The two held packs of the same merkevare (045678, 045686) are still there beside the new one.
    const { rows: under } = await db.query<{ key: string }>(`SELECT k.natural_key AS key FROM packs k JOIN products p ON p.id = k.product_id WHERE p.natural_key = '${ZOLPIDEM_MERKEVARE}' ORDER BY 1`);
    expect(under.map((r) => r.key)).toEqual(['045678', '045686', '526181']);
  });

  it('updates the held merkevare the real merkevare document names, keeping its packs and ingredients, and deletes nothing', async () => {
    const [productsBefore, packsBefore] = [await products(), await packs()];
    const result = await ingest('fest-legemiddelmerkevare.xml', MERKEVARE);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 1, kept: 1, malformed: 0, excluded: 0 } });
    expect([await products(), await packs(), await deletes()]).toEqual([productsBefore, packsBefore, 0]);
    const { rows } = await db.query<{ record: { product_name: string; holder: string; ingredients: unknown[] }; packs: string[] }>(
      `SELECT p.record, array(SELECT k.natural_key FROM packs k WHERE k.product_id = p.id ORDER BY 1) AS packs FROM products p WHERE p.source = 'no-fest' AND p.natural_key = '${KODIMAGNYL}'`);
    expect(rows[0]!.record).toMatchObject({ product_name: 'Kodimagnyl Ikke-stoppende dak tab 9,6 mg/500 mg/150 mg', holder: 'Orifarm Healthcare' });
    // Its strengths are in KatVirkestoffMedStyrke, which the document does not hold: the held ingredients stay.
    expect(rows[0]!.record.ingredients).toEqual([expect.objectContaining({ strength_value: 5, strength_unit: 'mg' })]);
    expect(rows[0]!.packs).toEqual(['413561']);
  });

  it('loses neither of two partial documents ingested at once: each reads what it lays itself over inside its own ingest', async () => {
    // A new price in the pack document and a new holder in the merkevare document, ingested together.
    // Each restates what the catalogue holds of FEST; read before the other's ingest committed, it
    // would write the other's change back.
    const price = Buffer.from(PAKNING.toString('utf8').replace("<Pris V='7.69' U='NOK' />", "<Pris V='8.15' U='NOK' />"));
    const holder = Buffer.from(MERKEVARE.toString('utf8').replace('Orifarm Healthcare</Produsent>', 'Orifarm Generics</Produsent>'));
    const results = await Promise.all([ingest('fest-legemiddelpakning.xml', price), ingest('fest-legemiddelmerkevare.xml', holder)]);
    expect(results.map((r) => r.outcome), JSON.stringify(results)).toEqual(['ok', 'ok']);
    const { rows } = await db.query<{ ex_factory: number; holder: string }>(
      `SELECT (SELECT (x ->> 'amount')::float8 FROM jsonb_array_elements(k.record -> 'prices') x WHERE x ->> 'kind' = 'ex_factory') AS ex_factory,
              (SELECT p.record ->> 'holder' FROM products p WHERE p.source = 'no-fest' AND p.natural_key = $1) AS holder
         FROM packs k WHERE k.source = 'no-fest' AND k.natural_key = '526181'`, [KODIMAGNYL]);
    expect(rows).toEqual([{ ex_factory: 8.15, holder: 'Orifarm Generics' }]);
  });

  it('writes nothing when a partial document is refused (truncated)', async () => {
    const [productsBefore, packsBefore] = [await products(), await packs()];
    const result = await ingest('fest-legemiddelpakning.xml', PAKNING.subarray(0, 900));
    expect(result).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^file rejected: .*not well-formed/) });
    expect([await products(), await packs()]).toEqual([productsBefore, packsBefore]);
  });
});
