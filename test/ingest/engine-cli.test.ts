import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../cli/helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/ingest');
// Each run starts Node, tsx and an embedded PostgreSQL; on a busy 2-core machine that takes tens of seconds.
const CLI_TIMEOUT = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function drugref(dataDir: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    execFile(process.execPath, [join(ROOT, 'bin/drugref.js'), 'ingest', ...args], { env, cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// The command always runs on its own embedded database (DATA_DIR); the file opens no test
// database, so only the PGlite project runs it.
describe('drugref ingest (child process)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await migratedDataDir(await mkdtemp(join(tmpdir(), 'drugref-ingest-cli-')));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('rejects a broken file with exit 1 and writes nothing', async () => {
    const run = await drugref(dir, 'ch-sl', join(FIXTURES, 'ch-sl/truncated.xml'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/truncated\.xml: not well-formed XML at line \d+/);
    expect(run.stderr).toContain('nothing was written');
  }, CLI_TIMEOUT);

  it('with --strict refuses a file with a malformed row, naming file and line, and writes nothing', async () => {
    const file = join(FIXTURES, 'who-atc/atc.csv');
    const run = await drugref(dir, 'who-atc', file, '--strict');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}:10: "N02BZ9" is not an ATC code`);
  }, CLI_TIMEOUT);

  it('reports malformed rows with their line numbers, skips them and loads the rest', async () => {
    const file = join(FIXTURES, 'who-atc/atc.csv');
    const run = await drugref(dir, 'who-atc', file);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${file}:10: "N02BZ9" is not an ATC code`);
    // 6 inserts prove that neither refused run above wrote a row.
    expect(run.stdout).toMatch(/atc_nodes\s+6 inserted, 0 updated, 0 deleted, 0 unchanged/);
    expect(run.stdout).toContain('6 change records');
    expect(run.stdout).not.toMatch(/\u001b\[/);
  }, CLI_TIMEOUT);

  it('names each file with the role the adapter recognised and its rows read, kept and malformed', async () => {
    const file = join(FIXTURES, 'snapshot/snapshot.json');
    const run = await drugref(dir, 'snapshot', file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Read 1 file(s) with snapshot:');
    expect(run.stdout).toContain(`  ${file}  snapshot: 4 read, 3 kept, 1 malformed`);
  }, CLI_TIMEOUT);

  it('exits 2 with the adapter list on an unknown adapter', async () => {
    const run = await drugref(dir, 'no-such-register', 'x.csv');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown adapter "no-such-register"');
    expect(run.stderr).toContain('who-atc');
  }, CLI_TIMEOUT);
});
