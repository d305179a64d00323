/** Every `drugref` command by name. */
import type { Command } from './types.ts';
import { serveCommand, workerCommand } from './serve.ts';
import { accountsCommand, keysCommand } from './keys.ts';
import { byolCommand } from './byol.ts';
import { ingestCommand } from './ingest.ts';
import { demoCommand } from './demo.ts';
import { upstreamCacheCommand } from './upstream-cache.ts';
import { referenceCommand } from './reference.ts';
import { syncCommand } from './sync.ts';

export const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  worker: workerCommand,
  keys: keysCommand,
  accounts: accountsCommand,
  byol: byolCommand,
  ingest: ingestCommand,
  demo: demoCommand,
  'upstream-cache': upstreamCacheCommand,
  reference: referenceCommand,
  sync: syncCommand,
};

export function usage(): string {
  return `usage: drugref <command>\n${Object.entries(COMMANDS).map(([name, c]) => `  ${name === c.usage.split(' ')[0] ? '' : `${name} `}${c.usage}`).join('\n')}\n`;
}
