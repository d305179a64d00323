/**
 * `drugref serve [--role all|api|worker]` and `drugref worker`: open and migrate the
 * database, bootstrap the demo on first start, listen, run the workers, and shut down
 * gracefully on SIGTERM/SIGINT (in-flight requests finish, workers stop, database closes).
 */
import { pino } from 'pino';
import { loadConfig } from '../../platform/config.ts';
import type { Role } from '../../platform/config.ts';
import { systemClock } from '../../platform/clock.ts';
import { loggerOptions } from '../../platform/logger.ts';
import { buildApp } from '../../facades/app.ts';
import { closeServices, createServices } from '../../facades/services.ts';
import { startWorkers } from '../../workers/index.ts';
import { embeddedDatabaseIsNew, openConfiguredDatabase } from '../database.ts';
import { readDemoImage } from '../demo-image.ts';
import { ensureDemoAccount, ensureDemoCatalogue } from '../demo.ts';

/** Resolves with the first SIGTERM/SIGINT; installed before start-up so none is missed. */
function nextStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

async function run(role: Role): Promise<number> {
  const stopSignal = nextStopSignal();
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  const image = config.demo && (await embeddedDatabaseIsNew(config)) ? await readDemoImage() : null;
  const db = await openConfiguredDatabase(config, image);
  if (image) process.stdout.write('Demo catalogue restored from the image prepared at install (demonstration data, not for clinical use).\n');
  if (config.demo && role !== 'worker') {
    const announce = () => process.stdout.write('Loading the demo catalogue (first start, about 10 s)...\n');
    const load = await ensureDemoCatalogue(db, {}, announce);
    if (!image) process.stdout.write(`${load.line}\n`);
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

/** `serve [--role]` and `worker`; the role defaults to ROLE from the configuration. */
export async function serve(role?: Role): Promise<number> {
  return run(role ?? loadConfig().role);
}
