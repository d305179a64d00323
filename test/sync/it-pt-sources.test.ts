/**
 * Sync of the Italian and Portuguese registers against the local fake publisher: AIFA's two
 * plain CSVs through the `{file}` URL (the ingredients file optional), Infomed's export from the
 * operator-set URL; both ingested into the catalogue as their adapters read them.
 */
import { describe, expect, it } from 'vitest';
import { useSyncPublisher } from '../helpers/sync-publisher.ts';
import { loadConfig } from '../../platform/config.ts';
import { SYNC_SOURCES } from '../../platform/sync-sources.ts';
import { listSources } from '../../resolvers/sources/status.ts';
import { inactiveReason } from '../../workers/sync/worker.ts';
import { fixture, runner, state, syncConfig, rowsNotKept } from './helpers.ts';

const AIFA = '/farmaci/';
const INFOMED = '/mirror/lista_infomed.csv';

describe('register sync: it-aifa and pt-infomed', () => {
  const ctx = useSyncPublisher();

  it('knows AIFA\'s download location and that Infomed needs an operator-set URL', () => {
    const defaults = loadConfig({ SYNC_ENABLED: 'true' });
    expect(SYNC_SOURCES.find((s) => s.id === 'it-aifa')?.url).toBe('https://drive.aifa.gov.it/farmaci/{file}');
    expect(inactiveReason(defaults.sync, SYNC_SOURCES.find((s) => s.id === 'pt-infomed')!)).toMatch(/SYNC_PT_INFOMED_URL/);
  });

  it('downloads the AIFA register, skips a missing ingredients file, and ingests the register', async () => {
    ctx.publisher.publish(`${AIFA}confezioni_fornitura.csv`, fixture('it-aifa/confezioni_fornitura.csv'));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'it-aifa': `${AIFA}{file}` }));
    const [result] = await r.runNow(['it-aifa']);
    // The register's line 14 (bad check digit) and 15 (cut short) are malformed; nothing is excluded.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', bytes: 3181, rows: { read: 14, kept: 12, malformed: 2, excluded: 0 } });
    expect(rowsNotKept(result)).toBe(2);
    expect(ctx.publisher.hitsOf(`${AIFA}PA_confezioni.csv`).map((h) => h.answered)).toEqual([404]);

    // The ingredients file appears: the next sync fetches and reads both files.
    ctx.publisher.publish(`${AIFA}PA_confezioni.csv`, fixture('it-aifa/PA_confezioni.csv'));
    const [second] = await r.runNow(['it-aifa']);
    await r.close();
    // PA_confezioni.csv line 15 names no substance: malformed, beside the register's two.
    expect(second, JSON.stringify(second)).toMatchObject({ outcome: 'ok', rows: { read: 28, kept: 25, malformed: 3, excluded: 0 } });
    expect(rowsNotKept(second)).toBe(3);
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'it-aifa'");
    expect(rows[0]!.n).toBe(12);
    expect((await listSources(ctx.db, new Date())).map((s) => [s.id, s.schemaState])).toContainEqual(['it-aifa', 'ok']);
  });

  it('downloads the Infomed export from the configured URL and ingests it', async () => {
    ctx.publisher.publish(INFOMED, fixture('pt-infomed/lista_infomed.csv'));
    const r = runner(ctx.db, syncConfig(ctx.publisher, { 'pt-infomed': INFOMED }));
    const [result] = await r.runNow(['pt-infomed']);
    // Three malformed rows (bad Nº Registo, bad PVP, cut row) and a repeated Nº Registo excluded as duplicate.
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok', httpStatus: 200, rows: { read: 12, kept: 8, malformed: 3, excluded: 1 } });
    expect(rowsNotKept(result)).toBe(4);
    expect((await r.runNow(['pt-infomed']))[0]).toMatchObject({ outcome: 'not_modified' });
    await r.close();
    // The 304 attempt parsed nothing: its own figures are empty, the ingest's stay with its attempt.
    expect((await state(ctx.db, 'pt-infomed')).rows_kept).toBeNull();
    const ingested = await ctx.db.query<{ rows_kept: number }>("SELECT rows_kept FROM sync_attempts WHERE source = 'pt-infomed' AND outcome = 'ok'");
    expect(ingested.rows).toEqual([{ rows_kept: 8 }]);
    const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM packs WHERE source = 'pt-infomed'");
    expect(rows[0]!.n).toBe(8);
  });
});
