/**
 * `drugref serve [--role all|api|worker]` and `drugref worker`: open and migrate the
 * database, bootstrap the demo on first start, listen, run the workers, and shut down
 * gracefully on SIGTERM/SIGINT (in-flight requests finish, workers stop, database closes).
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config.ts';
import type { Role } from '../../platform/config.ts';
import { systemClock } from '../../platform/clock.ts';
import { loggerOptions } from '../../platform/logger.ts';
import { buildApp } from '../../facades/app.ts';
import { closeServices, createServices } from '../../facades/services.ts';
import { startWorkers } from '../../workers/index.ts';
import { openConfiguredDatabase } from '../database.ts';
import { ensureDemoAccount, ensureDemoCatalogue } from '../demo.ts';
import type { Command } from './types.ts';

/** Resolves with the first SIGTERM/SIGINT; installed before start-up so none is missed. */
function nextStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

async function serve(role: Role): Promise<number> {
  const stopSignal = nextStopSignal();
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  const db = await openConfiguredDatabase(config);
  if (config.demo && role !== 'worker') {
    process.stdout.write(`${(await ensureDemoCatalogue(db)).line}\n`);
    for (const line of await ensureDemoAccount(db)) process.stdout.write(`${line}\n`);
  }
  const services = createServices(config, db, log);
  const app = role === 'worker' ? null : await buildApp({ config, db, services });
  const workers = role === 'api' ? null : startWorkers({ config, db, now: systemClock, log });
  if (app) {
    const address = await app.listen({ host: config.host, port: config.port });
    process.stdout.write(`drugref listening on ${address} (database: ${db.kind}, role: ${role})\n`);
  }
  if (workers) log.info({ workers: workers.names }, 'workers started');

  const signal = await stopSignal;
  log.info({ signal }, 'shutting down');
  await app?.close();
  await workers?.close();
  await closeServices(services);
  await db.close();
  log.info('stopped');
  return 0;
}

function roleOf(args: string[], fallback: Role): Role {
  const { values } = parseArgs({ args, options: { role: { type: 'string' } } });
  const role = values.role ?? fallback;
  if (!['all', 'api', 'worker'].includes(role)) throw new Error('--role must be all, api or worker');
  return role as Role;
}

export const serveCommand: Command = {
  usage: 'serve [--role all|api|worker]   serve the API (and by default the workers)',
  run: (args) => serve(roleOf(args, loadConfig().role)),
};

export const workerCommand: Command = {
  usage: 'worker                          run only the background workers',
  run: () => serve('worker'),
};
