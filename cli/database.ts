/**
 * Opens the configured database for a CLI command and migrates it. The embedded database
 * is a single-process store: a lock file in DATA_DIR names the process that holds it, and
 * that process shares the database on a Unix socket in DATA_DIR (platform/db-share.ts).
 * A second process (a CLI command beside `drugref serve`) connects there instead of
 * opening the files, so its writes are the server's rows at once.
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../platform/config.ts';
import type { Database, ReplicaState } from '../platform/db.ts';

/** Whether a process with this pid is running (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The live process other than this one that holds `dataDir`, or null. */
async function holderOf(dataDir: string): Promise<number | null> {
  const holder = Number(await readFile(join(dataDir, 'drugref.pid'), 'utf8').catch(() => '0'));
  return holder && holder !== process.pid && alive(holder) ? holder : null;
}

/** How long a command waits for a holder that is still starting to share its database. */
const SHARE_WAIT_MS = 15_000;
const SHARE_POLL_MS = 100;

/** The database shared by the process holding `dataDir`, once its socket answers. */
async function openSharedBy(dataDir: string, holder: number): Promise<Database> {
  const { openDatabase } = await import('../platform/db.ts');
  const deadline = Date.now() + SHARE_WAIT_MS;
  for (;;) {
    try {
      return await openDatabase({ sharedBy: dataDir });
    } catch (err) {
      if (Date.now() > deadline || !alive(holder)) {
        throw new Error(`The embedded database in ${dataDir} is held by process ${holder}, which does not share it (${(err as Error).message}). Stop that process, or set DATABASE_URL to share a PostgreSQL server.`);
      }
      await new Promise((r) => setTimeout(r, SHARE_POLL_MS));
    }
  }
}

async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lock = join(dataDir, 'drugref.pid');
  const handle = await open(lock, 'w');
  await handle.writeFile(String(process.pid));
  await handle.close();
  return () => rm(lock, { force: true });
}

/** True when the embedded database of `config` has never been created (its first start). */
export async function embeddedDatabaseIsNew(config: Config): Promise<boolean> {
  if (config.databaseUrl || config.dataDir === 'memory://') return false;
  return stat(join(config.dataDir, 'pglite', 'PG_VERSION')).then(() => false, () => true);
}

/** The log line of a replica that starts or stops serving reads (one JSON line, as the server's log). */
function logReplicaState(state: ReplicaState): void {
  const msg = state.serving
    ? `read replica ${state.name} serves reads again`
    : `read replica ${state.name} skipped: ${state.reason}${state.lagMs !== null ? ` (${state.lagMs} ms behind)` : ''}${state.error ? ` (${state.error})` : ''}`;
  process.stderr.write(`${JSON.stringify({ level: state.serving ? 30 : 40, time: Date.now(), replica: state.name, reason: state.reason, lagMs: state.lagMs, msg })}\n`);
}

/**
 * Opens and migrates the configured database. `seed`, called with the embedded database's
 * folder when that database is new (after the lock is taken), may fill it from a prepared
 * image (demo-image.ts) instead of initdb; it is not called otherwise.
 */
export async function openConfiguredDatabase(config: Config, seed?: (pgliteDir: string) => Promise<unknown>): Promise<Database> {
  // Loaded here, not up front: a first start restores its image while these modules load.
  const loading = Promise.all([import('../platform/db.ts'), import('../platform/migrate.ts')]);
  loading.catch(() => undefined); // awaited below, after the lock and the seed
  if (config.databaseUrl) {
    const [{ openDatabase }, { migrate }] = await loading;
    const db = await openDatabase({
      url: config.databaseUrl,
      replicaUrls: config.databaseReplicaUrls,
      replicaMaxLagMs: config.databaseReplicaMaxLagMs,
      replicaCheckMs: config.databaseReplicaCheckMs,
      onReplicaState: logReplicaState,
    });
    await migrate(db);
    return db;
  }
  const embedded = config.dataDir !== 'memory://';
  const holder = embedded ? await holderOf(config.dataDir) : null;
  if (holder) return openSharedBy(config.dataDir, holder);
  const unlock = embedded ? await lockDataDir(config.dataDir) : async () => undefined;
  try {
    if (seed && embedded && (await embeddedDatabaseIsNew(config))) await seed(join(config.dataDir, 'pglite'));
    const [{ openDatabase }, { migrate }] = await loading;
    const onError = (err: Error) => { process.stderr.write(`drugref: ${err.message}\n`); };
    const db = await openDatabase(embedded ? { dataDir: join(config.dataDir, 'pglite'), shareDir: config.dataDir, onError } : { dataDir: config.dataDir });
    await migrate(db);
    const close = db.close.bind(db);
    return Object.assign(db, { close: async () => { await close(); await unlock(); } });
  } catch (err) {
    await unlock();
    throw err;
  }
}
