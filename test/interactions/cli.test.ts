import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, migratedDataDir, runCli } from '../cli/helpers.ts';
import { DEMO_INTERACTIONS_FILE } from '../../workers/ingest/interactions.ts';
import { DEMO_FX_FILE } from '../../resolvers/markets/fx-file.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'drugref-reference-'));
  env = cliEnv(await migratedDataDir(join(dir, 'db')), { DEMO: 'false' });
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('drugref reference', () => {
  it('loads an interaction file once, and a second load changes nothing', async () => {
    const first = await runCli(['reference', 'interactions', fileURLToPath(DEMO_INTERACTIONS_FILE)], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Loaded interactions into source demo-interactions: open 245 new, 0 changed, 0 removed; licensed 245 new');
    const again = await runCli(['reference', 'interactions', fileURLToPath(DEMO_INTERACTIONS_FILE)], env);
    expect(again.stdout).toContain('open 0 new, 0 changed, 0 removed; licensed 0 new, 0 changed, 0 removed (0 change records)');
  }, 120_000);

  it('loads ECB reference rates', async () => {
    const res = await runCli(['reference', 'fx', fileURLToPath(DEMO_FX_FILE)], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Loaded 15 reference rates for 1 date(s), newest 2010-09-10.');
  }, 60_000);

  it('loads EPha\'s matrix CSV, listing its malformed rows by line, and refuses a DDInter set nothing in the catalogue matches', async () => {
    const fixtures = (name: string) => fileURLToPath(new URL(`../fixtures/interactions/${name}`, import.meta.url));
    const epha = await runCli(['reference', 'interactions', fixtures('epha-matrix.csv')], env);
    expect(epha.code).toBe(0);
    expect(epha.stderr).toContain('3 row(s) skipped:');
    expect(epha.stderr).toContain(`${fixtures('epha-matrix.csv')}:10: grade "Q" is not one of A, B, C, D, X`);
    expect(epha.stdout).toContain('Read 9 epha-csv rows: 4 rules, 2 folded into another row\'s rule');
    expect(epha.stdout).toContain('Loaded interactions into source epha-interactions: open 4 new, 0 changed, 0 removed; licensed 0 new');
    // The database of this file holds no substances: DDInter's drug names match nothing.
    const ddinter = await runCli(['reference', 'interactions', fixtures('ddinter_downloads_code_B.csv'), fixtures('ddinter_downloads_code_M.csv')], env);
    expect(ddinter.code).toBe(1);
    expect(ddinter.stderr).toContain('file rejected, nothing was written: no usable rows');
  }, 120_000);

  it('rejects a malformed file with exit 1 and shows usage with exit 2', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ format: 'drugref-interactions/1', source: { id: 's', name: 'n', refresh_interval_hours: 1 }, licences: {}, interactions: [{ a: 'X', b: 'Y' }] }));
    const res = await runCli(['reference', 'interactions', bad], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('file rejected, nothing was written');
    expect((await runCli(['reference', 'nope'], env)).code).toBe(2);
  }, 60_000);
});
