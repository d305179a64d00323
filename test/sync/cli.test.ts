import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, migratedDataDir, runCli } from '../cli/helpers.ts';
import { FakePublisher, buildZip } from './publisher.ts';
import { fixture } from './helpers.ts';

// Each run starts Node, tsx and an embedded PostgreSQL; on a busy 2-core machine that takes a while.
const CLI_TIMEOUT = 180_000;
const SL_PATH = '/sl/XMLPublications.zip';

// The command runs on its own embedded database (DATA_DIR); the file opens no test database,
// so only the PGlite project runs it.
describe('drugref sync (child process)', () => {
  let dir: string;
  let publisher: FakePublisher;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-sync-cli-'));
    publisher = await new FakePublisher().start();
    publisher.publish(SL_PATH, buildZip([{ name: 'Preparations.xml', content: fixture('ch-sl/Preparations.xml') }]));
    env = cliEnv(await migratedDataDir(dir), { LOG_LEVEL: 'silent', SYNC_CH_SL_URL: publisher.url + SL_PATH, SYNC_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    await publisher.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('syncs a named source, then finds it unchanged, and prints the status', async () => {
    const first = await runCli(['sync', 'ch-sl'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^ch-sl\s+ok {2}HTTP 200 {2}\d+(\.\d)? kB {2}rows \d+ read, \d+ kept, 1 malformed, 0 excluded {2}\d+ change records {2}\d+\.\d s/m);
    const second = await runCli(['sync', 'ch-sl'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^ch-sl\s+not_modified {2}HTTP 304/m);
    const status = await runCli(['sync', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Scheduled sync: off (set SYNC_ENABLED=true)');
    expect(status.stdout).toMatch(/ch-sl \(ch-sl\): ok\n {2}schedule {6}every 24 h\n {2}last attempt {2}\S+ not_modified, HTTP 304/);
    expect(status.stdout).toMatch(/gb-dmd \(gb-dmd\): never_run\n {2}schedule {6}not scheduled: no download URL configured: Distributed through NHS TRUD/);
  }, CLI_TIMEOUT);

  it('exits 1 when the publisher fails and 2 on an unknown source', async () => {
    publisher.misbehave.set(SL_PATH, { status: 502 });
    const failed = await runCli(['sync', 'ch-sl'], env);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^ch-sl\s+http_error {2}HTTP 502 .*nothing written/m);
    const unknown = await runCli(['sync', 'no-such-register'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown source(s) no-such-register');
  }, CLI_TIMEOUT);
});
