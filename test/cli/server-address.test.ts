import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../platform/config.ts';
import { linkConfig, recordServerAddress, runningServerAddress } from '../../cli/server-address.ts';

/** A process id that no longer runs: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the address a server records beside its DATA_DIR', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-address-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is not believed from this process, nor from a process that died, nor when unreadable', async () => {
    const config = testConfig({ dataDir: dir, port: 3000, publicBaseUrl: null });
    const forget = await recordServerAddress(config, 'http://127.0.0.1:3517');
    expect(await runningServerAddress(config)).toBeNull(); // the recorder itself
    await forget();
    await writeFile(join(dir, 'drugref.address.json'), JSON.stringify({ pid: await deadPid(), origin: 'http://127.0.0.1:3517' }));
    expect(await runningServerAddress(config)).toBeNull();
    await writeFile(join(dir, 'drugref.address.json'), '{"pid":');
    expect(await runningServerAddress(config)).toBeNull();
    expect((await linkConfig(config)).publicBaseUrl).toBeNull();
  });

  it('wins over PUBLIC_BASE_URL when a live server recorded it; PostgreSQL and in-memory setups never read it', async () => {
    await writeFile(join(dir, 'drugref.address.json'), JSON.stringify({ pid: process.ppid, origin: 'http://127.0.0.1:3517' }));
    const config = testConfig({ dataDir: dir, publicBaseUrl: 'https://drugref.example' });
    expect((await linkConfig(config)).publicBaseUrl).toBe('http://127.0.0.1:3517');
    expect((await linkConfig({ ...config, databaseUrl: 'postgres://x@127.0.0.1/db' })).publicBaseUrl).toBe('https://drugref.example');
    expect(await runningServerAddress({ ...config, dataDir: 'memory://' })).toBeNull();
  });
});
