/**
 * Element-by-element reading of one large array in a JSON document held as bytes (openFDA bulk
 * downloads: `{ "meta": {...}, "results": [ ...100 000 records... ] }`, about 1 GB).
 *
 * Decoding such a file to one string would exceed V8's string limit (about 512 MB) and a
 * JSON.parse of it would hold the whole tree at once. Instead the bytes are scanned once,
 * tracking only strings and nesting depth; each element of the wanted array is decoded and
 * parsed on its own and handed to the caller, so memory holds the file's bytes plus one record.
 * UTF-8 continuation bytes never equal `"`, `\`, brackets or commas, so a byte scan is exact.
 */
import { FileRejectedError } from './common.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const SCALAR_END = new Set([0x2c, 0x7d, 0x5d, 0x20, 0x09, 0x0d, 0x0a]);

/** What the caller does with the array's elements. */
export interface ArrayElementHandlers {
  /** One parsed element with the line its text starts on. */
  onElement(value: unknown, line: number): void;
  /** An element whose text is balanced but is not valid JSON: reported, then skipped. */
  onMalformed(line: number, message: string): void;
}

class ByteScanner {
  pos = 0;
  line = 1;

  constructor(private readonly file: string, private readonly bytes: Buffer) {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.pos = 3;
  }

  reject(message: string): never {
    throw new FileRejectedError(this.file, `not the expected JSON at line ${this.line}: ${message}`);
  }

  skipSpace(): number | undefined {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (c === NEWLINE) this.line += 1;
      else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return c;
      this.pos += 1;
    }
    return undefined;
  }

  expect(byte: number, what: string): void {
    if (this.skipSpace() !== byte) this.reject(`expected ${what}`);
    this.pos += 1;
  }

  /** Index just past the string starting at `pos` (which holds its opening quote). */
  private stringEnd(): number {
    const b = this.bytes;
    for (let i = this.pos + 1; i < b.length; i += 1) {
      const c = b[i]!;
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) return i + 1;
      else if (c === NEWLINE) this.reject('line break inside a string');
    }
    return this.reject('unterminated string');
  }

  /** Moves past one JSON value and returns its [start, end) byte range. */
  skipValue(): [number, number] {
    const b = this.bytes;
    const start = this.pos;
    const first = b[start];
    if (first === QUOTE) { this.pos = this.stringEnd(); return [start, this.pos]; }
    if (first === undefined || !OPEN.has(first)) {
      while (this.pos < b.length && !SCALAR_END.has(b[this.pos]!)) this.pos += 1;
      if (this.pos === start) this.reject('expected a value');
      return [start, this.pos];
    }
    let depth = 0;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (c === QUOTE) { this.pos = this.stringEnd(); continue; }
      if (c === NEWLINE) this.line += 1;
      else if (OPEN.has(c)) depth += 1;
      else if (CLOSE.has(c) && --depth === 0) { this.pos += 1; return [start, this.pos]; }
      this.pos += 1;
    }
    return this.reject('unterminated object or array');
  }

  text(range: [number, number]): string {
    return this.bytes.toString('utf8', range[0], range[1]);
  }
}

function memberName(scanner: ByteScanner): string {
  const line = scanner.line;
  try {
    return JSON.parse(scanner.text(scanner.skipValue())) as string;
  } catch (error) {
    if (error instanceof FileRejectedError) throw error;
    return scanner.reject(`member name at line ${line} is not a valid JSON string`);
  }
}

function readArray(scanner: ByteScanner, handlers: ArrayElementHandlers): void {
  scanner.expect(0x5b, '[');
  if (scanner.skipSpace() === 0x5d) { scanner.pos += 1; return; }
  for (;;) {
    scanner.skipSpace();
    const line = scanner.line;
    const text = scanner.text(scanner.skipValue());
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      handlers.onMalformed(line, `not valid JSON: ${(error as Error).message}`);
      value = undefined;
    }
    if (value !== undefined) handlers.onElement(value, line);
    const next = scanner.skipSpace();
    scanner.pos += 1;
    if (next === 0x5d) return;
    if (next !== 0x2c) scanner.reject('expected , or ] between array elements');
  }
}

/**
 * Reads the top-level object of `bytes` and hands every element of its array member `key` to
 * the handlers. Returns the top-level keys seen; a document that is not an object, or whose
 * structure breaks, is rejected as a whole (FileRejectedError naming the line).
 */
export function forEachArrayElement(file: string, bytes: Buffer, key: string, handlers: ArrayElementHandlers): string[] {
  const scanner = new ByteScanner(file, bytes);
  const keys: string[] = [];
  scanner.expect(0x7b, 'a JSON object');
  if (scanner.skipSpace() === 0x7d) return keys;
  for (;;) {
    if (scanner.skipSpace() !== QUOTE) scanner.reject('expected a member name');
    const name = memberName(scanner);
    keys.push(name);
    scanner.expect(0x3a, ':');
    scanner.skipSpace();
    if (name === key) readArray(scanner, handlers);
    else scanner.skipValue();
    const next = scanner.skipSpace();
    scanner.pos += 1;
    if (next === 0x7d) return keys;
    if (next !== 0x2c) scanner.reject('expected , or } between members');
  }
}
