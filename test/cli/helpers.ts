/** Runs the real `drugref` command as a child process. */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/drugref.js', import.meta.url));

export function cliEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extra };
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
