/**
 * Records of an XML file read again one at a time from the byte offset their first reading
 * noted (byte-cursor.ts), so a streamed adapter keeps a number per record between its passes
 * instead of the record (gb-dmd: an AMP's packs and a pack's GTINs are read again while the
 * engine writes). The bytes are read from the offset until the record closes.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { xmlEncodingOf } from './byte-cursor.ts';
import { FileRejectedError, decodeWindows1252 } from './common.ts';
import type { InputFile } from './common.ts';
import { recordScanner } from './xml-records.ts';
import type { XmlElement } from './xml-records.ts';

/** First read at an offset: a dm+d record or two; doubled until the record closes. */
const FIRST_READ = 1024;
const MAX_READ = 1 << 20;

/** Thrown by the scanner's handler to stop at the record's close (what follows is not a document of its own). */
const FOUND = Symbol('record found');

/**
 * Reads records of one file again by their offsets: from disk when the file has a path (opened
 * on first use; `close` releases it), else from its bytes in memory. The element's `line`
 * counts from the offset, not from the file's start: callers keep the line they read first.
 */
export class RecordRereader {
  private fd: number | null = null;
  private latin: boolean | null = null;
  /** Reused for every read from disk: a reread runs hundreds of thousands of times. */
  private buffer = Buffer.allocUnsafe(FIRST_READ);

  constructor(private readonly file: InputFile) {}

  private bytes(start: number, length: number): Buffer {
    if (!this.file.path) return this.file.content.subarray(start, start + length);
    this.fd ??= openSync(this.file.path, 'r');
    if (this.buffer.length < length) this.buffer = Buffer.allocUnsafe(length);
    return this.buffer.subarray(0, readSync(this.fd, this.buffer, 0, length, start));
  }

  /** The record element that starts at byte `offset` (after whitespace or comments). */
  read(offset: number): XmlElement {
    // The XML declaration, in the first bytes, names the encoding.
    this.latin ??= xmlEncodingOf(this.bytes(0, 200)).latin;
    let element: XmlElement | undefined;
    const parser = recordScanner(this.file.name, {
      startsRecord: (_name, ancestors) => ancestors.length === 1,
      onRecord: (e) => { element = e; throw FOUND; },
    });
    // Node's decoder: cheap to create, and keeps a character split between reads for the next.
    const decoder = new StringDecoder('utf8');
    try {
      parser.write('<record>');
      for (let at = offset, size = FIRST_READ; ; at += size, size = Math.min(2 * size, MAX_READ)) {
        const bytes = this.bytes(at, size);
        if (bytes.length === 0) break;
        parser.write(this.latin ? decodeWindows1252(bytes) : decoder.write(bytes));
      }
    } catch (error) {
      if (error !== FOUND) throw error;
    }
    if (!element) throw new FileRejectedError(this.file.name, `no record at byte ${offset}: the file changed while it was ingested`);
    return element;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
