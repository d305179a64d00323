import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, exitOf, migratedDataDir, runCli, startServer } from './helpers.ts';

// The CLI runs on the embedded database in a temp DATA_DIR: the file opens no test database
// (test/helpers/db.ts), so only the PGlite project runs it (vitest.config.ts).
// Each command is a new process opening the embedded database (seconds each), hence the timeouts.
describe('the drugref command', { timeout: 180_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-cli-'));
    env = cliEnv(await migratedDataDir(dir), { DEMO: 'false' });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('creates a key and prints the plaintext alone on the last line', async () => {
    const res = await runCli(['keys', 'create', '--tier', 'pro', '--account', 'acme', '--scopes', 'drugs:read,atc:read'], env);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(res.stdout).toContain('account "acme" (tier pro), scopes: drugs:read, atc:read');
    const test = await runCli(['keys', 'create', '--tier', 'pro', '--account', 'acme', '--test'], env);
    expect(test.stdout.trim().split('\n').at(-1)).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
  });

  it('refuses an unknown tier or scope with a message and a non-zero exit', async () => {
    const tier = await runCli(['keys', 'create', '--tier', 'platinum'], env);
    expect(tier.code).toBe(2);
    expect(tier.stderr).toContain('unknown tier "platinum"; tiers: developer, pro, starter, growth, enterprise');
    const scope = await runCli(['keys', 'create', '--tier', 'pro', '--scopes', 'drugs:write'], env);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('Unknown scope(s): drugs:write');
  });

  it('refuses scopes outside the tier instead of creating a key the API would narrow', async () => {
    const res = await runCli(['keys', 'create', '--tier', 'developer', '--account', 'narrow', '--scopes', 'drugs:read,webhooks:write'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('scope(s) webhooks:write are not in the developer tier; it grants: drugs:read, atc:read, changes:read, chat:write');
    expect((await runCli(['accounts', 'list'], env)).stdout).not.toContain('narrow');
  });

  it('answers --help on the program and on each command with exit 0, and names an unknown command (exit 2)', async () => {
    const top = await runCli(['--help'], env);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^Usage: drugref \[options\] \[command\]/);
    for (const name of ['serve', 'worker', 'keys', 'accounts', 'byol', 'ingest', 'sync', 'demo', 'upstream-cache', 'reference']) expect(top.stdout).toContain(name);
    const create = await runCli(['keys', 'create', '--help'], env);
    expect(create.code).toBe(0);
    expect(create.stdout).toContain('--tier <tier>');
    const ingest = await runCli(['ingest', '--help'], env);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain('who-atc');
    // Help loads no command module, so not even a broken configuration stands in its way.
    const broken = await runCli(['--help'], { ...env, KEY_CACHE_TTL_MS: 'soon' });
    expect(broken.code).toBe(0);
    expect((await runCli(['keys', 'list'], { ...env, KEY_CACHE_TTL_MS: 'soon' })).stderr).toContain('KEY_CACHE_TTL_MS');
    const unknown = await runCli(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('lists keys by prefix and last four only, lists accounts, and revokes by last four', async () => {
    const created = await runCli(['keys', 'create', '--tier', 'developer', '--account', 'solo'], env);
    const key = created.stdout.trim().split('\n').at(-1)!;
    const listed = await runCli(['keys', 'list'], env);
    expect(listed.stdout).toContain(`svc_live_…${key.slice(-4)}  solo (developer)  active`);
    expect(listed.stdout).not.toContain(key);
    const accounts = await runCli(['accounts', 'list'], env);
    expect(accounts.stdout).toMatch(/solo {2}tier developer {2}1 active key\(s\)/);
    const revoked = await runCli(['keys', 'revoke', key.slice(-4)], env);
    expect(revoked.code).toBe(0);
    expect((await runCli(['keys', 'list'], env)).stdout).toMatch(new RegExp(`…${key.slice(-4)}  solo \\(developer\\)  revoked`));
  });

  it('enforces the tier key limit (Free: 2 keys)', async () => {
    await runCli(['keys', 'create', '--tier', 'developer', '--account', 'limited'], env);
    await runCli(['keys', 'create', '--tier', 'developer', '--account', 'limited'], env);
    const third = await runCli(['keys', 'create', '--tier', 'developer', '--account', 'limited'], env);
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('already has 2 active keys');
  });
});

describe('drugref serve', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drugref-serve-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints a working demo key once, serves, and stops cleanly on SIGTERM', async () => {
    const env = cliEnv(dir, { PORT: '0', HOST: '127.0.0.1' });
    const first = await startServer(env);
    const key = /Demo API key: (\S+)/.exec(first.output())?.[1];
    expect(key).toMatch(/^svc_live_/);
    const res = await fetch(`${first.url}/v1/atc/N02`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).not.toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await fetch(`${first.url}/v1/atc/N02`, { headers: { authorization: 'Bearer svc_live_wrong' } })).status).toBe(401);
    const exited = exitOf(first.child);
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    const second = await startServer(env);
    expect(second.output()).not.toContain('Demo API key:');
    expect(second.output()).toContain('Demo account exists. Create another key with: npx drugref keys create');
    const stopped = exitOf(second.child);
    second.child.kill('SIGTERM');
    expect(await stopped).toBe(0);
  }, 180_000);
});
