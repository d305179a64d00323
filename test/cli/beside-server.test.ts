import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, exitOf, runCli, startServer } from './helpers.ts';

/** Exchanges a sign-in link's one-time token at the server the link names, as the console page does. */
async function exchange(url: string, link: string): Promise<Response> {
  const token = /#login=(dcl_[A-Za-z0-9_-]+)$/.exec(link)?.[1];
  expect(token).toBeDefined();
  return fetch(`${url}/console/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
}

// The embedded server holds DATA_DIR and shares its database on a socket there; CLI
// commands started beside it connect to that socket (platform/db-share.ts). The file opens no
// test database, so only the PGlite project runs it.
describe('the drugref command beside a running server', { timeout: 240_000 }, () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-beside-'));
    env = cliEnv(dir, { PORT: '0', HOST: '127.0.0.1' });
    server = await startServer(env);
  }, 180_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('prints a console sign-in link beside the demo key on the first start, and it signs in', async () => {
    expect(server.output()).toMatch(/Demo API key: svc_live_/);
    const link = /Console sign-in link: (\S+)/.exec(server.output())?.[1];
    expect(link?.startsWith(`${server.url}/console/#login=dcl_`)).toBe(true);
    const res = await exchange(server.url, link!);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { account: { name: string } }).account.name).toBe('demo');
  });

  it('creates a key while the server runs, and the server accepts it at once', async () => {
    const created = await runCli(['keys', 'create', '--tier', 'pro', '--account', 'beside'], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^svc_live_/);
    const res = await fetch(`${server.url}/v1/atc/N02`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const listed = await runCli(['keys', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`svc_live_…${key.slice(-4)}  beside (pro)  active`);
  });

  it('issues a console sign-in link to the running server\'s own address (PORT=0 picks a port), which exchanges it once', async () => {
    const login = await runCli(['console', 'login', '--account', 'beside'], env);
    expect(login.code).toBe(0);
    const link = login.stdout.trim().split('\n').at(-1)!;
    expect(server.url).not.toMatch(/:3000$/);
    expect(link.split('#')[0]).toBe(`${server.url}/console/`);
    const page = await fetch(link.split('#')[0]!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/console/');
    const first = await exchange(new URL(link).origin, link);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { console_token: string; account: { name: string } };
    expect(body.account.name).toBe('beside');
    const keys = await fetch(`${server.url}/console/api/keys`, { headers: { authorization: `Bearer ${body.console_token}` } });
    expect(keys.status).toBe(200);
    expect((await exchange(server.url, link)).status).toBe(401);
  });

  it('runs commands side by side with requests, and the server still stops cleanly', async () => {
    const key = /Demo API key: (\S+)/.exec(server.output())![1]!;
    const requests = Array.from({ length: 20 }, () => fetch(`${server.url}/v1/atc/N02`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status));
    const commands = await Promise.all([runCli(['accounts', 'list'], env), runCli(['keys', 'list'], env)]);
    expect(commands.map((c) => c.code)).toEqual([0, 0]);
    expect(commands[0]!.stdout).toMatch(/beside {2}tier pro {2}1 active key\(s\)/);
    expect(new Set(await Promise.all(requests))).toEqual(new Set([200]));
    const exited = exitOf(server.child);
    expect(existsSync(join(dir, 'drugref.address.json'))).toBe(true);
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'drugref.address.json'))).toBe(false);
  });
});
