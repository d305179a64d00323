/**
 * Writing a generated release to disk while it is generated: a full-size release is hundreds
 * of megabytes, so its pieces go to the file as they come (waiting while the file's buffer
 * is full) and are never held whole.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Writes `pieces` to `path`, in order. */
export async function writePieces(path: string, pieces: Iterable<string | Buffer>): Promise<void> {
  await pipeline(Readable.from(pieces), createWriteStream(path));
}

/** `lines`, each ended by `eol`, encoded, a thousand to a piece (one write per line is slow). */
function* lineBlocks(lines: Iterable<string>, eol: string, encoding: BufferEncoding): Generator<Buffer> {
  let block: string[] = [];
  for (const line of lines) {
    block.push(line);
    if (block.length < 1000) continue;
    yield Buffer.from(`${block.join(eol)}${eol}`, encoding);
    block = [];
  }
  if (block.length > 0) yield Buffer.from(`${block.join(eol)}${eol}`, encoding);
}

/** Writes `lines` to `path`, each ended by `eol` (the register's own: CRLF or LF), in `encoding`. */
export async function writeLines(path: string, lines: Iterable<string>, eol: '\r\n' | '\n', encoding: BufferEncoding = 'utf8'): Promise<void> {
  await writePieces(path, lineBlocks(lines, eol, encoding));
}
