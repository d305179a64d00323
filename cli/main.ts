/**
 * `drugref <command>`: parses the command line (cli/program.ts) and reports failures.
 * Exit codes: 0 ok or help, 1 the command failed, 2 usage (unknown command, option, tier…).
 */
import { CommanderError } from 'commander';
import { buildProgram, USAGE_EXIT } from './program.ts';

/** `drugref ingest --help` lists the adapters; only that command pays for loading them. */
async function adapterHelp(argv: string[]): Promise<string | undefined> {
  if (argv[0] !== 'ingest') return undefined;
  return (await import('./commands/ingest.ts')).adapterList();
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => { code = c; }, await adapterHelp(argv));
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    // commander has already printed its message; help and --version exit 0.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : USAGE_EXIT;
    throw err;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const { ConfigError } = await import('../platform/config.ts');
  const message = err instanceof ConfigError ? `Configuration error: ${err.message}` : (err as Error).message;
  process.stderr.write(`drugref: ${message}\n`);
  process.exitCode = 1;
}
