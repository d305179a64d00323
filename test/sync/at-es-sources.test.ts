import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { findSyncSource } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { buildZip } from './publisher.ts';
import { fixture, runner, state, syncConfig, rowsNotKept } from './helpers.ts';

const fixtureNames = (dir: string): string[] => readdirSync(new URL(`../fixtures/registers/${dir}/`, import.meta.url), { withFileTypes: true }).filter((e) => e.isFile() && !e.name.startsWith('wrong')).map((e) => e.name);

describe('Spanish and Austrian register sync sources', () => {
  const ctx = useSyncPublisher();

  it('names the AEMPS download and leaves the EKO to a configured link', () => {
    expect(findSyncSource('es-cima')).toMatchObject({ adapter: 'es-cima', country: 'ES', url: 'https://listadomedicamentos.aemps.gob.es/prescripcion.zip' });
    expect(findSyncSource('at-eko')).toMatchObject({ adapter: 'at-eko', country: 'AT', url: null });
    expect(findSyncSource('at-eko')?.note).toContain('SYNC_AT_EKO_URL');
  });

  it('downloads prescripcion.zip, unpacks the nomenclátor, the code tables it reads and a billing CSV beside them, and ingests them', async () => {
    const path = '/aemps/prescripcion.zip';
    ctx.publisher.publish(path, buildZip([
      // A mirror zip: the AEMPS files with the Ministry's billing CSV beside them.
      ...fixtureNames('es-cima').filter((n) => n !== 'nomenclator_facturacion_2019.csv').map((name) => ({ name, content: fixture(`es-cima/${name}`) })),
      // A code table the adapter does not read stays in the archive.
      { name: 'DICCIONARIO_ATC.xml', content: Buffer.from('<aemps_prescripcion_atc/>') },
    ]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'es-cima': path }));
    const [result] = await r.runNow(['es-cima']);
    await r.close();
    // 4 malformed presentations, 2 malformed billing rows and 1 billing row of a product the nomenclátor does not list.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: expect.any(Number) } });
    // Rows the file holds but the catalogue does not: malformed or excluded by reason, none lost.
    expect(rowsNotKept(result)).toBe(7);
    expect(result).toMatchObject({ rows: { read: 47, kept: 40, malformed: 5, excluded: 2 } });
    expect(await state(ctx.db, 'es-cima')).toMatchObject({ last_outcome: 'ok', consecutive_failures: 0 });
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs WHERE source = 'es-cima'`);
    expect(rows[0]!.n).toBe(7);
    const price = await ctx.db.query<{ amount: number }>(`SELECT (record->'prices'->0->>'amount')::float8 AS amount FROM packs WHERE source = 'es-cima' AND natural_key = '659123'`);
    expect(price.rows[0]?.amount).toBe(1.96);
    expect((await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState])).toContainEqual(['es-cima', 'ok']);
  });

  it('downloads the EKO data carrier zip with its folder, unpacks its text files and ingests them', async () => {
    const path = '/dachverband/ehmv11_26_teil1.zip';
    ctx.publisher.publish(path, buildZip(fixtureNames('at-eko').map((name) => ({ name: `ehmv11_26_teil1/${name}`, content: fixture(`at-eko/${name}`) }))));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'at-eko': path }));
    const [result] = await r.runNow(['at-eko']);
    await r.close();
    // 3 malformed pack lines; excluded: 1 repeated PZN, 1 substance row without a code (`_______`), 1 empty medikament_zusatz line.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: 40, kept: 34, malformed: 3, excluded: 3 } });
    // Rows the file holds but the catalogue does not: malformed or excluded by reason, none lost.
    expect(rowsNotKept(result)).toBe(6);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs WHERE source = 'at-eko'`);
    expect(rows[0]!.n).toBe(8);
  });

  it('ingests the real data carrier excerpt: every row kept or excluded by name, none malformed', async () => {
    const path = '/dachverband/ehmv10_22_teil1.zip';
    const names = ['medikament.txt', 'wirkstoff.txt', 'atccode.txt', 'rezeptpflicht.txt', 'regeltext.txt', 'medikament_zusatz.txt', 'hinweis.txt'];
    ctx.publisher.publish(path, buildZip(names.map((name) => ({ name, content: fixture(`at-eko/real/${name}`) }))));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'at-eko': path }));
    const [result] = await r.runNow(['at-eko']);
    await r.close();
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', rows: { read: 642, kept: 530, malformed: 0, excluded: 112 } });
    expect(rowsNotKept(result)).toBe(112);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM packs WHERE source = 'at-eko'`);
    expect(rows[0]!.n).toBe(115);
  });

  it('refuses an EKO archive without the pack list, writing nothing', async () => {
    const path = '/dachverband/broken.zip';
    ctx.publisher.publish(path, buildZip([{ name: 'wirkstoff.txt', content: fixture('at-eko/wirkstoff.txt') }]));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'at-eko': path }));
    const [result] = await r.runNow(['at-eko']);
    await r.close();
    expect(result?.outcome).toBe('refused');
  });
});
