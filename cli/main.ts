/**
 * `drugref <command>`: serve the API, manage accounts and keys. Each command lives in
 * cli/commands/; this file only dispatches and reports failures.
 */
import { ConfigError } from '../platform/config.ts';
import { COMMANDS, usage } from './commands/index.ts';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(usage());
    return name ? 2 : 0;
  }
  return command.run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const message = err instanceof ConfigError ? `Configuration error: ${err.message}` : (err as Error).message;
  process.stderr.write(`drugref: ${message}\n`);
  process.exitCode = 1;
}
