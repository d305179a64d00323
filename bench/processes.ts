/**
 * The benchmark's processes: each server (drugref, the same-SQL baseline, PostGraphile) and
 * the load generator run in a child process of their own, spoken to over Node's IPC
 * channel (request → one reply). Where `taskset` exists, servers are pinned to CPU 0 and
 * the load generator to the last CPU, so the load never takes the server's core (the
 * database server is not ours to pin: it runs on every core).
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A message to a child and its reply; `type` routes it. */
export interface BenchMessage {
  id?: number;
  type: string;
  [key: string]: unknown;
}

export interface Child {
  readonly pid: number;
  /** CPU list the child is pinned to, or null when unpinned. */
  readonly cpus: string | null;
  request<T>(message: BenchMessage): Promise<T>;
  stop(): Promise<void>;
}

let hasTaskset: boolean | undefined;

function tasksetAvailable(): boolean {
  if (hasTaskset === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      hasTaskset = true;
    } catch {
      hasTaskset = false;
    }
  }
  return hasTaskset;
}

/** CPU of the servers and of the load generator (the same one on a single-core machine). */
export function cpuPlan(): { server: string; load: string; pinned: boolean } {
  const n = availableParallelism();
  return { server: '0', load: String(n - 1), pinned: tasksetAvailable() && n > 1 };
}

function pin(pid: number, cpus: string): void {
  // -a: every thread of the process (libuv's pool too).
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * Forks `bench/<script>` under tsx with `env`, pinned to `cpus` when possible; resolves once
 * the child sends `{ type: 'ready' }` (with whatever else it reports, e.g. its URL).
 */
export async function startChild(script: string, env: Record<string, string>, cpus: string | null): Promise<Child & { ready: BenchMessage }> {
  const path = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const proc: ChildProcess = fork(path, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pinned = cpus !== null && tasksetAvailable() ? cpus : null;
  if (pinned) pin(proc.pid!, pinned);
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const ready = new Promise<BenchMessage>((resolve, reject) => {
    proc.on('message', (m: BenchMessage) => {
      if (m.type === 'ready') resolve(m);
      const w = m.id === undefined ? undefined : waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id!);
      if (m.type === 'error') w.reject(new Error(`${script}: ${String(m.message)}`));
      else w.resolve(m);
    });
    proc.once('exit', (code) => {
      const err = new Error(`${script} exited with code ${code}`);
      reject(err);
      for (const w of waiting.values()) w.reject(err);
    });
  });
  const readyMessage = await ready;
  return {
    pid: proc.pid!,
    cpus: pinned,
    ready: readyMessage,
    request<T>(message: BenchMessage): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        proc.send({ ...message, id });
      });
    },
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** `profileStart` / `profileStop {file}`: a V8 CPU profile of the child between the two (`--profile`). */
function profiler(): (m: BenchMessage) => Promise<Record<string, unknown>> | null {
  let session: Session | null = null;
  return (m) => {
    if (m.type === 'profileStart') {
      return (async () => {
        session ??= new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        return {};
      })();
    }
    if (m.type !== 'profileStop' || !session) return null;
    return (async () => {
      const { profile } = await session!.post('Profiler.stop');
      session!.disconnect();
      session = null;
      await mkdir(dirname(String(m.file)), { recursive: true });
      await writeFile(String(m.file), JSON.stringify(profile));
      return {};
    })();
  };
}

/** `cpu`: the process's CPU time so far (user + system, µs), for CPU per request. */
function cpuTime(m: BenchMessage): Promise<Record<string, unknown>> | null {
  if (m.type !== 'cpu') return null;
  const { user, system } = process.cpuUsage();
  return Promise.resolve({ cpuUs: user + system });
}

/**
 * The child side: answers each request with `handler`'s result (or `{type: 'error'}`), and
 * runs `onStop` on SIGTERM before exiting. Every child also answers the profiler's requests
 * and `cpu`.
 */
export function serveParent(handler: (m: BenchMessage) => Promise<Record<string, unknown>>, onStop: () => Promise<void>): void {
  const profile = profiler();
  process.on('message', (m: BenchMessage) => {
    (cpuTime(m) ?? profile(m) ?? handler(m)).then(
      (reply) => process.send!({ ...reply, type: 'reply', id: m.id }),
      (err: Error) => process.send!({ type: 'error', id: m.id, message: err.stack ?? err.message }),
    );
  });
  const stop = () => {
    onStop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  // The orchestrator went away (killed, crashed): no orphan keeps a port or a connection.
  process.once('disconnect', stop);
}
