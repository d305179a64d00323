/**
 * The tar archives PGlite writes for a data directory (`dumpDataDir`), read and written with
 * tar-stream. Read here so a first start can restore the demo image with asynchronous file
 * writes that run beside the loading of the application's modules, instead of PGlite's
 * `loadDataDir`, which writes every file synchronously on the main thread.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { extract, pack, type Header } from 'tar-stream';

export interface TarEntry {
  /** Path inside the archive, without a leading slash (PGlite writes "/base/1/1259"). */
  name: string;
  /** The header as read: type ('file' or 'directory'), mode, mtime, owner. */
  header: Header;
  data: Uint8Array;
}

/** A path that stays inside the folder it is extracted to ('.' for the folder itself). */
function safeName(raw: string): string {
  const name = normalize(raw.replace(/^\/+/, '') || '.').replace(/\/+$/, '');
  if (name === '..' || name.startsWith('../')) throw new Error(`tar: unsafe entry name "${raw}"`);
  return name;
}

/** The entry's name, once it is known to be a plain file or folder with a name that stays inside. */
function checked(header: Header): string {
  if (header.type !== 'file' && header.type !== 'directory') throw new Error(`tar: entry "${header.name}" is of unsupported type "${header.type}"`);
  return safeName(header.name);
}

/** The entries of an archive; refuses any kind other than plain files and folders. */
export function readTar(bytes: Uint8Array): Promise<TarEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: TarEntry[] = [];
    const reader = extract();
    reader.on('entry', (header, stream, next) => {
      // A failed archive fails the entry being read too: its stream reports the same error.
      stream.on('error', reject);
      let name: string;
      try {
        name = checked(header);
      } catch (err) {
        next(err as Error);
        return;
      }
      // The archive is one buffer, so an entry's data is a single view of it, not a copy.
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        if (name !== '.') entries.push({ name, header, data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
        next();
      });
    });
    reader.on('finish', () => resolve(entries));
    reader.on('error', reject);
    reader.end(bytes);
  });
}

/** A new archive holding only `entries`. */
export async function tarOf(entries: TarEntry[]): Promise<Buffer> {
  const writer = pack();
  for (const { name, header, data } of entries) writer.entry({ ...header, name }, data);
  writer.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of writer) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes `files` with many writes in flight: each step of a write (open, write, close) waits
 * for the main thread, which is busy loading modules meanwhile, so a deep queue keeps the
 * thread pool working between its turns.
 */
async function writeFiles(root: string, files: TarEntry[], inFlight = 64): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await writeFile(join(root, file.name), file.data, { mode: file.header.mode & 0o777 || 0o600 });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/**
 * Extracts an archive into `target`, which must not exist. It is written to `<target>.partial`
 * (the caller holds the folder's lock; a leftover of an interrupted run is removed first) and
 * renamed once complete, so an interrupted restore never looks like a database.
 */
export async function extractTar(bytes: Uint8Array, target: string): Promise<void> {
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  try {
    const entries = await readTar(bytes);
    await mkdir(partial, { recursive: true, mode: 0o700 });
    // Folders first, parents before children, so every file's folder exists.
    const files = entries.filter((e) => e.header.type === 'file');
    const dirs = new Map(entries.filter((e) => e.header.type === 'directory').map((e) => [e.name, e.header.mode & 0o777 || 0o700]));
    for (const file of files) if (dirname(file.name) !== '.' && !dirs.has(dirname(file.name))) dirs.set(dirname(file.name), 0o700);
    for (const [dir, mode] of [...dirs].sort(([a], [b]) => a.length - b.length)) await mkdir(join(partial, dir), { recursive: true, mode });
    await writeFiles(partial, files);
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}
