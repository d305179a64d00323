/**
 * Where the server holding an embedded DATA_DIR answers browsers. The serving process
 * records it beside its database socket (platform/db-share.ts) once it listens, so links a
 * command prints beside it (`drugref console login`) open that server whatever PORT or
 * HOST it was started with. The record names the process, so a file left by a server that
 * died is never believed.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../platform/config.ts';
import { alive } from './database.ts';

const ADDRESS_FILE = 'drugref.address.json';

/** The embedded data folder a server can record its address in, or null (PostgreSQL, in memory). */
function recordDir(config: Config): string | null {
  return config.databaseUrl || config.dataDir === 'memory://' ? null : config.dataDir;
}

/** Records `origin` (what the server's own links use) for commands started beside it; returns how to remove it. */
export async function recordServerAddress(config: Config, origin: string): Promise<() => Promise<void>> {
  const dir = recordDir(config);
  if (!dir) return async () => undefined;
  const path = join(dir, ADDRESS_FILE);
  await writeFile(path, JSON.stringify({ pid: process.pid, origin }));
  return () => rm(path, { force: true });
}

/** The origin recorded by the live server holding the configured DATA_DIR, or null. */
export async function runningServerAddress(config: Config): Promise<string | null> {
  const dir = recordDir(config);
  if (!dir) return null;
  const text = await readFile(join(dir, ADDRESS_FILE), 'utf8').catch(() => null);
  if (!text) return null;
  try {
    const { pid, origin } = JSON.parse(text) as { pid?: unknown; origin?: unknown };
    return typeof pid === 'number' && typeof origin === 'string' && pid !== process.pid && alive(pid) ? origin : null;
  } catch {
    return null;
  }
}

/**
 * The configuration a command builds browser links with: the running server's own origin,
 * else PUBLIC_BASE_URL, else the default `http://localhost:PORT`.
 */
export async function linkConfig(config: Config): Promise<Config> {
  const running = await runningServerAddress(config);
  return running ? { ...config, publicBaseUrl: running } : config;
}
