/**
 * `drugref serve [--role all|api|worker]` and `drugref worker`: open and migrate the
 * database, bootstrap the demo on first start, listen, run the workers, and shut down
 * gracefully on SIGTERM/SIGINT (in-flight requests finish, workers stop, database closes).
 */
import { pino } from 'pino';
import type { Logger } from 'pino';
import { loadConfig } from '../../platform/config.ts';
import type { Config, Role } from '../../platform/config.ts';
import { systemClock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db.ts';
import { loggerOptions } from '../../platform/logger.ts';
import { compilePgliteAhead } from '../../platform/pglite-wasm.ts';
import { openConfiguredDatabase } from '../database.ts';
import { restoreDemoImage } from '../demo-image.ts';
import { recordServerAddress } from '../server-address.ts';

/** Resolves with the first SIGTERM/SIGINT; installed before start-up so none is missed. */
function nextStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

/**
 * Opens the database (restoring the demo image on a first start) while the facades'
 * modules load: the restore is file I/O in the thread pool, the loading is compilation on
 * the main thread, so each hides much of the other.
 */
async function openWhileLoading(config: Config): Promise<{ db: Database; restored: boolean; facades: Facades }> {
  let restored = false;
  const seed = config.demo ? async (dir: string) => { restored = await restoreDemoImage(dir); } : undefined;
  const [opened, loaded] = await Promise.allSettled([openConfiguredDatabase(config, seed), loadFacades()]);
  if (opened.status === 'rejected') throw opened.reason;
  if (loaded.status === 'rejected') {
    await opened.value.close();
    throw loaded.reason;
  }
  return { db: opened.value, restored, facades: loaded.value };
}

type Facades = Awaited<ReturnType<typeof loadFacades>>;

async function loadFacades() {
  const [app, services, demo] = await Promise.all([import('../../facades/app.ts'), import('../../facades/services.ts'), import('../demo.ts')]);
  return { ...demo, buildApp: app.buildApp, createServices: services.createServices, closeServices: services.closeServices };
}

/** The workers, loaded once the API answers: the ingest adapters they pull in are large, and no request waits for them. */
async function startWorkersLater(config: Config, db: Database, log: Logger) {
  const { startWorkers } = await import('../../workers/index.ts');
  const workers = startWorkers({ config, db, now: systemClock, log });
  log.info({ workers: workers.names }, 'workers started');
  return workers;
}

async function run(role: Role): Promise<number> {
  const stopSignal = nextStopSignal();
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  if (!config.databaseUrl) compilePgliteAhead();
  const { db, restored, facades } = await openWhileLoading(config);
  let demoAccount: { lines: string[]; created: boolean } | null = null;
  if (restored) process.stdout.write('Demo catalogue restored from the image prepared at install (demonstration data, not for clinical use).\n');
  if (config.demo && role !== 'worker') {
    const announce = () => process.stdout.write('Loading the demo catalogue (first start, about 10 s)...\n');
    const load = await facades.ensureDemoCatalogue(db, {}, announce);
    if (!restored) process.stdout.write(`${load.line}\n`);
    demoAccount = await facades.ensureDemoAccount(db);
    for (const line of demoAccount.lines) process.stdout.write(`${line}\n`);
  }
  const services = facades.createServices(config, db, log);
  const app = role === 'worker' ? null : await facades.buildApp({ config, db, services });
  let forgetAddress: () => Promise<void> = async () => undefined;
  if (app) {
    const address = await app.listen({ host: config.host, port: config.port });
    forgetAddress = await recordServerAddress(config, config.publicBaseUrl ?? address);
    if (demoAccount?.created) process.stdout.write(`${await facades.demoSignInLine(db, config, address)}\n`);
    process.stdout.write(`drugref listening on ${address} (database: ${db.kind}, role: ${role})\n`);
  }
  const workers = role === 'api' ? null : startWorkersLater(config, db, log);
  const shutDown = async () => {
    await app?.close();
    await forgetAddress();
    await (await workers?.catch(() => null))?.close();
    await facades.closeServices(services);
    await db.close();
  };
  // Workers that fail to start stop the process, as they did when they started before listening.
  const signal = await Promise.race([stopSignal, ...(workers ? [workers.then(() => stopSignal)] : [])]).catch(async (err: unknown) => {
    await shutDown();
    throw err;
  });
  log.info({ signal }, 'shutting down');
  await shutDown();
  log.info('stopped');
  return 0;
}

/** `serve [--role]` and `worker`; the role defaults to ROLE from the configuration. */
export async function serve(role?: Role): Promise<number> {
  return run(role ?? loadConfig().role);
}
