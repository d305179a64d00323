/**
 * A prepared image of the embedded database holding the migrated schema and the demo
 * catalogue, built once when the package is installed (`npm ci` runs `drugref demo image`
 * through the `prepare` script). A first `npm start` restores it instead of running initdb,
 * every migration and the demo ingest, which roughly halves the time to the first answer.
 *
 * The image holds no account, key or secret: those are created at first start, per
 * installation. Its name carries a hash of everything that decides its content (migrations,
 * demo data, the ingest code, the PGlite version), so a stale image is never restored: the
 * server then builds the catalogue the slow way, as it would with no image at all.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { extractTar, readTar, tarOf } from './tar.ts';
import { PACKAGE_ROOT } from '../platform/package-root.ts';

/** The package folder, also when running compiled from dist/: the image's content is the sources'. */
const ROOT = PACKAGE_ROOT;

/** Where npm tools keep caches of the installed package; `npm ci` wipes it with node_modules. */
const IMAGE_DIR = join(ROOT, 'node_modules', '.cache', 'drugref');

/** What decides the image's content: a change to any of these makes a new image name. */
const CONTENT_ROOTS = ['migrations', 'data', 'workers/ingest', 'resolvers', 'cli/demo.ts', 'cli/demo-catalogue.ts', 'cli/demo-image.ts', 'cli/tar.ts', 'node_modules/@electric-sql/pglite/package.json', 'node_modules/tar-stream/package.json'];

/** Tables that must be empty in an image: they hold per-installation identities and secrets. */
const PER_INSTALLATION_TABLES = ['accounts', 'api_keys', 'webhook_subscriptions', 'webhook_fallback_key', 'byol_credentials', 'receipt_fallback_key'];

async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null);
  if (!info) return [];
  if (info.isFile()) return [path];
  const entries = await readdir(path, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A hash of every file that decides the image's content, in a stable order. */
export async function demoImageKey(root = ROOT): Promise<string> {
  const files = (await Promise.all(CONTENT_ROOTS.map((p) => filesUnder(join(root, p))))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The image file for the current sources. */
export async function demoImagePath(): Promise<string> {
  return join(IMAGE_DIR, `demo-${await demoImageKey()}.tar`);
}

/** Removes the images of earlier sources (70 MB each): only the current one can ever be restored. */
async function pruneOtherImages(current: string): Promise<void> {
  const stale = (await readdir(IMAGE_DIR)).filter((name) => /^demo-[0-9a-f]{16}\.tar$/.test(name) && join(IMAGE_DIR, name) !== current);
  await Promise.all(stale.map((name) => rm(join(IMAGE_DIR, name), { force: true })));
}

/** Whether an image was prepared for the current sources (without reading its 70 MB). */
export async function demoImageReady(): Promise<boolean> {
  return stat(await demoImagePath()).then((s) => s.isFile(), () => false);
}

/** The current image's bytes, or null when none was prepared for these sources. */
export async function readDemoImage(): Promise<Blob | null> {
  const bytes = await readFile(await demoImagePath()).catch(() => null);
  return bytes ? new Blob([bytes]) : null;
}

/**
 * The image less the WAL segments after `current`: PostgreSQL preallocates them empty and
 * creates them again when it needs them; everything written up to the checkpoint is in
 * `current` and before it.
 */
async function withoutFutureWal(image: Uint8Array, current: string): Promise<Buffer> {
  const future = (name: string) => /^pg_wal\/[0-9A-F]{24}$/.test(name) && name.slice('pg_wal/'.length) > current;
  return tarOf((await readTar(image)).filter((entry) => !future(entry.name)));
}

/**
 * Restores the current image as the embedded database folder `pgliteDir` (which must not
 * exist yet). False when no image was prepared for these sources.
 */
export async function restoreDemoImage(pgliteDir: string): Promise<boolean> {
  const bytes = await readFile(await demoImagePath()).catch(() => null);
  if (!bytes) return false;
  // A folder without a database in it: an empty one gives way; anything else is left to initdb, as before.
  const existing = await readdir(pgliteDir).catch(() => null);
  if (existing?.length) return false;
  if (existing) await rmdir(pgliteDir);
  await extractTar(bytes, pgliteDir);
  return true;
}

/**
 * Builds the image in an in-memory database and writes it atomically (a half-written
 * file is never taken for an image). Returns its path and the catalogue line to print.
 */
export async function buildDemoImage(): Promise<{ path: string; line: string }> {
  // Only the build needs these; a first start that restores the image does not wait for them.
  const [{ openDatabase }, { migrate }, { ensureDemoCatalogue }] = await Promise.all([
    import('../platform/db.ts'), import('../platform/migrate.ts'), import('./demo.ts'),
  ]);
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(db);
    const load = await ensureDemoCatalogue(db);
    for (const table of PER_INSTALLATION_TABLES) {
      const { rowCount } = await db.query(`SELECT 1 FROM ${table} LIMIT 1`);
      if (rowCount > 0) throw new Error(`the demo image would carry rows of ${table}`);
    }
    // Without recycling, the checkpoint deletes the WAL segments it no longer needs
    // instead of renaming them for reuse: 16 MB each that a first start would copy.
    await db.query('SET wal_recycle = off');
    await db.query('CHECKPOINT');
    const { rows } = await db.query<{ segment: string }>('SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS segment');
    const image = new Uint8Array(await (await db.dump!()).arrayBuffer());
    const path = await demoImagePath();
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, await withoutFutureWal(image, rows[0]!.segment));
    await rename(partial, path);
    await pruneOtherImages(path);
    return { path, line: load.line };
  } finally {
    await db.close();
  }
}
