/**
 * ATC codes derived from substances, on a catalogue built as a user's is: WHO's ATC index
 * (`who-atc`), the French BDPM (no ATC codes at all) and the Swiss SL (Latin salt names, some
 * rows without a code), each parsed by its adapter from files in the published layout, then
 * asked through HTTP. The derived answers only exist where several registers meet.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { findAdapter } from '../../workers/ingest/adapters/index.ts';
import { ingestSnapshot } from '../../workers/ingest/engine.ts';
import { loadInteractionFile } from '../../workers/ingest/interactions.ts';
import type { Snapshot } from '../../workers/ingest/snapshot.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/db.ts';

const REGISTERS = fileURLToPath(new URL('../fixtures/registers/', import.meta.url));
const INTERACTIONS = new URL('../fixtures/interactions/epha-derived.csv', import.meta.url);

async function parse(adapter: string, dir: string, files: string[]): Promise<Snapshot> {
  const inputs = await Promise.all(files.map(async (name) => ({ name, content: await readFile(`${REGISTERS}${dir}/${name}`) })));
  const { snapshot, problems } = await findAdapter(adapter)!.parse(inputs);
  expect(problems).toEqual([]);
  return snapshot as Snapshot;
}

const who = () => parse('who-atc', 'who-atc', ['atc-linking.csv']);
const bdpm = () => parse('fr-bdpm', 'fr-bdpm/linking', ['CIS_bdpm.txt', 'CIS_CIP_bdpm.txt', 'CIS_COMPO_bdpm.txt']);
const sl = () => parse('ch-sl', 'ch-sl/linking', ['Preparations.xml']);

interface Link { key: string; atc: string | null; basis: string | null; confidence: number | null }

async function links(db: Database): Promise<Link[]> {
  const { rows } = await db.query<Link>(`SELECT natural_key AS key, atc_code AS atc, atc_code_basis AS basis,
    atc_code_confidence::float8 AS confidence FROM products ORDER BY natural_key`);
  return rows;
}

interface DrugBody { id: string; atc_code: string | null; atc_code_source: { origin: string; basis: string; confidence: number } | null }

describe('ATC codes derived from substances across registers', () => {
  let t: TestApp;
  let key: string;
  const lookup = async (system: string, code: string): Promise<DrugBody> => {
    const res = await t.app.inject({ url: `/v1/drugs/lookup?system=${system}&code=${code}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json<DrugBody>();
  };
  // CIP13 of the BDPM fixture's n-th presentation (CIS_CIP_bdpm.txt).
  const cip13 = async (cis: string) => (await t.db.query<{ code: string }>(
    `SELECT i.code FROM identifiers i JOIN packs k ON k.id = i.pack_id JOIN products p ON p.id = k.product_id
      WHERE i.system = 'cip13' AND p.natural_key = $1`, [cis])).rows[0]!.code;
  const bdpmDrug = async (cis: string) => lookup('cip13', await cip13(cis));
  const check = async (drugs: unknown[]) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/interactions/check', headers: bearer(key), payload: { drugs } });
    expect(res.statusCode).toBe(200);
    return res.json<{ inputs: Array<{ matched_by: string | null; atc_codes: string[]; matches: Array<{ kind: string; id: string; name: string; atc_codes: string[] }> }>;
      interactions: Array<{ atc_codes: string[] }> }>();
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await t.key({ tier: 'enterprise' });
    for (const snapshot of [await who(), await bdpm(), await sl()]) await ingestSnapshot(t.db, snapshot);
    await loadInteractionFile(t.db, INTERACTIONS);
  });
  afterAll(() => t.close());

  it('gives the BDPM apixaban tablet B01AF02 by its INN name, and says so on the drug record', async () => {
    const eliquis = await bdpmDrug('61000001');
    expect(eliquis).toMatchObject({ atc_code: 'B01AF02', atc_code_source: { origin: 'derived', basis: 'inn_name', confidence: 0.9 } });
  });

  it('links SL Latin names: a salt with a ratio folded, a Latin ending translated', async () => {
    const lopresor = await lookup('gtin', '7680039183009');
    expect(lopresor).toMatchObject({ atc_code: 'C07AB02', atc_code_source: { origin: 'derived', basis: 'inn_salt_folded', confidence: 0.8 } });
    const tibsovo = await lookup('gtin', '7680068901001');
    expect(tibsovo).toMatchObject({ atc_code: 'L01XX62', atc_code_source: { origin: 'derived', basis: 'inn_translated', confidence: 0.85 } });
  });

  it('decides acetylsalicylic acid by strength and route, and leaves the in-between strength unlinked', async () => {
    // Kardégic: DL-lysine salt whose moiety is 75 mg; the SL's register-coded 300 mg product does not decide it.
    expect(await bdpmDrug('61000002')).toMatchObject({ atc_code: 'B01AC06', atc_code_source: { basis: 'strength_route', confidence: 0.7 } });
    expect(await bdpmDrug('61000003')).toMatchObject({ atc_code: 'N02BA01', atc_code_source: { basis: 'strength_route' } });
    expect(await bdpmDrug('61000009')).toMatchObject({ atc_code: 'A01AD05', atc_code_source: { basis: 'strength_route' } });
    expect(await bdpmDrug('61000004')).toMatchObject({ atc_code: null, atc_code_source: null });
  });

  it('links a combination only when every component and the route match a combination code', async () => {
    expect(await bdpmDrug('61000005')).toMatchObject({ atc_code: 'C09DB01', atc_code_source: { basis: 'combination', confidence: 0.8 } });
    expect(await bdpmDrug('61000006')).toMatchObject({ atc_code: 'J01CR02', atc_code_source: { basis: 'combination' } });
    expect(await lookup('gtin', '7680057221004')).toMatchObject({ atc_code: 'C09DB01', atc_code_source: { basis: 'combination' } });
    // Valsartan and hydrochlorothiazide: both single names are known, no combination code is.
    expect(await bdpmDrug('61000007')).toMatchObject({ atc_code: null, atc_code_source: null });
  });

  it("keeps a register's own code even where strength would say another", async () => {
    const cardio = await lookup('gtin', '7680051795006');
    expect(cardio).toMatchObject({ atc_code: 'B01AC06', atc_code_source: { origin: 'register', basis: 'register', confidence: 1 } });
  });

  it('counts derived codes in the markets overview', async () => {
    const res = await t.app.inject({ url: '/v1/markets/overview?q=B01AF02', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ markets: Array<{ country: string }> }>().markets.map((m) => m.country)).toEqual(['FR']);
  });

  it('checks interactions by INN in English, German and French, reporting what each input met', async () => {
    const ivo = await check(['Ivosidenib', 'Itraconazole']);
    expect(ivo.interactions.map((r) => r.atc_codes)).toEqual([['J02AC02', 'L01XX62']]);
    expect(ivo.inputs[0]!.matches).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'substance', atc_codes: ['L01XX62'] })]));
    expect(ivo.inputs[1]).toMatchObject({ matched_by: 'atc_name', matches: [{ kind: 'atc', id: 'J02AC02', name: 'itraconazole', atc_codes: ['J02AC02'] }] });
    for (const asa of ['Acetylsalicylic acid', 'Acetylsalicylsäure', 'acide acétylsalicylique']) {
      const body = await check([asa, 'Apixaban', 'Metoprolol']);
      expect(body.inputs[0]!.atc_codes).toEqual(['A01AD05', 'B01AC06', 'N02BA01']);
      expect(body.interactions.map((r) => r.atc_codes)).toEqual([['B01AC06', 'B01AF02'], ['C07AB02', 'N02BA01']]);
    }
  });

  it("falls through from a brand whose product has no ATC code to its substances' codes", async () => {
    const body = await check(['ASPIRINE EXEMPLE 250 mg, comprimé', 'ELIQUIS 5 mg, comprimé pelliculé']);
    expect(body.inputs[0]!.matches).toEqual([expect.objectContaining({ kind: 'product', name: 'ASPIRINE EXEMPLE 250 mg, comprimé' })]);
    expect(body.inputs[0]!.atc_codes).toEqual(['A01AD05', 'B01AC06', 'N02BA01']);
    expect(body.inputs[1]!.atc_codes).toEqual(['B01AF02']);
    expect(body.interactions.map((r) => r.atc_codes)).toEqual([['B01AC06', 'B01AF02']]);
  });

  it('gives the same links whatever the load order, and none change on a reload', async () => {
    const before = await links(t.db);
    const other = await openTestDatabase();
    try {
      for (const snapshot of [await sl(), await bdpm(), await who()]) await ingestSnapshot(other, snapshot);
      expect(await links(other)).toEqual(before);
    } finally {
      await other.close();
    }
    await ingestSnapshot(t.db, await who());
    await ingestSnapshot(t.db, await bdpm());
    expect(await links(t.db)).toEqual(before);
  });
});
