/**
 * Counts of answered requests survive kill -9 of the API process on both backends: on
 * embedded PGlite the database dies with the process, so the quota statement must have
 * flushed its commit before the answer left; on PostgreSQL the server outlives the process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { createKey } from '../../resolvers/accounts/keys.ts';
import { openTestDatabase, testBackend } from '../helpers/db.ts';
import { cliEnv, exitOf, startServer } from '../cli/helpers.ts';

const ANSWERED = 30;

interface Usage { windows: Array<{ window: string; used: number }> }

async function monthlyUsed(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  const body = await res.json() as Usage;
  return body.windows.find((w) => w.window === 'monthly')!.used;
}

async function answer(url: string, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${url}/v1/atc/N02`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
}

describe('quota counts after kill -9 of the API process', { timeout: 240_000 }, () => {
  let dir: string | undefined;
  let db: (Database & { url?: string }) | undefined;
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every answered request counted across a crash and a restart', async () => {
    let env: NodeJS.ProcessEnv;
    let key: string | undefined;
    if (testBackend() === 'postgres') {
      db = await openTestDatabase({ demo: true });
      key = (await createKey(db, { account: 'crash-pro', tier: 'pro' })).key;
      env = cliEnv('memory://', { DATABASE_URL: db.url!, DEMO: 'false', HOST: '127.0.0.1', PORT: '0', ROLE: 'api' });
    } else {
      dir = await mkdtemp(join(tmpdir(), 'drugref-crash-'));
      env = cliEnv(join(dir, 'data'), { HOST: '127.0.0.1', PORT: '0', ROLE: 'api' });
    }
    const first = await startServer(env);
    key ??= /Demo API key: (\S+)/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    const before = await monthlyUsed(first.url, key!);
    await answer(first.url, key!, ANSWERED);
    const exited = exitOf(first.child);
    first.child.kill('SIGKILL');
    await exited;

    const second = await startServer(env);
    try {
      // The two usage reads are counted too: the first before the 30, the second before it answers.
      expect(await monthlyUsed(second.url, key!)).toBe(before + ANSWERED + 1);
    } finally {
      const stopped = exitOf(second.child);
      second.child.kill('SIGTERM');
      await stopped;
    }
  });
});
