/**
 * The `drugref` command tree, declared with commander: it gives `--help` on every command,
 * unknown-command and unknown-option errors that name the offender, and missing-argument
 * checks. Each action imports its command module only when it runs, so `drugref --help`
 * (and any usage error) answers without loading the app, the database or the adapters.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { TIERS, isScope, isTier } from '../resolvers/accounts/tiers.ts';
import type { Scope, Tier } from '../resolvers/accounts/tiers.ts';
import { PACKAGE_VERSION } from '../platform/package-root.ts';

/** What an action resolves with: the process exit code (0 ok, 1 failed, 2 usage). */
type ExitCode = number;

/** Exit code of a usage error, as documented for every command. */
export const USAGE_EXIT = 2;

function parseTier(value: string): Tier {
  if (!isTier(value)) throw new InvalidArgumentError(`unknown tier "${value}"; tiers: ${TIERS.join(', ')}`);
  return value;
}

function parseScopeList(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new InvalidArgumentError(`Unknown scope(s): ${unknown.join(', ')}`);
  return scopes as Scope[];
}

function parseDays(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(days)) throw new InvalidArgumentError('must be an integer >= 0');
  return days;
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer >= 1');
  return n;
}

/**
 * Builds the program. `setExit` receives each action's exit code; `adapterHelp`, when given,
 * is appended to `drugref ingest --help` (main.ts loads the adapter list only for `ingest`).
 */
