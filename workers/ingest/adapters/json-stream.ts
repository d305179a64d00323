/**
 * Element-by-element reading of one large array in a JSON document held as bytes (openFDA bulk
 * downloads: `{ "meta": {...}, "results": [ ...100 000 records... ] }`, about 1 GB).
 *
 * Decoding such a file to one string would exceed V8's string limit (about 512 MB) and a
 * JSON.parse of it would hold the whole tree at once. Instead the bytes are scanned once,
 * tracking only strings and nesting depth; each element of the wanted array is decoded and
 * parsed on its own and handed to the caller, so memory holds the file's bytes plus one record.
 * UTF-8 continuation bytes never equal `"`, `\`, brackets or commas, so a byte scan is exact.
 *
 * The scan is resumable: `jsonFileArrayElements` feeds it the file from disk block by block,
 * and a step (a member name, a skipped member, an array element) that reaches the end of the
 * bytes read so far is retried from its start once the next block has arrived. Then memory
 * holds one block and one record, never the file.
 */
import { FileRejectedError } from './common.ts';
import type { InputFile } from './common.ts';
import { openInput } from './line-stream.ts';

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

/** Thrown when a step needs bytes beyond those read so far (never on the last block). */
class NeedMore extends Error {}

class ByteScanner {
  pos = 0;

  /** `final`: these bytes run to the end of the file; else reaching their end asks for more. */
  constructor(private readonly file: string, readonly bytes: Buffer, public line: number, private readonly final: boolean) {}

  /** The end of the bytes: on the last block the document ends here, else the step waits for more. */
  private atEnd(): void {
    if (!this.final) throw new NeedMore();
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
    this.atEnd();
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
    this.atEnd();
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
      // A number or literal cut off by the end of a block may go on in the next one.
      if (this.pos === b.length) this.atEnd();
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
    this.atEnd();
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
    if (error instanceof FileRejectedError || error instanceof NeedMore) throw error;
    return scanner.reject(`member name at line ${line} is not a valid JSON string`);
  }
}

/** Where the scan stands between steps. */
type Step = 'object' | 'member' | 'skip' | 'array' | 'element' | 'afterElement' | 'afterMember' | 'done';

/** The scan of one document as steps, each done whole or (NeedMore) not at all. */
class ArrayScan {
  step: Step = 'object';
  readonly keys: string[] = [];

  constructor(private readonly key: string, private readonly handlers: ArrayElementHandlers) {}

  /** Runs steps until the document ends or the bytes run out; returns how far the bytes were consumed. */
  run(scanner: ByteScanner): void {
    while (this.step !== 'done') {
      const [pos, line] = [scanner.pos, scanner.line];
      try {
        this.advance(scanner);
      } catch (error) {
        if (!(error instanceof NeedMore)) throw error;
        scanner.pos = pos;
        scanner.line = line;
        return;
      }
    }
  }

  private advance(s: ByteScanner): void {
    switch (this.step) {
      case 'object':
        s.expect(0x7b, 'a JSON object');
        this.step = s.skipSpace() === 0x7d ? 'done' : 'member';
        return;
      case 'member': {
        if (s.skipSpace() !== QUOTE) s.reject('expected a member name');
        const name = memberName(s);
        s.expect(0x3a, ':');
        s.skipSpace();
        this.keys.push(name);
        this.step = name === this.key ? 'array' : 'skip';
        return;
      }
      case 'skip': s.skipValue(); this.step = 'afterMember'; return;
      case 'array':
        s.expect(0x5b, '[');
        if (s.skipSpace() === 0x5d) { s.pos += 1; this.step = 'afterMember'; } else this.step = 'element';
        return;
      case 'element': this.element(s); this.step = 'afterElement'; return;
      case 'afterElement': this.after(s, 0x5d, 'element', 'afterMember', 'expected , or ] between array elements'); return;
      case 'afterMember': this.after(s, 0x7d, 'member', 'done', 'expected , or } between members'); return;
      default:
    }
  }

  private element(s: ByteScanner): void {
    s.skipSpace();
    const line = s.line;
    const text = s.text(s.skipValue());
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.handlers.onMalformed(line, `not valid JSON: ${(error as Error).message}`);
      value = undefined;
    }
    if (value !== undefined) this.handlers.onElement(value, line);
  }

  private after(s: ByteScanner, close: number, more: Step, end: Step, message: string): void {
    const next = s.skipSpace();
    s.pos += 1;
    if (next === close) this.step = end;
    else if (next === 0x2c) this.step = more;
    else s.reject(message);
  }
}

const hasBom = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/**
 * Reads the top-level object of `bytes` and hands every element of its array member `key` to
 * the handlers. Returns the top-level keys seen; a document that is not an object, or whose
 * structure breaks, is rejected as a whole (FileRejectedError naming the line).
 */
export function forEachArrayElement(file: string, bytes: Buffer, key: string, handlers: ArrayElementHandlers): string[] {
  const scan = new ArrayScan(key, handlers);
  scan.run(new ByteScanner(file, hasBom(bytes) ? bytes.subarray(3) : bytes, 1, true));
  return scan.keys;
}

/** An element of the array, or one whose text is not valid JSON. */
export type ArrayElement = { line: number; value: unknown } | { line: number; malformed: string };

/**
 * The elements of the array member `key` of the JSON object in `file`, read from disk block by
 * block (from memory when the file has no path), exactly as `forEachArrayElement` hands them
 * over. Returns the top-level keys seen; rejects what `forEachArrayElement` rejects.
 */
export function jsonFileArrayElements(file: InputFile, key: string): AsyncGenerator<ArrayElement, string[]> {
  return jsonBlockArrayElements(file.name, openInput(file) as AsyncIterable<Buffer>, key);
}

/** `jsonFileArrayElements` over any sequence of blocks (tests cut a document into blocks of a few bytes). */
export async function* jsonBlockArrayElements(name: string, blocks: AsyncIterable<Buffer> | Iterable<Buffer>, key: string): AsyncGenerator<ArrayElement, string[]> {
  const ready: ArrayElement[] = [];
  const scan = new ArrayScan(key, {
    onElement: (value, line) => { ready.push({ line, value }); },
    onMalformed: (line, malformed) => { ready.push({ line, malformed }); },
  });
  let rest: Buffer = Buffer.alloc(0);
  let line = 1;
  let first = true;
  for await (const block of blocks) {
    let bytes = rest.length > 0 ? Buffer.concat([rest, block]) : block;
    if (first && bytes.length < 3) { rest = Buffer.from(bytes); continue; }
    if (first && hasBom(bytes)) bytes = bytes.subarray(3);
    first = false;
    const scanner = new ByteScanner(name, bytes, line, false);
    scan.run(scanner);
    yield* ready.splice(0);
    // Copied, so the block the unfinished step lies in can be collected.
    rest = Buffer.from(bytes.subarray(scanner.pos));
    line = scanner.line;
    if (scan.step === 'done') break;
  }
  if (scan.step !== 'done') {
    const bytes = first && hasBom(rest) ? rest.subarray(3) : rest;
    scan.run(new ByteScanner(name, bytes, line, true));
    yield* ready.splice(0);
  }
  return scan.keys;
}
