/**
 * Zip archives from publishers, unpacked into the files an adapter expects. yauzl reads the
 * central directory from the downloaded file (so a truncated archive is refused before any
 * entry is used) and inflates only the wanted entries, one stream at a time, under a cap on
 * the total unpacked size (a small archive can inflate to gigabytes). The wanted entries are
 * written to the sync's private folder and handed on as files on disk, so a release of many
 * gigabytes (DailyMed's SPL parts) is never held in memory: streaming adapters read them from
 * there, the others load each on first use. Only zips inside a zip (one per SPL, kilobytes to
 * a few megabytes) are inflated into memory to be opened.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl from 'yauzl';
import type { ZipFile } from 'yauzl';
import type { InputFile } from '../ingest/adapters/index.ts';
import { fileInput } from '../ingest/adapters/line-stream.ts';

/** The archive is not a readable zip, misses a wanted file, or inflates past the cap. */
export class ArchiveError extends Error {
  readonly tooLarge: boolean;

  constructor(message: string, tooLarge = false) {
    super(message);
    this.name = 'ArchiveError';
    this.tooLarge = tooLarge;
  }
}

export interface UnpackRules {
  /** Entries whose base name matches one of these are kept, under their base name. */
  entries: readonly RegExp[];
  /** Also look inside zips found in the archive (one level). */
  nested?: boolean;
}

/** Bytes unpacked so far across every archive of one sync, against its cap. */
export interface UnpackBudget {
  used: number;
  max: number;
}

/** Where one sync writes the entries it unpacks, and how many it has written (for unique names). */
interface Target { dir: string; written: number }

/** Counts an entry's declared size against the budget before it is inflated. */
function claim(entry: yauzl.Entry, budget: UnpackBudget): void {
  if (budget.used + entry.uncompressedSize > budget.max) throw new ArchiveError(`${entry.fileName} would unpack past the ${budget.max}-byte limit`, true);
  budget.used += entry.uncompressedSize;
}

/** Inflates an entry into a file of the target folder; its declared size is checked against the bytes written. */
async function writeEntry(zip: ZipFile, entry: yauzl.Entry, budget: UnpackBudget, target: Target): Promise<InputFile> {
  claim(entry, budget);
  const name = basename(entry.fileName);
  // Numbered: two entries (of two parts or two inner zips) may share a base name.
  target.written += 1;
  const path = join(target.dir, `${target.written}-${name}`);
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > entry.uncompressedSize) done(new ArchiveError(`${entry.fileName} inflates past its declared size`));
      else done(null, chunk);
    },
  });
  await pipeline(await zip.openReadStreamPromise(entry), counted, createWriteStream(path));
  if (size !== entry.uncompressedSize) throw new ArchiveError(`${entry.fileName} is shorter than its declared size`);
  return fileInput(path, name);
}

async function readEntry(zip: ZipFile, entry: yauzl.Entry, budget: UnpackBudget): Promise<Buffer> {
  // The declared size is checked first; yauzl also checks it against the inflated bytes.
  claim(entry, budget);
  // One buffer of the declared size, filled in place: half the peak memory of collecting chunks and concatenating.
  const content = Buffer.allocUnsafe(entry.uncompressedSize);
  let offset = 0;
  const stream = await zip.openReadStreamPromise(entry);
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (offset + bytes.length > content.length) {
      stream.destroy();
      throw new ArchiveError(`${entry.fileName} inflates past its declared size`);
    }
    bytes.copy(content, offset);
    offset += bytes.length;
  }
  if (offset !== content.length) throw new ArchiveError(`${entry.fileName} is shorter than its declared size`);
  return content;
}

async function collect(zip: ZipFile, rules: UnpackRules, budget: UnpackBudget, target: Target, depth: number): Promise<InputFile[]> {
  const files: InputFile[] = [];
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const name = basename(entry.fileName);
    if (rules.entries.some((re) => re.test(name))) {
      files.push(await writeEntry(zip, entry, budget, target));
    } else if (rules.nested && depth === 0 && /\.zip$/i.test(name)) {
      const inner = await openZip(async () => yauzl.fromBufferPromise(await readEntry(zip, entry, budget), { lazyEntries: true }), name);
      files.push(...(await collect(inner, rules, budget, target, depth + 1)));
    }
  }
  return files;
}

async function openZip(open: () => Promise<ZipFile>, label: string): Promise<ZipFile> {
  try {
    return await open();
  } catch (err) {
    if (err instanceof ArchiveError) throw err;
    throw new ArchiveError(`${label} is not a readable zip archive: ${(err as Error).message}`);
  }
}

/**
 * The wanted entries of the zip at `path`, written under `dir` (created if needed; the caller
 * removes it), as adapter input files on disk. Throws ArchiveError when the archive is
 * unreadable (truncated, not a zip), holds none of the wanted files, or is too large.
 */
export async function unpackZip(path: string, label: string, rules: UnpackRules, budget: UnpackBudget, dir: string): Promise<InputFile[]> {
  const zip = await openZip(() => yauzl.openPromise(path, { lazyEntries: true, autoClose: true }), label);
  await mkdir(dir, { recursive: true });
  let files: InputFile[];
  try {
    files = await collect(zip, rules, budget, { dir, written: 0 }, 0);
  } catch (err) {
    zip.close();
    if (err instanceof ArchiveError) throw err;
    throw new ArchiveError(`${label}: ${(err as Error).message}`);
  }
  if (files.length === 0) throw new ArchiveError(`${label} holds none of the expected files (${rules.entries.map(String).join(', ')})`);
  return files;
}