export function buildProgram(setExit: (code: ExitCode) => void, adapterHelp?: string): Command {
  const program = new Command('drugref')
    .version(PACKAGE_VERSION, '-V, --version', 'print the drugref version')
    .description('Drug reference service: serve the API, manage keys, load registers and reference data.')
    .showSuggestionAfterError()
    .exitOverride();
  const done = (code: ExitCode) => setExit(code);

  program.command('serve').description('serve the API (and by default the workers)')
    .addOption(new Option('--role <role>', 'what this process runs (default: ROLE, else all)').choices(['all', 'api', 'worker']))
    .action(async (o: { role?: 'all' | 'api' | 'worker' }) => done(await (await import('./commands/serve.ts')).serve(o.role)));
  program.command('worker').description('run only the background workers')
    .action(async () => done(await (await import('./commands/serve.ts')).serve('worker')));

  const keys = program.command('keys').description('create, list and revoke API keys');
  keys.command('create').description('create a key; the plaintext is printed once, on the last line')
    .requiredOption('--tier <tier>', `the account's tier: ${TIERS.join(', ')}`, parseTier)
    .option('--account <name>', 'account name (created if new)', 'default')
    .option('--scopes <list>', "comma-separated scopes, a subset of the tier's (default: all of the tier's)", parseScopeList)
    .option('--test', 'a test key (svc_test_…)', false)
    .action(async (o: { tier: Tier; account: string; scopes?: Scope[]; test: boolean }) => done(await (await import('./commands/keys.ts')).createKeyCommand(o)));
  keys.command('list').description('list keys by prefix and last four characters')
    .action(async () => done(await (await import('./commands/keys.ts')).listKeysCommand()));
  keys.command('revoke').description('revoke a key by its last four characters or its id').argument('<last4|id>')
    .action(async (target: string) => done(await (await import('./commands/keys.ts')).revokeKeyCommand(target)));
  program.command('accounts').description('list accounts').command('list').description('list accounts with tier and active keys')
    .action(async () => done(await (await import('./commands/keys.ts')).listAccountsCommand()));

  const consoleCmd = program.command('console').description('the account console: sign-in links and single sign-on (docs/console.md)');
  consoleCmd.command('login').description('print a one-time console sign-in link for an account (valid 10 minutes, works once)')
    .requiredOption('--account <name>', 'account name')
    .action(async (o: { account: string }) => done(await (await import('./commands/console.ts')).consoleLogin(o)));
  const sso = consoleCmd.command('sso').description("an enterprise account's OpenID Connect identity provider");
  sso.command('set').description('set (or replace) the provider; the client secret is stored encrypted')
    .requiredOption('--account <name>', 'account name (enterprise tier)')
    .requiredOption('--issuer <url>', 'issuer URL (https; discovery at <issuer>/.well-known/openid-configuration)')
    .requiredOption('--client-id <id>', 'client id registered at the provider')
    .requiredOption('--client-secret <secret>', 'client secret registered at the provider')
    .option('--email-domain <domain>', 'people with a verified e-mail in this domain may sign in')
    .option('--subject <sub>', 'this subject (sub claim) may sign in; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .action(async (o: { account: string; issuer: string; clientId: string; clientSecret: string; emailDomain?: string; subject?: string[] }) =>
      done(await (await import('./commands/console.ts')).ssoSet(o)));
  sso.command('show').description("show an account's provider (never the secret)").requiredOption('--account <name>', 'account name')
    .action(async (o: { account: string }) => done(await (await import('./commands/console.ts')).ssoShow(o)));
  sso.command('remove').description("remove an account's provider").requiredOption('--account <name>', 'account name')
    .action(async (o: { account: string }) => done(await (await import('./commands/console.ts')).ssoRemove(o)));

  program.command('byol').description('bring-your-own-licence credentials').command('rotate')
    .description('re-seal every stored credential under the active master key')
    .action(async () => done(await (await import('./commands/byol.ts')).rotate()));

  const ingest = program.command('ingest').description('load a register export through the ingest engine')
    .argument('<adapter>', 'source adapter id').argument('<file...>', 'register files')
    .option('--strict', 'reject the whole ingest on any malformed row', false)
    .option('--allow-shrink', 'accept, this once, a file that deletes more of the source (or skips more rows) than the shrink guard allows', false)
    .action(async (adapter: string, files: string[], o: { strict: boolean; allowShrink: boolean }) => done(await (await import('./commands/ingest.ts')).ingest(adapter, files, o)));
  if (adapterHelp) ingest.addHelpText('after', `\nAdapters:\n${adapterHelp}`);

  const sync = program.command('sync').description("download and ingest registers now (every active source when none is named), or show each source's sync state")
    .argument('[source...]', 'sync source ids')
    .option('--allow-shrink', 'accept, this once, files that delete more of a source (or skip more rows) than the shrink guard allows', false)
    .action(async (sources: string[], o: { allowShrink: boolean }) => done(await (await import('./commands/sync.ts')).runSyncCommand(sources, o)));
  sync.command('status').description('schedule, last attempt, outcome and freshness of each source')
    .action(async () => done(await (await import('./commands/sync.ts')).showStatusCommand()));

  const demo = program.command('demo').description('the bundled demo catalogue (demonstration data, not for clinical use)');
  demo.command('load').description('load the demo catalogue (idempotent)')
    .action(async () => done(await (await import('./commands/demo.ts')).runDemo('load')));
  demo.command('update').description("ingest the demo's second state, which moves the change feed")
    .action(async () => done(await (await import('./commands/demo.ts')).runDemo('update')));
  demo.command('generate').description('write a large synthetic catalogue into PostgreSQL with COPY (load tests; not for clinical use)')
    .requiredOption('--products <n>', 'number of products, spread over the 16 jurisdictions', parsePositive)
    .option('--packs-per-product <n>', 'packs of each product (1-9)', parsePositive, 2)
    .option('--seed <text>', 'seed of the generator (same seed, same catalogue)', 'drugref')
    .action(async (o: { products: number; packsPerProduct: number; seed: string }) => done(await (await import('./commands/demo-generate.ts')).generate(o)));
  demo.command('image').description('prepare the database image a first `npm start` restores (npm ci runs this)')
    .action(async () => done(await (await import('./commands/demo.ts')).prepareDemoImage()));

  const cache = program.command('upstream-cache').description('inspect and trim the enrichment response cache');
  cache.command('stats').description('rows, oldest and newest answer per source')
    .action(async () => done(await (await import('./commands/upstream-cache.ts')).stats()));
  cache.command('prune').description('remove cached answers older than n days')
    .requiredOption('--older-than-days <n>', 'age in days (integer >= 0)', parseDays)
    .option('--source <id>', 'only this upstream source')
    .action(async (o: { olderThanDays: number; source?: string }) => done(await (await import('./commands/upstream-cache.ts')).prune(o.olderThanDays, o.source)));

  program.command('coverage').description('how far ATC links and prices per DDD reach on the catalogue, per country and source')
    .option('--json', 'the figures as JSON instead of a table', false)
    .action(async (o: { json: boolean }) => done(await (await import('./commands/coverage.ts')).coverageCommand(o)));

  const reference = program.command('reference').description("load the service's own reference tables");
  reference.command('interactions').description('an interaction data set: drugref-interactions/1 JSON, EPha matrix CSV, DDInter CSVs')
    .argument('<file...>').option('--licensed', 'load into the licensed tier', false)
    .action(async (files: string[], o: { licensed: boolean }) => done(await (await import('./commands/reference.ts')).loadInteractions(files, o.licensed)));
  reference.command('fx').description('ECB reference rates (eurofxref CSV)').argument('<file>')
    .action(async (file: string) => done(await (await import('./commands/reference.ts')).loadFx(file)));
  reference.command('lasa').description('a confused drug names list (CSV name_a,name_b,source,reason), then the computed look-alike pairs').argument('<file>')
    .action(async (file: string) => done(await (await import('./commands/reference.ts')).loadLasa(file)));

  return program;
}
