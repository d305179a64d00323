/**
 * Reading a register file line by line in blocks, from disk when it lies there, so a streaming
 * adapter never holds the file (or its decoded text) in memory. Lines are numbered and split
 * exactly as `numberedLines` splits a decoded file (common.ts): on LF or CRLF, 1-based, blank
 * lines dropped, so problem reports name the same lines either way.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { decodeWindows1252 } from './common.ts';
import type { InputFile, NumberedLine } from './common.ts';

// Large enough that a national register is a few hundred reads, small enough to stay flat.
const BLOCK_BYTES = 1 << 20;

/**
 * An input file on disk: streaming adapters read it from `path`; the others read `content`,
 * which is loaded on first use (and then kept, as when the file was read whole).
 */
export function fileInput(path: string, name = path): InputFile {
  let bytes: Buffer | undefined;
  return {
    name,
    path,
    get content() {
      bytes ??= readFileSync(path);
      return bytes;
    },
  };
}

/** The file's bytes as a stream of blocks. */
export function openInput(file: InputFile): Readable {
  return file.path ? createReadStream(file.path, { highWaterMark: BLOCK_BYTES }) : Readable.from([file.content]);
}

/** Where the last complete UTF-8 character of `bytes` ends (a character may continue in the next block). */
function completeUtf8(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    // A lead byte: complete when the sequence it starts fits in what follows it.
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** True when the whole file is valid UTF-8, checked block by block without decoding it. */
export async function isUtf8File(file: InputFile): Promise<boolean> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const block of openInput(file)) {
    const bytes = rest.length > 0 ? Buffer.concat([rest, block as Buffer]) : (block as Buffer);
    const end = completeUtf8(bytes);
    if (!isUtf8(bytes.subarray(0, end))) return false;
    rest = Buffer.from(bytes.subarray(end));
  }
  return rest.length === 0 || isUtf8(rest);
}

/**
 * How a file's lines are decoded: all as UTF-8, all as Windows-1252, or each line as UTF-8 unless
 * it is not valid UTF-8, then as Windows-1252 (as `forEachLine` reads a file held in memory).
 */
export type LineEncoding = 'utf-8' | 'windows-1252' | 'utf-8-else-windows-1252';

function decoderFor(encoding: LineEncoding): (bytes: Buffer) => string {
  if (encoding === 'windows-1252') return decodeWindows1252;
  if (encoding === 'utf-8') return (bytes) => bytes.toString('utf8');
  return (bytes) => {
    const text = bytes.toString('utf8');
    return text.includes('\ufffd') ? decodeWindows1252(bytes) : text;
  };
}

/**
 * Non-blank lines of `file` with their 1-based numbers, decoded as `encoding` (a UTF-8
 * byte-order mark is skipped). Only the current block and a partial line are held.
 */
export async function* fileLines(file: InputFile, encoding: LineEncoding): AsyncGenerator<NumberedLine> {
  const decode = decoderFor(encoding);
  const bom = encoding !== 'windows-1252';
  let rest: Buffer = Buffer.alloc(0);
  let line = 0;
  let first = true;
  for await (const block of openInput(file)) {
    let bytes = rest.length > 0 ? Buffer.concat([rest, block as Buffer]) : (block as Buffer);
    if (first && bytes.length >= 3) {
      first = false;
      if (bom && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    let start = 0;
    for (let newline = bytes.indexOf(0x0a, start); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
      line += 1;
      const end = newline > start && bytes[newline - 1] === 0x0d ? newline - 1 : newline;
      const text = decode(bytes.subarray(start, end));
      if (text.trim() !== '') yield { line, text };
      start = newline + 1;
    }
    // Copied, so the block it came from can be collected.
    rest = Buffer.from(bytes.subarray(start));
  }
  if (rest.length > 0) {
    if (first && bom && rest[0] === 0xef && rest[1] === 0xbb && rest[2] === 0xbf) rest = rest.subarray(3);
    const text = decode(rest);
    if (text.trim() !== '') yield { line: line + 1, text };
  }
}
