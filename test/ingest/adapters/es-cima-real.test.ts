/**
 * es-cima on real CIMA REST answers (test/fixtures/registers/es-cima/real/SOURCE.md): a page of
 * `/medicamentos?nombre=aspirina`, `/medicamento?cn=712729`, `/presentacion/706083` and a
 * `/medicamento` answer of 1962 (negative epoch date). Each value asserted is read from the
 * answer's bytes first, so a test states what the AEMPS wrote and what drugref made of it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../../workers/ingest/adapters/common.ts';
import type { InputFile } from '../../../workers/ingest/adapters/common.ts';
import { parseEsCima } from '../../../workers/ingest/adapters/es-cima.ts';
import { cimaDay } from '../../../workers/ingest/adapters/es-cima-rest.ts';
import { parseAndIngest } from '../../../workers/ingest/apply.ts';
import { balanced } from '../../../workers/ingest/row-outcome.ts';
import type { Database } from '../../../platform/db.ts';
import { openTestDatabase } from '../../helpers/db.ts';

const REAL = new URL('../../fixtures/registers/es-cima/real/', import.meta.url);
const HAND = new URL('../../fixtures/registers/es-cima/', import.meta.url);
const real = (name: string): InputFile => ({ name, content: readFileSync(new URL(name, REAL)) });
const bytes = (name: string): string => readFileSync(new URL(name, REAL), 'utf8');
const PAGE = 'medicamentos_nombre_aspirina.json';
const BY_CN = 'medicamento_cn_712729.json';
const PRESENTATION = 'presentacion_706083.json';
const OLD = 'medicamento_nregistro_37453.json';

describe('es-cima: a real page of /medicamentos (16 medicines named aspirina)', () => {
  const { snapshot, files, problems } = parseEsCima([real(PAGE)]);
  const product = (key: string) => snapshot.products?.find((p) => p.key === key);

  it('reads every medicine of the page, none malformed, as a partial snapshot', () => {
    expect(files).toEqual([{ file: PAGE, role: 'CIMA answer (page of results)', read: 16, kept: 16, malformed: 0 }]);
    expect(files?.every(balanced)).toBe(true);
    expect(problems).toEqual([]);
    expect(snapshot.partial).toBe(true);
    expect(bytes(PAGE)).toContain('"totalFilas": 16');
  });

  it('keeps nregistro opaque: spaces, a letter suffix and a leading zero as the AEMPS writes them', () => {
    for (const raw of ['40 400-95-96', '20000836IP', '0416703', '95-0312']) expect(bytes(PAGE)).toContain(`"nregistro": "${raw}"`);
    expect(product('40400-95-96')).toMatchObject({
      product_name: 'ASPIRINA COMPRIMIDOS', holder: 'Bayer Hellas Abee', identifiers: [{ system: 'es_nregistro', code: '40400-95-96' }],
      attributes: { es_nregistro: '40 400-95-96' },
    });
    expect(product('20000836IP')?.holder).toBe('Bayer Bulgaria Eood');
    expect(product('0416703')?.product_name).toBe('ASPIRINA 500 MG COMPRIMIDOS');
  });

  it('reads authorisation dates from epoch milliseconds as the Madrid day, before 1970 too', () => {
    expect(bytes(PAGE)).toMatch(/"nregistro": "51347",[\s\S]*?"aut": 107737200000/);
    expect(product('51347')?.authorised_on).toBe('1973-06-01');
    expect(bytes(PAGE)).toMatch(/"nregistro": "2011",[\s\S]*?"aut": -1499126400000/);
    expect(product('2011')?.authorised_on).toBe('1922-07-01');
    expect(bytes(PAGE)).toMatch(/"nregistro": "12680",[\s\S]*?"aut": -639108000000/);
    expect(product('12680')?.authorised_on).toBe('1949-10-01');
  });

  it('reads a revocation (estado.rev) as revoked, withdrawn, with its date', () => {
    expect(bytes(PAGE)).toMatch(/"nregistro": "57838",[\s\S]*?"aut": 612655200000,\s*"rev": 1489058185000/);
    expect(product('57838')).toMatchObject({
      authorised_on: '1989-06-01', authorisation_status: 'Anulado', marketing_status: 'withdrawn',
      attributes: { es_fecha_revocacion: '2017-03-09' },
    });
    expect(product('62280')).toMatchObject({ authorisation_status: 'Autorizado', marketing_status: 'active', dispensing_category: 'Sin Receta' });
  });
});

describe('es-cima: real /medicamento and /presentacion answers', () => {
  it('reads a medicine with its presentation, substances and level-5 ATC code', () => {
    const { snapshot, files } = parseEsCima([real(BY_CN)]);
    expect(files).toEqual([{ file: BY_CN, role: 'CIMA answer', read: 1, kept: 1, malformed: 0 }]);
    expect(bytes(BY_CN)).toContain('"cn": "712729"');
    expect(snapshot.products?.[0]).toMatchObject({
      key: '51347', product_name: 'ASPIRINA C 400 mg/240 mg COMPRIMIDOS EFERVESCENTES', atc_code: 'N02BA51', dose_form: 'COMPRIMIDO EFERVESCENTE',
      route: 'VÍA ORAL', generic: false, authorised_on: '1973-06-01',
      ingredients: [
        { unii: 'name:ACETILSALICILICO ACIDO', strength_value: 400, strength_unit: 'mg', strength_text: '400 mg' },
        { unii: 'name:ASCORBICO ACIDO', strength_value: 240, strength_unit: 'mg', strength_text: '240 mg' },
      ],
      packs: [{
        key: '712729', description: 'ASPIRINA C 400 mg/240 mg COMPRIMIDOS EFERVESCENTES , 10 comprimidos',
        identifiers: [{ system: 'cima_codigo', code: '712729' }], units: 10, unit: 'comprimidos', marketing_status: 'active',
      }],
    });
  });

  it('reads a /presentacion answer as the pack of its medicine', () => {
    const { snapshot } = parseEsCima([real(PRESENTATION)]);
    expect(bytes(PRESENTATION)).toContain('"aut": 1428530400000');
    expect(snapshot.products).toEqual([expect.objectContaining({
      key: '79717', holder: 'S.E. De Carburos Metalicos, S.A.', dispensing_category: 'Uso Hospitalario', authorised_on: '2015-04-09', atc_code: 'N01AX63',
      packs: [expect.objectContaining({ key: '706083', description: 'ACTYNOX  50%/50% GAS COMPRIMIDO MEDICINAL, 1 bala de gas de 15 l', marketing_status: 'withdrawn' })],
    })]);
  });

  it('reads a medicine authorised in 1962 (a negative epoch date) with its five substances', () => {
    const { snapshot } = parseEsCima([real(OLD)]);
    expect(bytes(OLD)).toContain('"estado":{"aut":-249786000000}');
    expect(cimaDay(-249786000000, 'aut')).toBe('1962-02-01');
    expect(snapshot.products?.[0]).toMatchObject({
      key: '37453', authorised_on: '1962-02-01', atc_code: 'R02AA52', holder: 'Ferrer Internacional, S.A.',
      packs: [expect.objectContaining({ key: '917914', units: 20, unit: 'ml' })],
    });
    expect(snapshot.products?.[0]?.ingredients.map((i) => i.unii)).toEqual([
      'name:DECUALINIO CLORURO', 'name:ENOXOLONA', 'name:HIDROCORTISONA ACETATO', 'name:TIROTRICINA', 'name:LIDOCAINA HIDROCLORURO',
    ]);
  });

  it('completes a medicine of the page from its /medicamento answer given with it, counting each record once', () => {
    const { snapshot, files } = parseEsCima([real(PAGE), real(BY_CN), real(PRESENTATION), real(OLD)]);
    expect(files?.map((f) => [f.read, f.kept, f.malformed])).toEqual([[16, 16, 0], [1, 1, 0], [1, 1, 0], [1, 1, 0]]);
    expect(snapshot.products).toHaveLength(18);
    expect(snapshot.products?.find((p) => p.key === '51347')).toMatchObject({ atc_code: 'N02BA51', packs: [expect.objectContaining({ key: '712729' })] });
    // The same answer twice: the repeat is a duplicate, not malformed.
    const twice = parseEsCima([real(BY_CN), { ...real(BY_CN), name: 'again.json' }]);
    expect(twice.files?.[1]).toEqual({ file: 'again.json', role: 'CIMA answer', read: 1, kept: 0, malformed: 0, excluded: { duplicate: 1 } });
  });

  it('names a file it does not read as unused beside the answers', () => {
    const { files } = parseEsCima([real(BY_CN), { name: 'saate.txt', content: Buffer.from('Perusrekisteri  Ajopvm: 1/24/2020\r\n') }]);
    expect(files?.[1]).toMatchObject({ file: 'saate.txt', role: 'unused', read: 0 });
  });
});

describe('es-cima: refusals of answers that hold nothing', () => {
  it('refuses a truncated answer, an empty file and a file of another register, writing nothing', () => {
    const cut = { name: PAGE, content: readFileSync(new URL(PAGE, REAL)).subarray(0, 5000) };
    expect(() => parseEsCima([cut])).toThrow(FileRejectedError);
    expect(() => parseEsCima([{ name: 'empty.json', content: Buffer.alloc(0) }])).toThrow(/nomenclátor/);
    const fimea = readFileSync(new URL('../fi-fimea/PAKKAUS.txt', HAND));
    expect(() => parseEsCima([{ name: 'PAKKAUS.txt', content: fimea }])).toThrow(/nomenclátor/);
  });

  it('reports a truncated answer among others as one malformed record', () => {
    const cut = { name: 'cut.json', content: readFileSync(new URL(PAGE, REAL)).subarray(0, 5000) };
    const { files, problems } = parseEsCima([real(BY_CN), cut]);
    expect(files?.[1]).toEqual({ file: 'cut.json', role: 'CIMA answer', read: 1, kept: 0, malformed: 1 });
    expect(problems[0]).toMatchObject({ file: 'cut.json', line: 0, message: expect.stringMatching(/^not JSON/) });
  });
});

describe('es-cima: a CIMA answer updates what it holds and deletes nothing', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  }, 120_000);
  afterAll(() => db.close());

  it('ingests the nomenclátor, then answers: the answers add and update, every nomenclátor pack stays', async () => {
    const hand = readdirSync(HAND, { withFileTypes: true }).filter((e) => e.isFile() && e.name !== 'wrong-root.xml' && e.name !== 'nomenclator_facturacion_2019.csv')
      .map((e) => ({ name: e.name, content: readFileSync(new URL(e.name, HAND)) }));
    const full = await parseAndIngest(db, 'es-cima', hand, { strict: false });
    expect(full.outcome).toBe('ok');
    const packs = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs WHERE source = 'es-cima'`)).rows[0]!.n;
    expect(await packs()).toBe(7);
    const partial = await parseAndIngest(db, 'es-cima', [real(PAGE), real(BY_CN), real(PRESENTATION), real(OLD)], { strict: true });
    expect(partial.outcome, JSON.stringify(partial)).toBe('ok');
    expect(partial.outcome === 'ok' && partial.report.tables).toMatchObject({ products: { insert: 18, delete: 0 }, packs: { insert: 3, delete: 0 } });
    expect(await packs()).toBe(10);
    const deletes = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM changes WHERE source = 'es-cima' AND change_type = 'delete'`);
    expect(deletes.rows[0]!.n).toBe(0);
    const { rows } = await db.query<{ natural_key: string; authorised: string }>(
      `SELECT natural_key, record->>'authorised_on' AS authorised FROM products WHERE source = 'es-cima' AND natural_key IN ('65213', '37453') ORDER BY natural_key`);
    expect(rows).toEqual([{ natural_key: '37453', authorised: '1962-02-01' }, { natural_key: '65213', authorised: '2003-06-18' }]);
  }, 120_000);
});
