/** Runs the real `drugref` command as a child process. */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { extractTar } from '../../cli/tar.ts';

export const BIN = fileURLToPath(new URL('../../bin/drugref.js', import.meta.url));

export function cliEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extra };
}

/**
 * Gives `dataDir` an embedded database that is already migrated: the PGlite project's
 * template, as a first start restores the demo image. A command's first run in an empty
 * DATA_DIR otherwise pays initdb and every migration (seconds of CPU) before the behaviour
 * under test; tests of that first start leave their DATA_DIR empty.
 */
export async function migratedDataDir(dataDir: string): Promise<string> {
  const { backend, template } = inject('testDatabase');
  if (backend !== 'pglite') throw new Error('migratedDataDir copies the PGlite template; this file must run in the pglite project');
  await extractTar(await readFile(template), join(dataDir, 'pglite'));
  return dataDir;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Starts `drugref serve` and resolves once it listens, with its URL and output so far. */
export function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /drugref listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

export function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
