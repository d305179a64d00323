import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, exitOf, migratedDataDir, runCli, startServer } from '../cli/helpers.ts';

/** `drugref console …` as a user runs it: real processes on an embedded database. */
describe('drugref console', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const masterKeys = `k1:${randomBytes(32).toString('base64')}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-console-'));
    env = cliEnv(await migratedDataDir(dir), { DEMO: 'false', PORT: '0', HOST: '127.0.0.1', BYOL_MASTER_KEYS: masterKeys });
    expect((await runCli(['keys', 'create', '--tier', 'developer', '--account', 'acme'], env)).code).toBe(0);
    expect((await runCli(['keys', 'create', '--tier', 'enterprise', '--account', 'big-co'], env)).code).toBe(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints a one-time sign-in link that a running server exchanges once', async () => {
    const printed = await runCli(['console', 'login', '--account', 'acme'], { ...env, PUBLIC_BASE_URL: 'https://drugs.example.com/' });
    expect(printed.code).toBe(0);
    const link = printed.stdout.trim().split('\n').at(-1)!;
    expect(link).toMatch(/^https:\/\/drugs\.example\.com\/console\/#login=dcl_[A-Za-z0-9_-]{43}$/);
    expect(printed.stdout).toContain('it works once');

    const server = await startServer(env);
    try {
      const token = link.split('#login=')[1];
      const exchange = () => fetch(`${server.url}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      const first = await exchange();
      expect(first.status).toBe(200);
      const session = await first.json() as { console_token: string; account: unknown };
      expect(session.account).toEqual({ name: 'acme', tier: 'developer' });
      const keys = await fetch(`${server.url}/console/api/keys`, { headers: { authorization: `Bearer ${session.console_token}` } });
      expect(keys.status).toBe(200);
      expect((await exchange()).status).toBe(401);
      expect(server.output()).not.toContain(token);
    } finally {
      server.child.kill('SIGTERM');
      await exitOf(server.child);
    }
  }, 180_000);

  it('refuses an unknown account and a missing --account', async () => {
    const unknown = await runCli(['console', 'login', '--account', 'nobody'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account named "nobody"');
    const missing = await runCli(['console', 'login'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--account <name>' not specified");
  }, 120_000);

  it('sets, shows and removes SSO for an enterprise account, never printing the secret', async () => {
    const secret = 'super-secret-client-secret';
    const args = ['console', 'sso', 'set', '--account', 'big-co', '--issuer', 'https://login.example.com/tenant', '--client-id', 'drugref', '--client-secret', secret];
    const set = await runCli([...args, '--email-domain', 'big-co.example'], { ...env, PUBLIC_BASE_URL: 'https://drugs.example.com' });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Register this redirect URI at the identity provider: https://drugs.example.com/console/api/sso/callback');
    expect(set.stdout).toContain('Sign-in starts at: https://drugs.example.com/console/api/sso/start?account=big-co');
    const shown = await runCli(['console', 'sso', 'show', '--account', 'big-co'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('issuer        https://login.example.com/tenant');
    expect(shown.stdout).toContain('email domain  big-co.example');
    expect(shown.stdout + set.stdout).not.toContain(secret);
    expect((await runCli(['console', 'sso', 'remove', '--account', 'big-co'], env)).stdout).toContain('Single sign-on removed');
    expect((await runCli(['console', 'sso', 'show', '--account', 'big-co'], env)).stdout).toContain('has no single sign-on configured');

    const growth = await runCli(['console', 'sso', 'set', '--account', 'acme', '--issuer', 'https://login.example.com', '--client-id', 'x', '--client-secret', 'y', '--email-domain', 'acme.example'], env);
    expect(growth.code).toBe(1);
    expect(growth.stderr).toContain('needs the enterprise tier');
    const http = await runCli([...args.slice(0, 5), '--issuer', 'http://login.example.com', ...args.slice(7), '--email-domain', 'x.example'], env);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--issuer: the issuer must be an https URL');
    const nobody = await runCli(args, env);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('--email-domain');
    const noVault = await runCli([...args, '--email-domain', 'big-co.example'], { ...env, BYOL_MASTER_KEYS: '' });
    expect(noVault.code).toBe(1);
    expect(noVault.stderr).toContain('BYOL_MASTER_KEYS is empty');
  }, 300_000);
});
