/**
 * The tar archives PGlite writes for a data directory (`dumpDataDir`): ustar headers, plain
 * files and folders only. Read here so a first start can restore the demo image with
 * asynchronous file writes that run beside the loading of the application's modules,
 * instead of PGlite's `loadDataDir`, which writes every file synchronously on the main thread.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';

const BLOCK = 512;

export interface TarEntry {
  /** Path inside the archive, without a leading slash. */
  name: string;
  type: 'file' | 'dir';
  mode: number;
  /** Offset of the entry's header; the entry's blocks end at `end`. */
  start: number;
  end: number;
  data: Uint8Array;
}

function text(bytes: Uint8Array, from: number, length: number): string {
  const field = bytes.subarray(from, from + length);
  const nul = field.indexOf(0);
  return Buffer.from(nul < 0 ? field : field.subarray(0, nul)).toString('utf8');
}

function octal(bytes: Uint8Array, from: number, length: number, what: string): number {
  const value = text(bytes, from, length).trim();
  if (!/^[0-7]*$/.test(value)) throw new Error(`tar: ${what} is not an octal number`);
  return value ? parseInt(value, 8) : 0;
}

/** A path that stays inside the folder it is extracted to ('.' for the folder itself). */
function safeName(raw: string): string {
  const name = normalize(raw.replace(/^\/+/, '') || '.').replace(/\/+$/, '');
  if (name === '..' || name.startsWith('../')) throw new Error(`tar: unsafe entry name "${raw}"`);
  return name;
}

/** The entries of an archive; refuses any kind other than plain files and folders. */
export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  for (let at = 0; at + BLOCK <= bytes.length;) {
    const header = bytes.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const prefix = text(header, 345, 155);
    const rawName = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
    const size = octal(header, 124, 12, 'size');
    const flag = String.fromCharCode(header[156]!);
    if (flag !== '0' && flag !== '\0' && flag !== '5') throw new Error(`tar: entry "${rawName}" is of unsupported type "${flag}"`);
    const dataStart = at + BLOCK;
    const end = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (dataStart + size > bytes.length) throw new Error(`tar: entry "${rawName}" is truncated`);
    const name = safeName(rawName);
    const start = at;
    at = end;
    if (name === '.') continue;
    entries.push({
      name,
      type: flag === '5' ? 'dir' : 'file',
      mode: octal(header, 100, 8, 'mode') & 0o777,
      start,
      end,
      data: bytes.subarray(dataStart, dataStart + size),
    });
  }
  return entries;
}

/** A new archive holding only `entries` (taken from `bytes`), with the two closing zero blocks. */
export function tarOf(bytes: Uint8Array, entries: TarEntry[]): Buffer {
  return Buffer.concat([...entries.map((e) => bytes.subarray(e.start, e.end)), Buffer.alloc(2 * BLOCK)]);
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
      await writeFile(join(root, file.name), file.data, { mode: file.mode || 0o600 });
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
  const entries = readTar(bytes);
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  try {
    await mkdir(partial, { recursive: true, mode: 0o700 });
    // Folders first, parents before children, so every file's folder exists.
    const dirs = new Map(entries.filter((e) => e.type === 'dir').map((e) => [e.name, e.mode || 0o700]));
    for (const file of entries) if (file.type === 'file' && dirname(file.name) !== '.' && !dirs.has(dirname(file.name))) dirs.set(dirname(file.name), 0o700);
    for (const [dir, mode] of [...dirs].sort(([a], [b]) => a.length - b.length)) await mkdir(join(partial, dir), { recursive: true, mode });
    await writeFiles(partial, entries.filter((e) => e.type === 'file'));
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}
